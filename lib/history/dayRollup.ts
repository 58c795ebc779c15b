// A rollup kept per UTC day, summed over any range [from, to): whole days from the rollup table, and
// each partial day at an end either from the runs of that part or, when the rest of that day holds
// fewer runs, as the day's rollup less the rest. For "now" the rest of today is empty, so today so far
// is today's rollup row and no outcome is read at all; exact for any `at` either way.
import type { Database } from '../store/db';
import { DAY } from './spans';

/**
 * Rows of [...key, day number, ...values]: `whole(d0, d1)` from the rollup for the days [d0, d1),
 * `part(a, b)` the same sums from the runs of [a, b) (inside one day).
 */
export interface DayRollup {
  keyLength: number;
  whole: (d0: number, d1: number) => Promise<unknown[][]>;
  part: (a: number, b: number) => Promise<unknown[][]>;
}

/** Runs started in [a, b): what reading that part of a day from the runs costs (an index range). */
async function runsBetween(db: Database, a: number, b: number): Promise<number> {
  if (b <= a) return 0;
  const [row] = await db.rows('SELECT COUNT(*) FROM run WHERE started >= ? AND started < ?', [a, b]);
  return Number(row?.[0] ?? 0);
}

/**
 * The rows over [from, to), each with its bucket start in place of the day number: the day's start,
 * or `from` for the part of a day a range begins in.
 */
export async function dayRollupRows(db: Database, from: number, to: number, r: DayRollup): Promise<number[][]> {
  const out: number[][] = [];
  if (to <= from) return out;
  const k = r.keyLength;
  // rows are the caller's own (fresh from the database or dayCache.ts): numbered in place
  const push = (rows: unknown[][], clip: number) => {
    for (const row of rows) {
      for (let i = 0; i < row.length; i++) if (typeof row[i] !== 'number') row[i] = Number(row[i]);
      const n = row as number[];
      n[k] = Math.max(clip, n[k] * DAY);
      out.push(n);
    }
  };
  const d0 = Math.ceil(from / DAY);
  const d1 = Math.floor(to / DAY);
  if (d0 < d1) push(await r.whole(d0, d1), 0);
  for (const [a, b] of d0 < d1 ? [[from, d0 * DAY], [d1 * DAY, to]] : [[from, to]]) {
    if (b <= a) continue;
    const day = Math.floor(a / DAY);
    const start = day * DAY;
    const end = start + DAY;
    const inside = await runsBetween(db, a, b);
    if (!inside) continue;
    const rest = (await runsBetween(db, start, a)) + (await runsBetween(db, b, end));
    if (rest >= inside) push(await r.part(a, b), a);
    else push(await dayLess(r, day, [[start, a], [b, end]]), a);
  }
  return out;
}

/** One day's rollup rows less the raw rows of the given parts of it; rows left at zero are dropped. */
async function dayLess(r: DayRollup, day: number, parts: number[][]): Promise<unknown[][]> {
  const k = r.keyLength;
  const keyOf = (n: number[]) => n.slice(0, k).join('|');
  const cells = new Map<string, number[]>();
  for (const row of await r.whole(day, day + 1)) {
    const n = row.map(Number);
    cells.set(keyOf(n), n);
  }
  for (const [a, b] of parts) {
    if (b <= a) continue;
    for (const row of await r.part(a, b)) {
      const n = row.map(Number);
      const c = cells.get(keyOf(n));
      if (c) for (let i = k + 1; i < n.length; i++) c[i] -= n[i];
    }
  }
  return [...cells.values()].filter((c) => c.slice(k + 1).some((v) => v !== 0));
}
