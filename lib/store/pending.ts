// A job's pending runs as the pages show them: running, not fetched yet, or lost track of (Deck
// stopped listing them before they finished, and no finished.json has appeared since).
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

/** The job's pending runs started by `at`, latest first. */
export async function pendingRunsOf(db: Sql, job: string, at = Number.MAX_SAFE_INTEGER): Promise<PendingRun[]> {
  // a run that the latest complete pass did not list (nor one running since) Deck stopped listing
  const pass = await db.get<{ id: number }>("SELECT id FROM ingest_pass WHERE status = 'ok' ORDER BY id DESC LIMIT 1");
  const lastPass = Number(pass?.id ?? 0);
  const rows = await db.all<{ build_id: string; state: string; started: number; url: string; last_error: string; last_seen: number; listed_by_pass: number }>(
    'SELECT build_id, state, started, url, last_error, last_seen, listed_by_pass FROM pending_run WHERE job = ? AND started <= ? ORDER BY started DESC, build_id',
    [job, at],
  );
  return rows.map((r) => ({
    buildId: r.build_id, state: r.state, started: Number(r.started), url: r.url, lastError: r.last_error,
    listed: Number(r.listed_by_pass) >= lastPass, lastListed: Number(r.last_seen),
  }));
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
