// Rows of integers read as one flat typed array, `width` numbers a row. A computed answer at scale
// reads tens of thousands of rows of ids and counts at once (a partial day of a hot list's tests per
// job is 23,000). PostgreSQL's driver makes a string of every value and two arrays of every row, and
// parses each value in JavaScript: in a new process, where that code runs unoptimized, most of the
// driver's time and a fifth of what the process allocates. Here PostgreSQL sends the rows as one text
// of numbers separated by commas, read into a typed array by a loop over its characters. SQLite's
// driver hands over its rows in memory, flattened here as they come.
import { inChunks, perKeyStatements, rowsPerKey } from './bulk';
import type { Param, Sql } from './sql';

/** A NULL in an int32 read (typed arrays hold none). An int64 read gives NaN. */
export const NULL_INT32 = -2147483648;

type Kind = { array: Int32ArrayConstructor | Float64ArrayConstructor; cast: 'int4' | 'int8'; nullValue: string };
const INT32: Kind = { array: Int32Array, cast: 'int4', nullValue: String(NULL_INT32) };
// the least int8 stands for NULL on the server, turned into NaN below: the only value read beyond
// what a double holds exactly
const INT64: Kind = { array: Float64Array, cast: 'int8', nullValue: '(-9223372036854775807 - 1)' };
const INT64_NULL_BELOW = -(2 ** 53);

/** The text's rows (no ORDER BY in it) as one text "1,2,3,..." on PostgreSQL, in the order of the columns `orderBy` (from 0). */
function joinedSql(text: string, width: number, kind: Kind, orderBy: number[]): string {
  const cols = Array.from({ length: width }, (_, i) => `c${i}`);
  // a NULL made a value: concat_ws would leave it out, and the row would lose its place
  const values = cols.map((c) => `COALESCE(q.${c}::${kind.cast}, ${kind.nullValue})`).join(', ');
  const order = orderBy.length ? ` ORDER BY ${orderBy.map((i) => `q.c${i}`).join(', ')}` : '';
  return `SELECT string_agg(concat_ws(',', ${values}), ','${order}) FROM (${text}) AS q(${cols.join(', ')})`;
}

async function read(sql: Sql, text: string, params: Param[], width: number, kind: Kind, orderBy: number[]): Promise<Int32Array | Float64Array> {
  if (sql.dialect === 'postgres') {
    const [[joined]] = (await sql.rows(joinedSql(text, width, kind, orderBy), params)) as [[string | null]];
    if (!joined) return new kind.array(0);
    const values = parsedIntegers(joined, kind);
    if (kind === INT64) for (let i = 0; i < values.length; i++) if (values[i] < INT64_NULL_BELOW) values[i] = NaN;
    return values;
  }
  return flattened(await sql.rows(orderBy.length ? `${text} ORDER BY ${orderBy.map((i) => i + 1).join(', ')}` : text, params), width, kind);
}

/**
 * The integers of "1,-2,3" in a typed array, by a loop over the characters: in a new process four
 * times as fast as JSON.parse (800,000 numbers: 31 against 125 ms), and no array of them made first.
 * (Digits are added up in a double: exact to 2^53, which is all an int64 read may hold.)
 */
function parsedIntegers(text: string, kind: Kind): Int32Array | Float64Array {
  let n = 1;
  for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1)) n++;
  const out = new kind.array(n);
  let o = 0;
  let v = 0;
  let negative = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      out[o++] = negative ? -v : v;
      v = 0;
      negative = false;
    } else if (c === 45) negative = true;
    else v = v * 10 + (c - 48);
  }
  out[o] = negative ? -v : v;
  return out;
}

/** SQLite's rows flattened as they come. */
function flattened(rows: unknown[][], width: number, kind: Kind): Int32Array | Float64Array {
  const out = new kind.array(rows.length * width);
  const nullValue = kind === INT32 ? NULL_INT32 : NaN;
  let o = 0;
  for (let r = 0; r < rows.length; r++) for (let j = 0; j < width; j++) out[o++] = rows[r][j] === null ? nullValue : Number(rows[r][j]);
  return out;
}

/** The rows of `text` (integers that fit 32 bits: ids, day numbers, counts), flattened. */
export const int32Rows = (sql: Sql, text: string, params: Param[], width: number, orderBy: number[] = []): Promise<Int32Array> =>
  read(sql, text, params, width, INT32, orderBy) as Promise<Int32Array>;

/**
 * An integer read from a Float64Array as V8's small integer where it fits 32 bits. Read as it is, it
 * is a number object of its own in unoptimized code, and an object field that holds one boxes that
 * field in every object of its shape: a day's 24,000 runs made three boxes each for the young
 * generation to copy.
 */
export const smallInt = (v: number): number => (v >= NULL_INT32 && v <= 0x7fffffff ? v | 0 : v);

/** The rows of `text` (any integers a double holds exactly: Unix seconds, row ids), flattened. */
export const int64Rows = (sql: Sql, text: string, params: Param[], width: number, orderBy: number[] = []): Promise<Float64Array> =>
  read(sql, text, params, width, INT64, orderBy) as Promise<Float64Array>;

/** int32Rows of `query(placeholders)` over a long list of keys, in chunks, one array (each chunk's rows in the order of `orderBy`). */
export async function int32RowsIn(sql: Sql, query: (placeholders: string) => string, keys: Param[], width: number, orderBy: number[] = [], chunkSize = 500): Promise<Int32Array> {
  const parts: Int32Array[] = [];
  for (const [placeholders, chunk] of inChunks(keys, chunkSize)) parts.push(await int32Rows(sql, query(placeholders), chunk, width, orderBy));
  return concatParts(parts, (n) => new Int32Array(n));
}

/** Parts read one after another, as one array. */
function concatParts<T extends Int32Array | Float64Array>(parts: T[], make: (n: number) => T): T {
  if (parts.length === 1) return parts[0];
  const out = make(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * rowsPerKey (lib/store/bulk.ts) read flat: each of `query`'s rows of `rowWidth` integers led by its
 * key's values. On PostgreSQL one statement per thousand keys, on SQLite rowsPerKey's rows flattened.
 */
export async function int64RowsPerKey(sql: Sql, keys: number[][], query: (k: string[]) => string, params: Param[], rowWidth: number): Promise<Float64Array> {
  if (!keys.length) return new Float64Array(0);
  const width = keys[0].length + rowWidth;
  if (sql.dialect !== 'postgres') return flattened(await rowsPerKey(sql, keys, query, params), width, INT64) as Float64Array;
  const parts: Float64Array[] = [];
  for (const chunk of perKeyStatements(keys, query, params)) parts.push(await int64Rows(sql, chunk.text, chunk.params, width));
  return concatParts(parts, (n) => new Float64Array(n));
}
