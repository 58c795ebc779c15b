// What answers depend on besides their parameters and the time: the data version ingest bumps with
// every write of runs (lib/store/rollups.ts) and the bug links and bugs. Answers kept for reuse
// (lib/server/recentAnswers.ts, lib/answers/standing.ts) are keyed on it.
import type { Sql } from './sql';

/** The data state as one string; with `pass`, the latest ingest pass too (an answer that shows it). */
export async function dataState(sql: Sql, opts: { pass?: boolean } = {}): Promise<string> {
  const row = await sql.get<Record<string, unknown>>(
    `SELECT (SELECT value FROM kv WHERE key = 'data_version') AS v, ${opts.pass ? '(SELECT MAX(id) FROM ingest_pass)' : '0'} AS p, (SELECT COUNT(*) FROM bug_link) AS n,
            (SELECT SUM(removed) FROM bug_link) AS r, (SELECT MAX(id) FROM bug_link) AS l, (SELECT MAX(fetched_at) FROM bug) AS f`,
  );
  return [row?.v, row?.p, row?.n, row?.r, row?.l, row?.f].map(String).join(',');
}
