// The hot write path: many rows in one statement (PostgreSQL) or one prepared statement in a loop
// inside the caller's transaction (SQLite, where that is the fastest way in).
import type BetterSqlite3 from 'better-sqlite3';
import { storableParams, type Param, type Sql } from './db';

const PG_MAX_PARAMS = 30_000;

export async function insertMany(
  sql: Sql & { sqlite?: BetterSqlite3.Database },
  table: string,
  columns: string[],
  rows: Param[][],
  onConflict = '',
): Promise<void> {
  if (rows.length === 0) return;
  const cols = columns.join(', ');
  if (sql.dialect === 'sqlite' && sql.sqlite) {
    const stmt = sql.sqlite.prepare(`INSERT INTO ${table} (${cols}) VALUES (${columns.map(() => '?').join(', ')}) ${onConflict}`);
    for (const row of rows) stmt.run(...storableParams(row)); // the row itself unless a string needs changing
    return;
  }
  const perChunk = Math.max(1, Math.floor(PG_MAX_PARAMS / columns.length));
  for (let i = 0; i < rows.length; i += perChunk) {
    const chunk = rows.slice(i, i + perChunk);
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    await sql.run(`INSERT INTO ${table} (${cols}) VALUES ${chunk.map(() => tuple).join(', ')} ${onConflict}`, chunk.flat());
  }
}

/** SELECT ... WHERE key IN (...) over a long list, in chunks. */
export async function selectIn<T>(sql: Sql, query: (placeholders: string) => string, keys: Param[], chunkSize = 500): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < keys.length; i += chunkSize) {
    const chunk = keys.slice(i, i + chunkSize);
    out.push(...(await sql.all<T>(query(chunk.map(() => '?').join(', ')), chunk)));
  }
  return out;
}
