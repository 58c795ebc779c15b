// The benchmarks' database helper.
import type { Database } from '../lib/store/db';

const INGEST_TABLES = ['test_outcome', 'parse_error', 'run', 'pending_run', 'test_set', 'signature', 'test', 'job', 'ingest_pass'];

/**
 * Empties ingest's tables of a PostgreSQL database that earlier rounds filled, as new ones (SQLite
 * rounds start from a new file): TRUNCATE gives each table new storage and restarts its ids, where a
 * DELETE left dead rows in the tables and their indexes for the next round's inserts and autovacuum.
 */
export async function emptyDatabase(db: Database): Promise<void> {
  await db.run(`TRUNCATE ${INGEST_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
}
