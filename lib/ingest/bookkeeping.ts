// Durable bookkeeping of ingest: pending runs (so nothing a pass saw is lost) and the pass log.
// Through the driver like the rest of ingest: Prisma's client would cost `ingest --once` its start-up
// (about 0.15 s of CPU) for three statements.
import type { ProwRun } from '../parse/types';
import { insertMany } from '../store/bulk';
import type { Database, Param, Sql } from '../store/db';
import { keepReserve, releaseReserveFor } from '../store/diskReserve';
import { onPendingRows } from '../store/pending';

/** What a pass did, as `ingest` prints it and the ingest log keeps it. */
export interface PassSummary {
  runsNew: number;
  runsUpdated: number;
  runsPending: number;
  /** of those, runs Deck stopped listing before they finished (checked less and less often) */
  runsLost: number;
  /** runs that could not be fetched or stored this pass (kept pending, tried again later) */
  runsFailed: number;
  /** of those, runs the database refused to store (a full disk, say): a pass with any is a failed pass */
  runsNotStored: number;
  /** of runsNew, those found in the GCS job folders rather than in Deck's listing (see backfill) */
  runsBackfilled: number;
  /** runs deleted for having started before the retention (`retention`, 90 days by default) */
  runsPruned: number;
  /**
   * The backfill (`ingest --since`, `ingest.since`): how far back (builds started since `from`, ISO),
   * the jobs whose GCS folders were listed, and the builds found there that no pass had seen
   */
  backfill?: { since: string; from: string; jobsListed: number; buildsFound: number };
  testResults: number;
  parseErrors: number;
  seconds: number;
  /** bytes received from every source (gzip-encoded ones as received) */
  downloadedBytes: number;
  source: string;
  /** where runs were parsed and their failures clustered */
  parsedOn: string;
  /**
   * What the pass took over from the process's previous pass instead of reading or building again
   * (passes of `ingest --interval`, while the database holds what they know): the runs stored in
   * Deck's window, the catalog of jobs, tests, test sets and signatures, the clustering index, and
   * the indexes bug linking searches with.
   */
  kept: { knownRuns: boolean; catalog: boolean; signatureIndex: boolean; bugLinkIndexes: boolean };
  /** sources that failed without failing the pass (a bug tracker that did not answer, say) */
  warnings: string[];
  /** failed: the pass completed, but the database refused runs (see runsNotStored and message) */
  status: 'ok' | 'failed';
  /** why the pass failed ('' when ok) */
  message: string;
}

/**
 * Seconds before a run is tried again after `attempts` tries that could not take it: 5 minutes, then
 * doubling up to `cap`, a day by default (a run that stays unreadable costs a request a day, not one
 * every pass).
 */
export function backoffSeconds(attempts: number, cap = 86_400): number {
  return Math.min(300 * 2 ** Math.max(0, attempts - 1), cap);
}

/**
 * The longest wait for a run Deck still lists: when every run fails at once (GCS down, a wrong
 * configuration), runs are read again within an hour of the fix, not a day.
 */
export const LISTED_MAX_WAIT = 3600;

/** A pending run's tries: those that could not take it so far (0 for a run Deck lists unfinished), and why the last failed. */
export interface PendingTries {
  attempts: number;
  error: string;
  /** the pass whose Deck listing has the run; 0 when Deck no longer lists it (then `last_seen` keeps when it last did) */
  listedByPass: number;
}

const PENDING_COLUMNS = ['job', 'build_id', 'url', 'state', 'started', 'first_seen', 'last_seen', 'listed_by_pass', 'attempts', 'last_error', 'record', 'next_check'];
const latest = (column: string) => `${column} = CASE WHEN excluded.${column} > pending_run.${column} THEN excluded.${column} ELSE pending_run.${column} END`;
const PENDING_UPSERT = `ON CONFLICT (job, build_id) DO UPDATE SET state = excluded.state, url = excluded.url, ${latest('last_seen')}, ${latest('listed_by_pass')},
  attempts = excluded.attempts, last_error = excluded.last_error, record = excluded.record, next_check = excluded.next_check`;

function pendingRow(run: ProwRun, now: number, tried: PendingTries): Param[] {
  const { attempts, listedByPass } = tried;
  const nextCheck = attempts ? now + backoffSeconds(attempts, listedByPass ? LISTED_MAX_WAIT : undefined) : 0;
  return [run.job, run.buildId, run.url, run.state, run.started, now, listedByPass ? now : 0, listedByPass, attempts, tried.error.slice(0, 2000), JSON.stringify(run), nextCheck];
}

/**
 * Keeps runs pending, in one statement: runs Deck lists unfinished (no attempts; taken as soon as
 * Deck lists them finished), and runs after a try that could not take them (the next try waits
 * backoffSeconds(attempts), at most an hour while Deck lists the run).
 */
export async function upsertPending(db: Sql, tries: readonly { run: ProwRun; tried: PendingTries }[], now: number): Promise<void> {
  // an upsert may touch a row once
  const unique = new Map(tries.map((t) => [`${t.run.job}/${t.run.buildId}`, t]));
  const rows = [...unique.values()].map((t) => pendingRow(t.run, now, t.tried));
  if (rows.length) await db.tx((sql) => insertMany(sql, 'pending_run', PENDING_COLUMNS, rows, PENDING_UPSERT));
}

/** Notes that Deck still lists these pending runs (waiting for their next try, they are not lost). */
export async function markListed(db: Sql, runs: ProwRun[], now: number, passId: number): Promise<void> {
  await onPendingRows(db, runs, (where) => `UPDATE pending_run SET last_seen = ?, listed_by_pass = ? WHERE ${where}`, [now, passId]);
}

export interface PendingRow {
  run: ProwRun;
  attempts: number;
  /** not tried again before (Unix seconds) */
  nextCheck: number;
}

export async function listPending(db: Sql): Promise<PendingRow[]> {
  const rows = await db.all<{ record: string; attempts: number; next_check: number }>('SELECT record, attempts, next_check FROM pending_run ORDER BY started, job, build_id');
  return rows.flatMap((r) => {
    try {
      return [{ run: JSON.parse(r.record) as ProwRun, attempts: Number(r.attempts), nextCheck: Number(r.next_check) }];
    } catch {
      return [];
    }
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function recordPassStart(db: Database): Promise<number> {
  const row = await db.get<{ id: number }>("INSERT INTO ingest_pass (started_at, status) VALUES (?, 'running') RETURNING id", [nowSeconds()]);
  keepReserve(db); // room to record this pass's end should the runs fill the disk
  return Number(row!.id);
}

/** Records how a pass ended; on a full disk, once more after making room (see lib/store/diskReserve.ts). */
export async function recordPassEnd(db: Database, id: number, s: PassSummary, status: 'ok' | 'failed', message = ''): Promise<void> {
  try {
    await writePassEnd(db, id, s, status, message);
  } catch (e) {
    if (!releaseReserveFor(db, e)) throw e;
    await writePassEnd(db, id, s, status, message);
  }
}

async function writePassEnd(db: Sql, id: number, s: PassSummary, status: 'ok' | 'failed', message: string): Promise<void> {
  await db.run(
    `UPDATE ingest_pass SET finished_at = ?, runs_new = ?, runs_updated = ?, runs_pending = ?, runs_failed = ?, runs_not_stored = ?, runs_lost = ?, runs_backfilled = ?, runs_pruned = ?,
       test_results = ?, parse_errors = ?, downloaded_bytes = ?, seconds = ?, status = ?, message = ?, warnings = ?
     WHERE id = ?`,
    [
      nowSeconds(), s.runsNew, s.runsUpdated, s.runsPending, s.runsFailed, s.runsNotStored, s.runsLost, s.runsBackfilled, s.runsPruned, s.testResults, s.parseErrors,
      s.downloadedBytes, s.seconds, status, message.slice(0, 2000), JSON.stringify(s.warnings.slice(0, 50).map((w) => w.slice(0, 2000))), id,
    ],
  );
}
