// The benchmarks' database helper.
import type { Database } from '../lib/store/db';

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
