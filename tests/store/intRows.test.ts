// Integer rows read flat (lib/store/intRows.ts): PostgreSQL sends them as one text of numbers,
// SQLite's come as rows; both give the same numbers in the same places: sums of a GROUP BY, values
// past 32 bits, NULLs as the sentinel (int32) or NaN (int64), the order asked for, nothing for no
// rows, a long key list read in chunks as one array, and rows per key led by the key.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../lib/store/db';
import { int32Rows, int32RowsIn, int64Rows, int64RowsPerKey, NULL_INT32, smallInt } from '../../lib/store/intRows';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';

describeEachDatabase('integer rows read flat', (kind) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await freshDatabase(kind);
    db = await open(t);
    await db.exec('CREATE TABLE int_rows_probe (k INTEGER NOT NULL, at BIGINT NOT NULL, n INTEGER)');
    for (let k = 1; k <= 1_200; k++) await db.run('INSERT INTO int_rows_probe (k, at, n) VALUES (?, ?, ?)', [k, 4_000_000_000 + (k % 7) * 3_600 + k, k % 5 === 0 ? null : k % 3]);
  }, 120_000);
  afterAll(async () => {
    await closeDatabase(db);
    await t.drop();
  });

  it('gives the sums of a GROUP BY, row by row, however the rows come', async () => {
    const flat = await int32Rows(db, 'SELECT k % 7, COUNT(*), SUM(k) FROM int_rows_probe WHERE k <= ? GROUP BY k % 7', [700], 3);
    const rows = Array.from({ length: flat.length / 3 }, (_, i) => [...flat.subarray(i * 3, i * 3 + 3)]).sort((a, b) => a[0] - b[0]);
    expect(rows).toEqual(Array.from({ length: 7 }, (_, r) => [r, 100, Array.from({ length: 100 }, (_, i) => 7 * i + r + (r === 0 ? 7 : 0)).reduce((a, b) => a + b, 0)]));
  });

  it('keeps values past 32 bits, NULL as NaN, in the order asked for (int64)', async () => {
    const flat = await int64Rows(db, 'SELECT k, at, n FROM int_rows_probe WHERE k <= ?', [10], 3, [1, 0]);
    const expected = Array.from({ length: 10 }, (_, i) => i + 1)
      .map((k) => [k, 4_000_000_000 + (k % 7) * 3_600 + k, k % 5 === 0 ? NaN : k % 3])
      .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    expect([...flat]).toEqual(expected.flat());
  });

  it('gives a NULL as NULL_INT32 (int32), and nothing for no rows', async () => {
    const flat = await int32Rows(db, 'SELECT k, n FROM int_rows_probe WHERE k IN (5, 6)', [], 2, [0]);
    expect([...flat]).toEqual([5, NULL_INT32, 6, 0]);
    expect((await int32Rows(db, 'SELECT k, n FROM int_rows_probe WHERE k < 0', [], 2)).length).toBe(0);
    expect((await int64Rows(db, 'SELECT k, at FROM int_rows_probe WHERE k < 0', [], 2, [1])).length).toBe(0);
  });

  it('reads negative values and the ends of each range exactly, one row or many', async () => {
    expect([...(await int32Rows(db, 'SELECT -k, k - 3 FROM int_rows_probe WHERE k = 1', [], 2))]).toEqual([-1, -2]);
    const ends = await int32Rows(db, 'SELECT 2147483647, -2147483647, 0 FROM int_rows_probe WHERE k <= 2', [], 3);
    expect([...ends]).toEqual([2147483647, -2147483647, 0, 2147483647, -2147483647, 0]);
    const wide = await int64Rows(db, 'SELECT 9007199254740991, -9007199254740991, -k * 4000000000 FROM int_rows_probe WHERE k = 3', [], 3);
    expect([...wide]).toEqual([2 ** 53 - 1, -(2 ** 53 - 1), -12_000_000_000]);
  });

  it('reads a long list of keys in chunks into one array, each chunk in the order asked for', async () => {
    const keys = Array.from({ length: 1_150 }, (_, i) => i + 1);
    const flat = await int32RowsIn(db, (p) => `SELECT k, k * 2 FROM int_rows_probe WHERE k IN (${p})`, keys, 2, [], 500);
    const pairs = Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]).sort((a, b) => a[0] - b[0]);
    expect(pairs).toEqual(keys.map((k) => [k, 2 * k]));
    // the chunks come in the order of the keys: ordered within each, the whole is ordered
    const ordered = await int32RowsIn(db, (p) => `SELECT -k, k FROM int_rows_probe WHERE k IN (${p})`, [...keys].reverse(), 2, [0], 500);
    expect([...ordered.filter((_, i) => i % 2 === 1)]).toEqual([...keys].reverse());
  });

  it("gives each key's rows led by its values, past 32 bits, and refuses a key that is no integer", async () => {
    const flat = await int64RowsPerKey(db, [[3, 2], [9, 1], [2_000, 1]], ([k, m]) => `SELECT at, k * ${m} FROM int_rows_probe WHERE k = ${k} AND at >= ?`, [4_000_000_000], 2);
    const rows = Array.from({ length: flat.length / 4 }, (_, i) => [...flat.subarray(i * 4, i * 4 + 4)]).sort((a, b) => a[0] - b[0]);
    expect(rows).toEqual([[3, 2, 4_000_000_000 + 3 * 3_600 + 3, 6], [9, 1, 4_000_000_000 + 2 * 3_600 + 9, 9]]);
    await expect(int64RowsPerKey(db, [[1.5]], ([k]) => `SELECT k FROM int_rows_probe WHERE k = ${k}`, [], 1)).rejects.toThrow(/not an integer/);
    expect((await int64RowsPerKey(db, [], ([k]) => `SELECT k FROM int_rows_probe WHERE k = ${k}`, [], 1)).length).toBe(0);
  });
});

it('smallInt keeps every integer an int64 read gives, small or not, and NULL as NaN', () => {
  for (const v of [0, 1, -1, 1_795_969_800, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53)]) expect(Object.is(smallInt(v), v)).toBe(true);
  expect(smallInt(NaN)).toBeNaN();
  expect(Object.is(smallInt(-0), 0)).toBe(true);
});
