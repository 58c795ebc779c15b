// Writing runs inside the caller's transaction, replacing whatever the database had for each (job,
// build): a kill -9 leaves whole runs or none, and re-ingest never duplicates.
import { cleanText } from '../parse/testNames';
import type { RunRecord } from '../parse/types';
import type { RunSearchText } from './searchIndex';
import type { Catalog } from './catalog';
import type { Database, Param, Sql } from './db';
import { insertMany } from './bulk';
import { KeptPerDatabase } from './keptBetweenPasses';
import { onPendingRows } from './pending';
import { writeSearchRows, type SearchBases } from './searchIndex';
import { isBroken, rollUp, rollUpStored } from './rollups';


/** A run ready to store: its record, the signature of each result's failure text, its search text. */
export interface AssembledRun {
  record: RunRecord;
  /** per result (same order): the signature of its failure text, or null */
  signatures: ({ hash: string; text: string } | null)[];
  /** what the search index keeps of it */
  search: RunSearchText;
}

export const OUTCOME_CODE = { failed: 1, flaked: 2 } as const;
/** Raw failure text kept per outcome (the normalised text lives once on the signature). */
export const MESSAGE_CAP = 4000;

export interface KnownRun {
  state: string;
  /** some file of it could not be downloaded */
  incomplete: boolean;
  /** passes that read it and still missed a file (0 when complete) */
  readAttempts: number;
  /** when it was last stored (Unix seconds) */
  ingestedAt: number;
  started: number;
}

/**
 * The runs stored that started since `sinceStarted`, keyed "job/build". Read every pass, over as many
 * days as Deck lists (at OpenShift's scale some 70,000 runs): rows as arrays, job ids rather than a
 * join for their names, and `meta` only where a run missed a file.
 */
export async function knownRuns(db: Database, sinceStarted: number): Promise<Map<string, KnownRun>> {
  const jobNames = new Map((await db.rows('SELECT id, name FROM job')).map(([id, name]) => [Number(id), name as string]));
  const rows = await db.rows(
    `SELECT job_id, build_id, state, ingested_at, started, CASE WHEN meta LIKE '%"incomplete":true%' THEN meta ELSE '' END FROM run WHERE started >= ?`,
    [sinceStarted],
  );
  const known = new Map<string, KnownRun>();
  for (const [jobId, buildId, state, ingestedAt, started, meta] of rows as [number, string, string, number, number, string][]) {
    const incomplete = meta !== '';
    const readAttempts = incomplete ? Number(/"readAttempts":(\d+)/.exec(meta)?.[1] ?? 1) : 0;
    known.set(`${jobNames.get(Number(jobId))}/${buildId}`, { state, incomplete, readAttempts, ingestedAt: Number(ingestedAt), started: Number(started) });
  }
  return known;
}

/** What the last completed pass on each database object knew of the stored runs (see knownRunsForPass). */
const keptKnown = new KeptPerDatabase<{ since: number; newestRun: number; runs: Map<string, KnownRun> }>();

const newestRunId = async (db: Database) => Number((await db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM run'))?.id ?? 0);

/**
 * The runs stored that started since `sinceStarted` (see knownRuns): those the last completed pass on
 * this database object knew, with what it stored, when no run was written since (a run written, or
 * written again, gets a new id: the newest id is the one that pass saw last); else read. At
 * OpenShift's scale (71,400 runs in Deck's window) reading took 0.14-0.26 s a pass. A run missing
 * from a stale map would only be fetched again, never lost.
 */
export async function knownRunsForPass(db: Database, sinceStarted: number): Promise<{ runs: Map<string, KnownRun>; kept: boolean }> {
  const kept = keptKnown.take(db);
  if (kept && sinceStarted >= kept.since && (await newestRunId(db)) === kept.newestRun) {
    for (const [k, r] of kept.runs) if (r.started < sinceStarted) kept.runs.delete(k);
    return { runs: kept.runs, kept: true };
  }
  return { runs: await knownRuns(db, sinceStarted), kept: false };
}

/** Keeps a completed pass's known runs, with the runs it stored added, for the next pass on `db`. */
export async function keepKnownRuns(db: Database, runs: Map<string, KnownRun>, sinceStarted: number): Promise<void> {
  keptKnown.keep(db, { since: sinceStarted, newestRun: await newestRunId(db), runs });
}

/** A failure text as stored (search reads it so: lib/search/runText.ts). */
export function capMessage(s: string): string {
  return s.length <= MESSAGE_CAP ? s : `${s.slice(0, MESSAGE_CAP / 2)}\n...[truncated]...\n${s.slice(-MESSAGE_CAP / 2)}`;
}

/** A run to store, with what the pass knows about rows it may already have. */
export interface RunToWrite {
  assembled: AssembledRun;
  /** an earlier version may be stored (else it is assumed new, and checked by the insert) */
  replace: boolean;
  /** it has a pending_run row to clear */
  wasPending: boolean;
}

const RUN_COLUMNS = ['job_id', 'build_id', 'state', 'started', 'finished', 'url', 'gcs_path', 'pull', 'base_ref', 'commit_sha', 'payload',
  'test_set_id', 'passed', 'failed', 'flaked', 'skipped', 'install_failed', 'parse_errors', 'meta', 'fingerprint', 'ingested_at'];
/** where a run row holds its count of failed tests */
const RUN_FAILED = RUN_COLUMNS.indexOf('failed');
const RUN_TUPLE = `(${RUN_COLUMNS.map(() => '?').join(', ')})`;
const RUN_INSERT = `INSERT INTO run (${RUN_COLUMNS.join(', ')}) VALUES`;

/** A run's row: its counts and references. */
function runRow(rec: RunRecord, jobId: number, testSetId: number | null, now: number): Param[] {
  const counts = { passed: 0, failed: 0, flaked: 0, skipped: 0 };
  for (const r of rec.results) counts[r.outcome]++;
  return [
    jobId, rec.buildId, rec.state, rec.started, rec.finished, rec.url, rec.gcsPath, rec.pull, rec.baseRef, rec.commitSha, rec.payload,
    testSetId, counts.passed, counts.failed, counts.flaked, counts.skipped, rec.installFailed ? 1 : 0, rec.problems.length,
    JSON.stringify(rec.meta), rec.fingerprint, now,
  ];
}

/** The ids of the tests a run executed (all but the skipped ones). */
function executedTests(rec: RunRecord, ids: Int32Array): Int32Array {
  const executed = new Int32Array(ids.length);
  let e = 0;
  for (let i = 0; i < ids.length; i++) if (rec.results[i].outcome !== 'skipped') executed[e++] = ids[i];
  return executed.subarray(0, e);
}

/** A run's outcome rows: one per failure or flake (passes and skips are only counted, on the run row). */
function failureRows(a: AssembledRun, ids: Int32Array, runId: number, jobId: number, catalog: Catalog, out: Param[][]): void {
  const rec = a.record;
  for (let i = 0; i < rec.results.length; i++) {
    const r = rec.results[i];
    if (r.outcome !== 'failed' && r.outcome !== 'flaked') continue;
    const sig = a.signatures[i];
    out.push([runId, ids[i], OUTCOME_CODE[r.outcome], sig ? catalog.signatureId(sig.hash) : null, rec.started, jobId, capMessage(r.message)]);
  }
}

/**
 * Stores runs; to be called inside a transaction. A batch of new runs costs one statement for the
 * runs and one for their failures, whatever its size (on PostgreSQL each statement is a round trip),
 * plus one for each test, job, test set or signature not stored yet. The loops over results are
 * synchronous helpers, with nothing awaited per run or per failure (V8 compiled this function four
 * times over on a first pass when they were inline: 330 ms of compiler time).
 */
export async function writeRuns(sql: Sql, catalog: Catalog, runs: RunToWrite[], now: number, bases: SearchBases): Promise<void> {
  if (!runs.length) return;
  const records = runs.map((r) => r.assembled.record);
  const ids = await catalog.testIds(sql, records.map((rec) => rec.results), records.map((rec) => rec.started));
  const jobIds = await catalog.jobIds(sql, records);
  const setIds = await catalog.testSetIds(sql, records.map((rec, k) => executedTests(rec, ids[k])));
  await catalog.addSignatures(sql, runs.map((r) => ({ signatures: r.assembled.signatures, firstSeen: r.assembled.record.started })));
  const rows = records.map((rec, k) => runRow(rec, jobIds[k], setIds[k], now));
  // New runs in one INSERT; runs stored before (known, or found by the insert) are replaced: the
  // earlier version's outcomes and parse errors go with it (ON DELETE CASCADE).
  const runIds: (number | undefined)[] = new Array(runs.length);
  const fresh = runs.flatMap((r, i) => (r.replace ? [] : [i]));
  const inserted = await insertMany<{ id: number; job_id: number; build_id: string }>(
    sql, 'run', RUN_COLUMNS, fresh.map((i) => rows[i]), 'ON CONFLICT (job_id, build_id) DO NOTHING', 'id, job_id, build_id',
  );
  const byKey = new Map(inserted.map((r) => [`${r.job_id}/${r.build_id}`, r.id]));
  for (const i of fresh) runIds[i] = byKey.get(`${rows[i][0]}/${rows[i][1]}`);
  for (let i = 0; i < runs.length; i++) {
    if (runIds[i] !== undefined) continue;
    const old = await sql.get<{ id: number }>('SELECT id FROM run WHERE job_id = ? AND build_id = ?', [rows[i][0], rows[i][1]]);
    if (old) await rollUp(sql, [old.id], -1);
    await sql.run('DELETE FROM run WHERE job_id = ? AND build_id = ?', [rows[i][0], rows[i][1]]);
    runIds[i] = (await sql.get<{ id: number }>(`${RUN_INSERT} ${RUN_TUPLE} RETURNING id`, rows[i]))!.id;
  }

  const outcomes: Param[][] = [];
  const problems: Param[][] = [];
  for (let k = 0; k < runs.length; k++) {
    failureRows(runs[k].assembled, ids[k], runIds[k]!, jobIds[k], catalog, outcomes);
    for (const p of records[k].problems) problems.push([runIds[k]!, cleanText(p.file), cleanText(p.message.slice(0, 2000))]);
  }
  await insertMany(sql, 'test_outcome', ['run_id', 'test_id', 'outcome', 'signature_id', 'started', 'job_id', 'message'], outcomes);
  await insertMany(sql, 'parse_error', ['run_id', 'file', 'message'], problems);
  const logs: Param[][] = [];
  const docs: Param[][] = [];
  for (let k = 0; k < runs.length; k++) {
    const s = runs[k].assembled.search;
    for (const l of s.logs) logs.push([runIds[k]!, l.path, l.body, l.size, l.tailStart]);
    bases.docRows('logs', jobIds[k], runIds[k]!, records[k].started, s.logGrams, docs);
    bases.docRows('failures', jobIds[k], runIds[k]!, records[k].started, s.failureGrams, docs);
  }
  bases.flush(docs);
  await writeSearchRows(sql, logs, docs);
  await rollUpStored(
    sql,
    runs.map((r, k) => ({ id: runIds[k]!, jobId: jobIds[k], started: records[k].started, testSetId: setIds[k], broken: isBroken(records[k].installFailed, rows[k][RUN_FAILED] as number) })),
    outcomes.map((o) => ({ runId: o[0] as number, testId: o[1] as number, outcome: o[2] as number, signatureId: o[3] as number | null, started: o[4] as number, jobId: o[5] as number })),
  );
  const cleared = runs.filter((r) => r.wasPending).map((r) => r.assembled.record);
  await onPendingRows(sql, cleared, (where) => `DELETE FROM pending_run WHERE ${where}`);
}

/** Which of these builds of `job` are stored (the backfill skips them). */
export async function storedBuildIds(sql: Sql, job: string, buildIds: readonly string[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let i = 0; i < buildIds.length; i += 500) {
    const chunk = buildIds.slice(i, i + 500);
    const rows = await sql.all<{ build_id: string }>(
      `SELECT r.build_id FROM run r JOIN job j ON j.id = r.job_id WHERE j.name = ? AND r.build_id IN (${chunk.map(() => '?').join(', ')})`,
      [job, ...chunk],
    );
    for (const r of rows) stored.add(r.build_id);
  }
  return stored;
}
