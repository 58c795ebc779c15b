// Database totals and ingest freshness: `buildcop stats`, /api/stats, the home page's freshness line.
import type { Database } from '../store/db';

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
}

const iso = (s: number | null | undefined) => (s ? new Date(s * 1000).toISOString() : null);

export async function getStats(db: Database): Promise<Stats> {
  const byState = await db.all<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM run GROUP BY state ORDER BY state');
  const totals = await db.get<{ passed: number; failed: number; flaked: number; skipped: number; errors: number }>(
    `SELECT COALESCE(SUM(passed), 0) AS passed, COALESCE(SUM(failed), 0) AS failed, COALESCE(SUM(flaked), 0) AS flaked,
            COALESCE(SUM(skipped), 0) AS skipped, COALESCE(SUM(parse_errors), 0) AS errors FROM run`,
  );
  const count = async (table: string) => (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;
  const last = await db.get<{ finished_at: number; status: string }>(
    `SELECT finished_at, status FROM ingest_pass WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, id DESC LIMIT 1`,
  );
  const lastOk = await db.get<{ finished_at: number }>(`SELECT MAX(finished_at) AS finished_at FROM ingest_pass WHERE status = 'ok'`);
  const t = totals!;
  return {
    runs: byState.reduce((s, r) => s + r.n, 0),
    runsByState: Object.fromEntries(byState.map((r) => [r.state, r.n])),
    pendingRuns: await count('pending_run'),
    jobs: await count('job'),
    tests: await count('test'),
    testResults: t.passed + t.failed + t.flaked + t.skipped,
    failures: t.failed,
    flakes: t.flaked,
    signatures: await count('signature'),
    parseErrors: t.errors,
    lastIngestAt: iso(lastOk?.finished_at),
    lastIngestStatus: last?.status ?? null,
  };
}
