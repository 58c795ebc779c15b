// Whole days of a per-day rollup kept in memory per id (a test, a signature) and UTC day, each with
// its day's version (lib/store/rollups.ts bumps it in the same transaction as any write to that day).
// Ingest writes today all day long, and every write moves the data version; the days before today
// stay as they were, so an answer after a pass reads today's rows again, not the fortnight's.
import type { Database } from '../store/db';
import { readPacks, type PackedRollup } from '../store/dayPacks';
import { dayVersions } from '../store/rollups';

/**
 * Rows of [id, ...] with the day number at `dayColumn`, of the given ids and days [d0, d1), as the
 * rollup holds them: flattened (lib/store/intRows.ts), in the order of the columns `orderBy` (id and
 * day: each id's day is then a view of the rows, not a copy).
 */
export type WholeDays = (ids: number[], d0: number, d1: number, orderBy: number[]) => Promise<Int32Array>;

interface Entry {
  version: string;
  /** the day's rows of that id, flattened, `width` numbers each; a promise while being read */
  cells: Int32Array | Promise<Int32Array>;
}

/**
 * The day versions, one read shared by the calls that ask while it is in flight (an answer's
 * concurrent window reads). Joining a read begun earlier keeps the rule below: versions no newer than
 * the rows read after them.
 */
const versionReads = new Map<string, Promise<Map<number, string>>>();
export function currentDayVersions(db: Database): Promise<Map<number, string>> {
  let p = versionReads.get(db.url);
  if (!p) {
    versionReads.set(db.url, (p = dayVersions(db)));
    const forget = () => versionReads.get(db.url) === p && versionReads.delete(db.url);
    p.then(forget, forget);
  }
  return p;
}

/** Numbers kept at most across every cache (4 bytes each: ids, day numbers and counts are 32-bit). */
const MAX_NUMBERS = 16_000_000;
let keptNumbers = 0;
const caches = new Map<string, Map<string, Entry>>();

/**
 * The rows of `ids` over the days [d0, d1), flattened in chunks of `width` numbers a row: from memory
 * where that id's day is kept at its current version (or joining its read in flight: an answer's
 * window and its verdicts ask for the same days at once), the rest from the days' packs where they
 * stand (`packed`, lib/store/dayPacks.ts), else in one read. Versions are read before the rows, so
 * rows kept are never older than the version they are kept under.
 */
export async function cachedDays(db: Database, name: string, width: number, dayColumn: number, ids: number[], d0: number, d1: number, read: WholeDays, packed?: PackedRollup): Promise<Int32Array[]> {
  if (!ids.length || d1 <= d0) return [];
  const versions = await currentDayVersions(db);
  const key = `${db.url}|${name}`;
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new Map()));
  // kept cells are never changed, so they are handed out as they are; in the order of the ids and
  // days kept or being read, then of those read now
  const kept: (Int32Array | Promise<Int32Array>)[] = [];
  const missing = new Set<number>();
  let m0 = Infinity;
  let m1 = -Infinity;
  for (const id of ids) {
    for (let d = d0; d < d1; d++) {
      const e = cache.get(`${id}|${d}`);
      if (e && e.version === (versions.get(d) ?? '0')) kept.push(e.cells);
      else {
        missing.add(id);
        if (d < m0) m0 = d;
        if (d + 1 > m1) m1 = d + 1;
      }
    }
  }
  const fresh: Promise<Int32Array>[] = [];
  if (missing.size) {
    const reading = readWholeDays(db, width, dayColumn, [...missing], m0, m1, versions, read, packed);
    for (const id of missing) {
      for (let d = m0; d < m1; d++) {
        const k = `${id}|${d}`;
        const e = cache.get(k);
        if (e && e.version === (versions.get(d) ?? '0')) continue; // kept (or being read) above
        const cells = reading.then((byCell) => keep(cache, k, entry, byCell.get(k)));
        const entry: Entry = { version: versions.get(d) ?? '0', cells };
        // a failed read is forgotten, so the next call reads it again (the caller sees the error)
        cells.catch(() => cache.get(k) === entry && cache.delete(k));
        if (e && !(e.cells instanceof Promise)) keptNumbers -= e.cells.length;
        cache.set(k, entry);
        fresh.push(cells);
      }
    }
  }
  const out: Int32Array[] = [];
  for (const cells of await Promise.all([...kept, ...fresh])) if (cells.length) out.push(cells);
  return out;
}

/** An id's day without rows (never written to). */
const NO_ROWS = new Int32Array(0);

/** An id's day as read, kept under its entry while the entry stands (within MAX_NUMBERS). */
function keep(cache: Map<string, Entry>, k: string, entry: Entry, got: Int32Array | undefined): Int32Array {
  const cells = got ?? NO_ROWS;
  if (cache.get(k) !== entry) return cells;
  if (keptNumbers + cells.length > MAX_NUMBERS) {
    for (const c of caches.values()) for (const [key, e] of c) if (!(e.cells instanceof Promise)) c.delete(key);
    keptNumbers = 0;
    if (cells.length > MAX_NUMBERS) {
      cache.delete(k);
      return cells;
    }
  }
  entry.cells = cells;
  keptNumbers += cells.length;
  return cells;
}

/**
 * The rows of `ids` over the days [d0, d1) as the day `versions` given have them, "id|day" -> rows
 * flattened (an id and day with no rows is absent): from the days' packs where they stand (`packed`),
 * the other days from the rollup, each run of consecutive ones in one `read`.
 */
export async function readWholeDays(db: Database, width: number, dayColumn: number, ids: number[], d0: number, d1: number, versions: Map<number, string>, read: WholeDays, packed?: PackedRollup): Promise<Map<string, Int32Array>> {
  const fromPacks = packed ? await readPacks(db, packed, ids, d0, d1, versions) : undefined;
  const byCell = new Map<string, Int32Array>(fromPacks?.cells);
  for (let a = d0; a < d1; ) {
    if (fromPacks?.days.has(a)) {
      a++;
      continue;
    }
    let b = a + 1;
    while (b < d1 && !fromPacks?.days.has(b)) b++;
    // asked for by id and day, each id's day is a view of the rows read (a day of a hot list's tests
    // is 40,000 rows); rows of an id's day that come apart (a read that did not order them) are joined
    const rows = await read(ids, a, b, [0, dayColumn]);
    for (let start = 0, i = 0; i <= rows.length; i += width) {
      if (i < rows.length && rows[i] === rows[start] && rows[i + dayColumn] === rows[start + dayColumn]) continue;
      if (i > start) {
        const k = `${rows[start]}|${rows[start + dayColumn]}`;
        const before = byCell.get(k);
        const run = rows.subarray(start, i);
        byCell.set(k, before ? joined(before, run) : run);
      }
      start = i;
    }
    a = b;
  }
  return byCell;
}

/** Two runs of rows as one array. */
function joined(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Whole days of other things (a day's runs), kept the same way: at most this many days each. */
const MAX_DAYS_KEPT = 4;
const dayValues = new Map<string, Map<number, { version: string; value: unknown }>>();

/** `read(day)` for a whole day, from memory while that day's version is unchanged. */
export async function cachedDay<T>(db: Database, name: string, day: number, versions: Map<number, string>, read: (day: number) => Promise<T>): Promise<T> {
  const key = `${db.url}|${name}`;
  let days = dayValues.get(key);
  if (!days) dayValues.set(key, (days = new Map()));
  const version = versions.get(day) ?? '0';
  const e = days.get(day);
  if (e && e.version === version) return e.value as T;
  const value = await read(day);
  days.delete(day);
  if (days.size >= MAX_DAYS_KEPT) days.delete(days.keys().next().value!);
  days.set(day, { version, value });
  return value;
}
