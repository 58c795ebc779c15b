// rowsPerKey: a query's rows for each key, each led by its key. On PostgreSQL all keys go in one
// LATERAL statement, on SQLite one statement each; both give every key's rows with its own LIMIT and
// ORDER BY, nothing for a key without rows, keys of two values, and refuse a key that is no integer.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../lib/store/db';
import { rowsPerKey } from '../../lib/store/bulk';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';

describeEachDatabase('rowsPerKey', (kind) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await freshDatabase(kind);
    db = await open(t);
    await db.exec('CREATE TABLE per_key_probe (k INTEGER NOT NULL, at BIGINT NOT NULL, v TEXT NOT NULL)');
    for (let k = 1; k <= 5; k++) for (let at = 0; at < 10; at++) await db.run('INSERT INTO per_key_probe (k, at, v) VALUES (?, ?, ?)', [k, 1_800_000_000 + at, `${k}:${at}`]);
  }, 120_000);
  afterAll(async () => {
    await closeDatabase(db);
    await t.drop();
  });

  const sorted = (rows: unknown[][]) => rows.map((r) => r.map((v) => (typeof v === 'string' ? v : Number(v)))).sort((a, b) => String(a).localeCompare(String(b)));

  it("gives each key's newest rows, led by the key, and nothing for a key without rows", async () => {
    const rows = await rowsPerKey(db, [[2], [5], [9]], ([k]) => `SELECT v, at FROM per_key_probe WHERE k = ${k} AND at >= ? ORDER BY at DESC LIMIT 3`, [1_800_000_005]);
    expect(sorted(rows)).toEqual(sorted([2, 5].flatMap((k) => [9, 8, 7].map((at) => [k, `${k}:${at}`, 1_800_000_000 + at]))));
  });

  it('takes keys of several values, in the query wherever it puts them', async () => {
    const rows = await rowsPerKey(db, [[1, 1_800_000_008], [4, 1_800_000_001]], ([k, from]) => `SELECT COUNT(*) FROM per_key_probe WHERE at >= ${from} AND k = ${k} AND at < ?`, [1_800_000_009]);
    expect(sorted(rows)).toEqual(sorted([[1, 1_800_000_008, 1], [4, 1_800_000_001, 8]]));
  });

  it('refuses a key value that is not an integer', async () => {
    await expect(rowsPerKey(db, [[1.5]], ([k]) => `SELECT v FROM per_key_probe WHERE k = ${k}`)).rejects.toThrow(/not an integer/);
    expect(await rowsPerKey(db, [], ([k]) => `SELECT v FROM per_key_probe WHERE k = ${k}`)).toEqual([]);
  });
});
