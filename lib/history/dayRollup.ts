// A rollup kept per UTC day, summed over any range [from, to): whole days from the rollup table, and
// each partial day at an end either from the runs of that part or, when the rest of that day holds
// fewer runs, as the day's rollup less the rest. For "now" the rest of today is empty, so today so far
// is today's rollup row and no outcome is read at all; exact for any `at` either way. Rows travel
// flattened, `width` numbers each (a fortnight of a hot list's tests per job is 430,000 of them).
import type { Database } from '../store/db';
import { currentDayVersions } from './dayCache';
import { DAY, HOUR } from './spans';

/** Rows of `width` numbers flattened, [...key, day number, ...values] each; a row's bucket starts at max(clip, its day's start). */
export interface RowChunk {
  cells: Int32Array;
  clip: number;
}

/**
 * `whole(d0, d1)`: the rollup's rows for the days [d0, d1), flattened; `part(a, b)`: the same sums
 * from the runs of [a, b) (inside one day), flattened (lib/store/intRows.ts).
 */
export interface DayRollup {
  /** the key's numbers at the start of each row: a test, or a test and a job (or signature) */
  keyLength: 1 | 2;
  width: number;
  whole: (d0: number, d1: number) => Promise<Int32Array[]>;
  part: (a: number, b: number) => Promise<Int32Array>;
  /**
   * What the rows are (the rollup and its ids), when the same partial day is often asked for again:
   * a hot list's verdicts and its page's window both end in the day of `at` so far.
   */
  memo?: string;
}

/**
 * What was read of a day lately (a partial day of a rollup, the day's runs per hour), by what it is
 * and the day's version; a read in flight is joined. An answer's readers ask for the same days.
 */
const ofDays = new Map<string, Promise<unknown>>();
const DAY_READS_KEPT = 16;

async function memoized<T>(db: Database, key: string | undefined, day: number, read: () => Promise<T>): Promise<T> {
  if (!key) return read();
  const k = `${db.url}|${key}|${(await currentDayVersions(db)).get(day) ?? '0'}`;
  let p = ofDays.get(k) as Promise<T> | undefined;
  if (!p) {
    if (ofDays.size >= DAY_READS_KEPT) ofDays.delete(ofDays.keys().next().value!);
    ofDays.set(k, (p = read()));
    p.catch(() => ofDays.delete(k));
  }
  return p;
}

/**
 * About how many runs started in [a, b), inside one day: what reading that part of the day from the
 * runs costs. Its hours' runs from their rollup in one query, a part of an hour as its share of the
 * hour's runs: only which part to read depends on it, never a count.
 */
async function runsEstimate(db: Database, day: number, parts: number[][]): Promise<number[]> {
  const perHour = await memoized(db, `runs per hour of ${day}`, day, async () => {
    const h0 = (day * DAY) / HOUR;
    const out = new Map<number, number>();
    for (const [h, n] of await db.rows('SELECT hour, SUM(runs) FROM rollup_run_hour WHERE hour >= ? AND hour < ? GROUP BY hour', [h0, h0 + 24])) out.set(Number(h), Number(n));
    return out;
  });
  return parts.map(([a, b]) => {
    let n = 0;
    for (let h = Math.floor(a / HOUR); h * HOUR < b; h++) n += ((perHour.get(h) ?? 0) * (Math.min(b, (h + 1) * HOUR) - Math.max(a, h * HOUR))) / HOUR;
    return n;
  });
}

/** The rows over [from, to), in chunks: the whole days and each partial day read at once (PostgreSQL overlaps them). */
export async function dayRollupChunks(db: Database, from: number, to: number, r: DayRollup): Promise<RowChunk[]> {
  if (to <= from) return [];
  const d0 = Math.ceil(from / DAY);
  const d1 = Math.floor(to / DAY);
  const whole = async (): Promise<RowChunk[]> => (d0 < d1 ? (await r.whole(d0, d1)).map((cells) => ({ cells, clip: 0 })) : []);
  const partial = async ([a, b]: number[]): Promise<RowChunk[]> => {
    if (b <= a) return [];
    const day = Math.floor(a / DAY);
    const start = day * DAY;
    const end = start + DAY;
    const cells = await memoized(db, r.memo && `${r.memo}|${a}|${b}`, day, async () => {
      const [inside, before, after] = await runsEstimate(db, day, [[a, b], [start, a], [b, end]]);
      if (!inside) return new Int32Array(0);
      return before + after >= inside ? r.part(a, b) : dayLess(r, day, [[start, a], [b, end]]);
    });
    return cells.length ? [{ cells, clip: a }] : [];
  };
  // a range inside one day is one part; else the part before its first midnight and the part after its
  // last (a 24h window not ending at midnight has no whole day, but two parts)
  const parts = d0 <= d1 ? [[from, d0 * DAY], [d1 * DAY, to]] : [[from, to]];
  return (await Promise.all([whole(), ...parts.map(partial)])).flat();
}

/** One day's rollup rows less the raw rows of the given parts of it, flattened; rows left at zero are dropped. */
async function dayLess(r: DayRollup, day: number, parts: number[][]): Promise<Int32Array> {
  const { keyLength: k, width: w } = r;
  // each key's row offset, in maps of numbers (a day of a hot list's tests per job is 35,000 rows: no
  // string made per row)
  const ones = new Map<number, number>();
  const twos = new Map<number, Map<number, number>>();
  const set = (row: Int32Array, i: number, offset: number) => {
    if (k === 1) ones.set(row[i], offset);
    else {
      let m = twos.get(row[i]);
      if (!m) twos.set(row[i], (m = new Map()));
      m.set(row[i + 1], offset);
    }
  };
  const get = (cells: Int32Array, i: number) => (k === 1 ? ones.get(cells[i]) : twos.get(cells[i])?.get(cells[i + 1]));
  // the day's rows copied flat (kept cells are shared and never changed)
  const [dayRows, ...partRows] = await Promise.all([r.whole(day, day + 1), ...parts.map(([a, b]) => (b > a ? r.part(a, b) : Promise.resolve(new Int32Array(0))))]);
  const cells = new Int32Array(dayRows.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of dayRows) {
    for (let i = 0; i < chunk.length; i += w) set(chunk, i, at + i);
    cells.set(chunk, at);
    at += chunk.length;
  }
  for (const part of partRows) {
    for (let i = 0; i < part.length; i += w) {
      const o = get(part, i);
      if (o !== undefined) for (let j = k + 1; j < w; j++) cells[o + j] -= part[i + j];
    }
  }
  // the rows that still count, moved up in place
  let kept = 0;
  for (let o = 0; o < cells.length; o += w) {
    let counts = false;
    for (let j = k + 1; j < w && !counts; j++) counts = cells[o + j] !== 0;
    if (!counts) continue;
    if (kept !== o) cells.copyWithin(kept, o, o + w);
    kept += w;
  }
  return cells.subarray(0, kept);
}

/** Calls fn for each row: the chunk's cells, the row's offset, and its bucket's start (Unix seconds). */
export function forEachRow(chunks: RowChunk[], width: number, dayColumn: number, fn: (cells: Int32Array, i: number, start: number) => void): void {
  for (const { cells, clip } of chunks) {
    for (let i = 0; i < cells.length; i += width) fn(cells, i, Math.max(clip, cells[i + dayColumn] * DAY));
  }
}

/** The rows as arrays, the day column holding the bucket's start (for answers with few rows). */
export function rowsOf(chunks: RowChunk[], width: number, dayColumn: number): number[][] {
  const out: number[][] = [];
  forEachRow(chunks, width, dayColumn, (cells, i, start) => {
    const row = Array.from({ length: width }, (_, j) => cells[i + j]);
    row[dayColumn] = start;
    out.push(row);
  });
  return out;
}
