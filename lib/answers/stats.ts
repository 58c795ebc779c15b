// Database totals and ingest freshness: `buildcop stats`, /api/stats, the home page's freshness line.
import type { Database } from '../store/db';
import { passWarnings } from './ingestLog';

export interface Stats {
  runs: number;
  runsByState: Record<string, number>;
  pendingRuns: number;
  jobs: number;
  /** distinct test names */
  tests: number;
  /** test outcomes ingested: passes, failures, flakes and skips, one per test per run */
  testResults: number;
  failures: number;
  flakes: number;
  signatures: number;
  parseErrors: number;
  lastIngestAt: string | null;
  lastIngestStatus: string | null;
  /** sources that failed without failing the latest finished pass (a bug tracker that did not answer, say): see the ingest log */
  lastIngestWarnings: number;
  /** runs the database refused to store in the latest finished pass (which then failed): see the ingest log */
  lastIngestRunsNotStored: number;
}

const iso = (s: number | bigint | null | undefined) => (s ? new Date(Number(s) * 1000).toISOString() : null);

export async function getStats(db: Database): Promise<Stats> {
  // Prisma's client takes most of a second to load: only the commands that count pay for it
  const { prismaFor } = await import('../store/prisma');
  const prisma = prismaFor(db);
  const [byState, totals, jobs, tests, signatures, pendingRuns, last, lastOk] = await Promise.all([
    prisma.run.groupBy({ by: ['state'], _count: { _all: true }, orderBy: { state: 'asc' } }),
    prisma.run.aggregate({ _sum: { passed: true, failed: true, flaked: true, skipped: true, parseErrors: true } }),
    prisma.job.count(),
    prisma.test.count(),
    prisma.signature.count(),
    prisma.pendingRun.count(),
    prisma.ingestPass.findFirst({ where: { finishedAt: { not: null } }, orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }], select: { status: true, warnings: true, runsNotStored: true } }),
    prisma.ingestPass.aggregate({ where: { status: 'ok' }, _max: { finishedAt: true } }),
  ]);
  const t = totals._sum;
  return {
    runs: byState.reduce((n, r) => n + r._count._all, 0),
    runsByState: Object.fromEntries(byState.map((r) => [r.state, r._count._all])),
    pendingRuns,
    jobs,
    tests,
    testResults: (t.passed ?? 0) + (t.failed ?? 0) + (t.flaked ?? 0) + (t.skipped ?? 0),
    failures: t.failed ?? 0,
    flakes: t.flaked ?? 0,
    signatures,
    parseErrors: t.parseErrors ?? 0,
    lastIngestAt: iso(lastOk._max.finishedAt),
    lastIngestStatus: last?.status ?? null,
    lastIngestWarnings: last ? passWarnings(last.warnings).length : 0,
    lastIngestRunsNotStored: last?.runsNotStored ?? 0,
  };
}
