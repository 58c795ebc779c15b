// Pending runs as the pages show them: running, not fetched yet, or lost track of (Deck stopped
// listing them before they finished, and no finished.json has appeared since).
import type { Param, Sql } from './db';

export interface PendingRun {
  buildId: string;
  /** Deck's state when it last listed the run (pending, triggered), or a finished one not fetched yet */
  state: string;
  started: number;
  url: string;
  /** why the last try could not take it ('' when none failed) */
  lastError: string;
  /** Deck listed it in the latest ingest pass */
  listed: boolean;
  /** when Deck last listed it (Unix seconds) */
  lastListed: number;
}

/**
 * Why a run is pending: running (Deck lists it unfinished), retrying (finished, but it could not be
 * fetched or stored yet), lost (Deck stopped listing it unfinished).
 */
export type PendingWhy = 'running' | 'retrying' | 'lost';

/**
 * PendingWhy in SQL, the one definition for the rows and their counts; its parameter is the latest
 * complete pass: a run that pass did not list (nor one running since), Deck stopped listing.
 */
const WHY = "CASE WHEN listed_by_pass < ? THEN 'lost' WHEN attempts > 0 THEN 'retrying' ELSE 'running' END";

/** A pending run with what ingest knows of its tries (the ingest log's view). */
export interface PendingRunTries extends PendingRun {
  job: string;
  why: PendingWhy;
  /** tries that could not take it (fetches that failed, or checks that found it unfinished) */
  attempts: number;
  /** when a pass first saw it (Unix seconds) */
  firstSeen: number;
  /** not tried again before (Unix seconds; 0: as soon as Deck lists it finished) */
  nextCheck: number;
}

type PendingRow = { job: string; build_id: string; state: string; started: number; url: string; last_error: string; last_seen: number; why: PendingWhy; attempts: number; first_seen: number; next_check: number };

/** The latest pass that completed (see WHY). */
async function latestCompletePass(db: Sql): Promise<number> {
  const pass = await db.get<{ id: number }>("SELECT id FROM ingest_pass WHERE status = 'ok' ORDER BY id DESC LIMIT 1");
  return Number(pass?.id ?? 0);
}

/** Pending runs, latest started first: a job's started by `at`, or every job's. */
async function readPending(db: Sql, lastPass: number, where: { job?: string; at?: number; limit?: number }): Promise<PendingRunTries[]> {
  const rows = await db.all<PendingRow>(
    `SELECT job, build_id, state, started, url, last_error, last_seen, ${WHY} AS why, attempts, first_seen, next_check FROM pending_run
     WHERE started <= ?${where.job === undefined ? '' : ' AND job = ?'} ORDER BY started DESC, job, build_id LIMIT ?`,
    [lastPass, where.at ?? Number.MAX_SAFE_INTEGER, ...(where.job === undefined ? [] : [where.job]), where.limit ?? Number.MAX_SAFE_INTEGER],
  );
  return rows.map((r) => ({
    job: r.job, buildId: r.build_id, state: r.state, started: Number(r.started), url: r.url, lastError: r.last_error,
    why: r.why, listed: r.why !== 'lost', lastListed: Number(r.last_seen),
    attempts: Number(r.attempts), firstSeen: Number(r.first_seen), nextCheck: Number(r.next_check),
  }));
}

/** The latest `limit` pending runs, and how many are pending for each reason. */
export async function pendingOverview(db: Sql, limit: number): Promise<{ counts: Record<PendingWhy | 'total', number>; runs: PendingRunTries[] }> {
  const lastPass = await latestCompletePass(db);
  const [runs, byWhy] = await Promise.all([
    readPending(db, lastPass, { limit }),
    db.all<{ why: PendingWhy; n: number }>(`SELECT ${WHY} AS why, COUNT(*) AS n FROM pending_run GROUP BY 1`, [lastPass]),
  ]);
  const counts = { total: 0, running: 0, retrying: 0, lost: 0 };
  for (const { why, n } of byWhy) {
    counts[why] = Number(n);
    counts.total += Number(n);
  }
  return { counts, runs };
}

/** The job's pending runs started by `at`, latest first. */
export async function pendingRunsOf(db: Sql, job: string, at?: number): Promise<PendingRun[]> {
  return (await readPending(db, await latestCompletePass(db), { job, at })).map(({ buildId, state, started, url, lastError, listed, lastListed }) => ({ buildId, state, started, url, lastError, listed, lastListed }));
}

/**
 * Runs a statement on the pending rows of these runs, 500 runs at a time: `statement` gets the WHERE
 * condition that names them, `leading` the parameters before theirs.
 */
export async function onPendingRows(sql: Sql, runs: readonly { job: string; buildId: string }[], statement: (where: string) => string, leading: Param[] = []): Promise<void> {
  for (let i = 0; i < runs.length; i += 500) {
    const chunk = runs.slice(i, i + 500);
    await sql.run(statement(chunk.map(() => '(job = ? AND build_id = ?)').join(' OR ')), [...leading, ...chunk.flatMap((r) => [r.job, r.buildId])]);
  }
}
