// The hot write path: on SQLite one prepared statement in a loop inside the caller's transaction (the
// fastest way in there); on PostgreSQL one statement per table and batch that takes each column as an
// array (unnest): a fixed text, prepared once per connection, whatever the number of rows.
import type BetterSqlite3 from 'better-sqlite3';
import { storableParams, type Param, type Sql } from './db';

/** rows per PostgreSQL statement (arrays this long are a few MB at most) */
const PG_CHUNK_ROWS = 10_000;

/** The PostgreSQL types of each table's columns, read once per table: unnest's arrays are cast to them. */
const pgColumnTypes = new Map<string, Promise<Map<string, string>>>();

function columnTypes(sql: Sql, table: string): Promise<Map<string, string>> {
  let types = pgColumnTypes.get(table);
  if (!types) {
    types = sql
      .all<{ column_name: string; udt_name: string }>('SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?', [table])
      .then((rows) => new Map(rows.map((r) => [r.column_name, r.udt_name])));
    pgColumnTypes.set(table, types);
    types.catch(() => pgColumnTypes.delete(table));
  }
  return types;
}

/**
 * Inserts the rows; `returning` (columns) gives back the rows inserted (on SQLite in order; those
 * skipped by `onConflict` give nothing).
 */
export async function insertMany<T = never>(
  sql: Sql & { sqlite?: BetterSqlite3.Database },
  table: string,
  columns: string[],
  rows: Param[][],
  onConflict = '',
  returning = '',
): Promise<T[]> {
  if (rows.length === 0) return [];
  const cols = columns.join(', ');
  const tail = `${onConflict}${returning ? ` RETURNING ${returning}` : ''}`;
  const out: T[] = [];
  if (sql.dialect === 'sqlite' && sql.sqlite) {
    const stmt = sql.sqlite.prepare(`INSERT INTO ${table} (${cols}) VALUES (${columns.map(() => '?').join(', ')}) ${tail}`);
    // the row itself unless a string needs changing
    if (!returning) for (const row of rows) stmt.run(...storableParams(row));
    else for (const row of rows) {
      const r = stmt.get(...storableParams(row)) as T | undefined;
      if (r) out.push(r);
    }
    return out;
  }
  const types = await columnTypes(sql, table);
  const arrays = columns.map((c) => {
    const type = types.get(c);
    if (!type) throw new Error(`insertMany: ${table} has no column ${c}`);
    return `?::${type}[]`;
  });
  const text = `INSERT INTO ${table} (${cols}) SELECT * FROM unnest(${arrays.join(', ')}) ${tail}`;
  for (let i = 0; i < rows.length; i += PG_CHUNK_ROWS) {
    const chunk = rows.slice(i, i + PG_CHUNK_ROWS).map(storableParams);
    out.push(...(await sql.prepared!<T>(text, columns.map((_, k) => pgArrayLiteral(chunk.map((row) => row[k]))))));
  }
  return out;
}

/**
 * A column's values as a PostgreSQL array literal: the very text node-postgres sends for the array,
 * written without its two regular expression passes over every element (numbers among them): a pass
 * of the sample world spent 20-32 ms of its main thread in them, 9-14 ms here. Elements quoted, `\`
 * and `"` escaped, byte strings as `\x` hex.
 */
export function pgArrayLiteral(values: readonly Param[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'string') out += v.includes('"') || v.includes('\\') ? `"${v.replace(/[\\"]/g, '\\$&')}"` : `"${v}"`;
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') out += `"${v}"`;
    else out += `\\\\x${v.toString('hex')}`;
  }
  return `${out}}`;
}

/**
 * `query`'s rows for each key (a tuple of integers: a test id, a start...), each row led by its key's
 * values. On PostgreSQL one statement for all the keys, a LATERAL join over them: a query per test is
 * a round trip, a parse and a plan (a computed hot list sent 641 queries there, now 96). On SQLite one
 * statement per key, the key's values written in (its driver is synchronous: a query costs no trip).
 * `query(k)` is given the SQL of each key value; its own `?` take `params`.
 */
export async function rowsPerKey(sql: Sql, keys: number[][], query: (k: string[]) => string, params: Param[] = []): Promise<unknown[][]> {
  const out: unknown[][] = [];
  if (!keys.length) return out;
  if (sql.dialect === 'postgres') {
    // (perKeyStatements checks the keys)
    for (const chunk of perKeyStatements(keys, query, params)) {
      const rows = await sql.rows(chunk.text, chunk.params);
      for (let r = 0; r < rows.length; r++) out.push(rows[r]);
    }
    return out;
  }
  assertIntegerKeys(keys);
  // indexed, and concat rather than spreads: tens of thousands of rows, in a new process unoptimized
  for (let k = 0; k < keys.length; k++) {
    const rows = await sql.rows(query(keys[k].map(String)), params);
    for (let r = 0; r < rows.length; r++) out.push((keys[k] as unknown[]).concat(rows[r]));
  }
  return out;
}

/** Keys are written into SQL: integers only. */
function assertIntegerKeys(keys: number[][]): void {
  for (const key of keys) for (const v of key) if (!Number.isSafeInteger(v)) throw new Error(`rowsPerKey: not an integer key value: ${v}`);
}

/**
 * rowsPerKey's statements on PostgreSQL, a thousand keys each: the keys as arrays, each key joined
 * LATERAL to its query, its values leading its rows.
 */
export function perKeyStatements(keys: number[][], query: (k: string[]) => string, params: Param[]): { text: string; params: Param[] }[] {
  assertIntegerKeys(keys);
  const cols = keys[0].map((_, i) => `k${i}`);
  const out: { text: string; params: Param[] }[] = [];
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    out.push({
      text: `SELECT ${cols.map((c) => `k.${c}`).join(', ')}, x.* FROM unnest(${cols.map(() => '?::int8[]').join(', ')}) AS k(${cols.join(', ')}) CROSS JOIN LATERAL (${query(cols.map((c) => `k.${c}`))}) x`,
      params: [...cols.map((_, c) => pgArrayLiteral(chunk.map((k) => k[c]))), ...params],
    });
  }
  return out;
}

/** SELECT ... WHERE key IN (...) over a long list, in chunks. */
export async function selectIn<T>(sql: Sql, query: (placeholders: string) => string, keys: Param[], chunkSize = 500): Promise<T[]> {
  const out: T[] = [];
  for (const [placeholders, chunk] of inChunks(keys, chunkSize)) {
    // appended one by one: a chunk's rows can be more than a spread takes
    for (const row of await sql.all<T>(query(placeholders), chunk)) out.push(row);
  }
  return out;
}

/** selectIn with rows as arrays (no per-row objects), for the larger reads. */
export async function selectRowsIn(sql: Sql, query: (placeholders: string) => string, keys: Param[], chunkSize = 500): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for (const [placeholders, chunk] of inChunks(keys, chunkSize)) for (const row of await sql.rows(query(placeholders), chunk)) out.push(row);
  return out;
}

/** The keys in chunks of `chunkSize`, each with its "?, ?, ..." for an IN list. */
export function* inChunks(keys: Param[], chunkSize: number): Generator<[string, Param[]]> {
  for (let i = 0; i < keys.length; i += chunkSize) {
    const chunk = keys.slice(i, i + chunkSize);
    yield [chunk.map(() => '?').join(', '), chunk];
  }
}

/**
 * fn for each item, several at once on PostgreSQL (a query per item is a round trip each; the pool has
 * connections to spare), one after another on SQLite (its driver is synchronous: nothing to overlap).
 */
export async function forEachQuery<T>(sql: Sql, items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  const width = sql.dialect === 'postgres' ? PG_PARALLEL_QUERIES : 1;
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}
const PG_PARALLEL_QUERIES = 6;
