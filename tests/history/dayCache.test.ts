// The day cache: whole days of a rollup read once per version, and readers that ask for the same days
// at once (a hot list's window and its verdicts) share one read, on a real database's day versions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedDays, type WholeDays } from '../../lib/history/dayCache';
import { closeDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';
import type { Database } from '../../lib/store/db';

let t: TestDatabase;
let db: Database;

beforeAll(async () => {
  t = await freshDatabase('sqlite');
  db = await open(t);
});
afterAll(async () => {
  await closeDatabase(db);
  await t.drop();
});

/** A rollup of [id, job, day, count] rows: each id has a row per day with count id * 100 + day; the ids and days of each read are recorded. */
function rollup(): { read: WholeDays; reads: [number[], number, number][]; release: () => void; fail: (e: Error) => void } {
  const reads: [number[], number, number][] = [];
  let gate: { resolve: () => void; reject: (e: Error) => void } | undefined;
  const held = new Promise<void>((resolve, reject) => (gate = { resolve, reject }));
  const read: WholeDays = async (ids, d0, d1) => {
    reads.push([[...ids], d0, d1]);
    await held;
    const rows: number[] = [];
    for (const id of ids) for (let d = d0; d < d1; d++) rows.push(id, 7, d, id * 100 + d);
    return Int32Array.from(rows);
  };
  return { read, reads, release: () => gate!.resolve(), fail: (e) => gate!.reject(e) };
}

const sorted = (chunks: Int32Array[]) => chunks.map((c) => [...c]).sort((a, b) => a[0] - b[0] || a[2] - b[2]);

describe('cachedDays', () => {
  it('reads the days two callers ask for at once a single time, and serves both', async () => {
    const r = rollup();
    const window = cachedDays(db, 'joins', 4, 2, [1, 2], 10, 13, r.read);
    const verdicts = cachedDays(db, 'joins', 4, 2, [2, 1], 11, 13, r.read);
    await new Promise((resolve) => setTimeout(resolve, 10));
    r.release();
    const [w, v] = await Promise.all([window, verdicts]);
    expect(r.reads).toEqual([[[1, 2], 10, 13]]);
    expect(sorted(w)).toEqual([1, 2].flatMap((id) => [10, 11, 12].map((d) => [id, 7, d, id * 100 + d])));
    expect(sorted(v)).toEqual([1, 2].flatMap((id) => [11, 12].map((d) => [id, 7, d, id * 100 + d])));
    // kept: asked again with more, only what was never read is read
    const more = await cachedDays(db, 'joins', 4, 2, [1, 2, 3], 11, 13, r.read);
    expect(r.reads).toEqual([
      [[1, 2], 10, 13],
      [[3], 11, 13],
    ]);
    expect(sorted(more)).toEqual([1, 2, 3].flatMap((id) => [11, 12].map((d) => [id, 7, d, id * 100 + d])));
  });

  it('joins only days of the same ids: another id is read', async () => {
    const r = rollup();
    const first = cachedDays(db, 'ids', 4, 2, [5], 20, 22, r.read);
    const second = cachedDays(db, 'ids', 4, 2, [6], 20, 22, r.read);
    r.release();
    await Promise.all([first, second]);
    expect(r.reads.map(([ids]) => ids)).toEqual([[5], [6]]);
  });

  it('a failed read fails every caller that joined it, and is read again next time', async () => {
    const r = rollup();
    const first = cachedDays(db, 'fails', 4, 2, [1], 30, 32, r.read);
    const joined = cachedDays(db, 'fails', 4, 2, [1], 30, 32, r.read);
    r.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await expect(joined).rejects.toThrow('connection lost');
    expect(r.reads).toHaveLength(1);
    const retry = rollup();
    retry.release();
    expect(sorted(await cachedDays(db, 'fails', 4, 2, [1], 30, 32, retry.read))).toEqual([
      [1, 7, 30, 130],
      [1, 7, 31, 131],
    ]);
    expect(retry.reads).toHaveLength(1);
  });

  it("keeps every row of an id's day when a read gives them apart", async () => {
    // two jobs of ids 1 and 2 on days 40 and 41, in job order rather than id and day order
    const read: WholeDays = async (ids, d0, d1) => {
      const rows: number[] = [];
      for (const job of [7, 8]) for (const id of ids) for (let d = d0; d < d1; d++) rows.push(id, job, d, id * 100 + d + job);
      return Int32Array.from(rows);
    };
    const rows = (await cachedDays(db, 'apart', 4, 2, [1, 2], 40, 42, read)).flatMap((c) => Array.from({ length: c.length / 4 }, (_, i) => [...c.subarray(4 * i, 4 * i + 4)]));
    const want = [1, 2].flatMap((id) => [40, 41].flatMap((d) => [7, 8].map((job) => [id, job, d, id * 100 + d + job])));
    expect(rows.sort((a, b) => a[0] - b[0] || a[2] - b[2] || a[1] - b[1])).toEqual(want);
  });
});
