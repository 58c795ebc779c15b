// Durable bookkeeping of ingest: pending runs (so nothing a pass saw is lost) and the pass log.
import type { ProwRun } from '../parse/types';
import type { Database, Sql } from '../store/db';
import { prismaFor } from '../store/prisma';
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

export async function listPending(db: Database): Promise<{ run: ProwRun; lastError: string }[]> {
  const rows = await prismaFor(db).pendingRun.findMany({
    select: { record: true, lastError: true },
    orderBy: [{ started: 'asc' }, { job: 'asc' }, { buildId: 'asc' }],
  });
  return rows.flatMap((r) => {
    try {
      return [{ run: JSON.parse(r.record) as ProwRun, lastError: r.lastError }];
    } catch {
      return [];
    }
  });
}

const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

export async function recordPassStart(db: Database): Promise<number> {
  const pass = await prismaFor(db).ingestPass.create({ data: { startedAt: nowSeconds(), status: 'running' }, select: { id: true } });
  return pass.id;
}

export async function recordPassEnd(db: Database, id: number, s: PassSummary, status: 'ok' | 'failed', message = ''): Promise<void> {
  await prismaFor(db).ingestPass.update({
    where: { id },
    data: {
      finishedAt: nowSeconds(), runsNew: s.runsNew, runsUpdated: s.runsUpdated, runsPending: s.runsPending,
      testResults: s.testResults, parseErrors: s.parseErrors, status, message: message.slice(0, 2000),
    },
  });
}
