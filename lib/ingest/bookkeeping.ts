// Durable bookkeeping of ingest: pending runs (so nothing a pass saw is lost) and the pass log.
import type { ProwRun } from '../parse/types';
import type { Database } from '../store/db';
import type { PassSummary } from './pass';

export async function upsertPending(db: Database, run: ProwRun, now: number, error = ''): Promise<void> {
  await db.run(
    `INSERT INTO pending_run (job, build_id, url, state, started, first_seen, last_seen, attempts, last_error, record)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job, build_id) DO UPDATE SET state = excluded.state, url = excluded.url, last_seen = excluded.last_seen,
       attempts = pending_run.attempts + excluded.attempts, last_error = excluded.last_error, record = excluded.record`,
    [run.job, run.buildId, run.url, run.state, run.started, now, now, error ? 1 : 0, error.slice(0, 2000), JSON.stringify(run)],
  );
}

export async function listPending(db: Database): Promise<{ run: ProwRun; lastError: string }[]> {
  const rows = await db.all<{ record: string; last_error: string }>('SELECT record, last_error FROM pending_run ORDER BY started, job, build_id');
  return rows.flatMap((r) => {
    try {
      return [{ run: JSON.parse(r.record) as ProwRun, lastError: r.last_error }];
    } catch {
      return [];
    }
  });
}

export async function recordPassStart(db: Database): Promise<number> {
  const row = await db.get<{ id: number }>(`INSERT INTO ingest_pass (started_at, status) VALUES (?, 'running') RETURNING id`, [Math.floor(Date.now() / 1000)]);
  return row!.id;
}

export async function recordPassEnd(db: Database, id: number, s: PassSummary, status: 'ok' | 'failed', message = ''): Promise<void> {
  await db.run(
    `UPDATE ingest_pass SET finished_at = ?, runs_new = ?, runs_updated = ?, runs_pending = ?, test_results = ?, parse_errors = ?, status = ?, message = ? WHERE id = ?`,
    [Math.floor(Date.now() / 1000), s.runsNew, s.runsUpdated, s.runsPending, s.testResults, s.parseErrors, status, message.slice(0, 2000), id],
  );
}
