// The benchmarks' database helper.
import type { Database } from '../lib/store/db';

/** Empties ingest's tables of a PostgreSQL database that earlier rounds filled (SQLite rounds start from a new file). */
export async function emptyDatabase(db: Database): Promise<void> {
  for (const table of ['test_outcome', 'parse_error', 'run', 'pending_run', 'test_set', 'signature', 'test', 'job', 'ingest_pass']) await db.run(`DELETE FROM ${table}`);
}
