// Durable bookkeeping of ingest: pending runs (so nothing a pass saw is lost) and the pass log.
// Through the driver like the rest of ingest: Prisma's client would cost `ingest --once` its start-up
// (about 0.15 s of CPU) for three statements.
import type { ProwRun } from '../parse/types';
import type { Sql } from '../store/db';
import type { PassSummary } from './pass';

export async function upsertPending(db: Sql, run: ProwRun, now: number, error = ''): Promise<void> {
  await db.run(
    `INSERT INTO pending_run (job, build_id, url, state, started, first_seen, last_seen, attempts, last_error, record)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job, build_id) DO UPDATE SET state = excluded.state, url = excluded.url, last_seen = excluded.last_seen,
       attempts = pending_run.attempts + excluded.attempts, last_error = excluded.last_error, record = excluded.record`,
    [run.job, run.buildId, run.url, run.state, run.started, now, now, error ? 1 : 0, error.slice(0, 2000), JSON.stringify(run)],
  );
}

export async function listPending(db: Sql): Promise<{ run: ProwRun; lastError: string }[]> {
  const rows = await db.all<{ record: string; last_error: string }>('SELECT record, last_error FROM pending_run ORDER BY started, job, build_id');
  return rows.flatMap((r) => {
    try {
      return [{ run: JSON.parse(r.record) as ProwRun, lastError: r.last_error }];
    } catch {
      return [];
    }
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function recordPassStart(db: Sql): Promise<number> {
  const row = await db.get<{ id: number }>("INSERT INTO ingest_pass (started_at, status) VALUES (?, 'running') RETURNING id", [nowSeconds()]);
  return Number(row!.id);
}

export async function recordPassEnd(db: Sql, id: number, s: PassSummary, status: 'ok' | 'failed', message = ''): Promise<void> {
  await db.run(
    `UPDATE ingest_pass SET finished_at = ?, runs_new = ?, runs_updated = ?, runs_pending = ?, test_results = ?, parse_errors = ?, status = ?, message = ?
     WHERE id = ?`,
    [nowSeconds(), s.runsNew, s.runsUpdated, s.runsPending, s.testResults, s.parseErrors, status, message.slice(0, 2000), id],
  );
}
