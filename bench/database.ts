// The benchmarks' database helpers.
import { standingReleases } from '../lib/answers/standing';
import { loadJobs } from '../lib/history/jobs';
import type { Database } from '../lib/store/db';

/** The release most jobs name, among those whose 7d tab stands: the one the benchmarks ask for. */
export async function releaseWithMostJobs(db: Database): Promise<string | undefined> {
  const standing = new Set(await standingReleases(db));
  const jobs = new Map<string, number>();
  for (const j of await loadJobs(db)) if (j.release && standing.has(j.release)) jobs.set(j.release, (jobs.get(j.release) ?? 0) + 1);
  return [...jobs].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * Empties every table of a PostgreSQL database that earlier rounds (or anything else) filled, as a
 * new one (SQLite rounds start from a new file); the migrations table is kept. TRUNCATE gives each
 * table new storage and restarts its ids, where a DELETE left dead rows in the tables and their
 * indexes for the next round's inserts and autovacuum. Bugs and tracker cursors go too: a database
 * that kept its bugs had each pass link them.
 */
export async function emptyDatabase(db: Database): Promise<void> {
  const tables = (await db.rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'")).map(([t]) => `"${t as string}"`);
  if (tables.length) await db.run(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
}
