// The test set index (lib/store/testSetBlocks.ts): once built, it says of every set and test what the
// set itself says; the answers read through it are the answers read from the sets; sets written
// after it (here across block boundaries) are read from the sets until indexed, and only they are
// indexed then. On SQLite and PostgreSQL, on the ingested sample world.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../lib/store/db';
import { BLOCK_SETS, indexTestSets, testSetHolders } from '../../lib/store/testSetBlocks';
import { decodeTestSet, encodeTestSet, testSetHash } from '../../lib/store/testSets';
import { answersJson } from '../helpers/answers';
import { describeEachDatabase } from '../helpers/databases';
import { freshWorldDatabase } from '../helpers/world';

/** Every set's members as stored: set id -> test ids. */
async function storedSets(db: Database): Promise<Map<number, Set<number>>> {
  const rows = await db.rows('SELECT id, members FROM test_set');
  return new Map(rows.map(([id, members]) => [Number(id), new Set(decodeTestSet(members as Uint8Array))]));
}

/** What the holders say of every set and test, against the sets themselves (and a test in no set). */
async function expectHoldersExact(db: Database, what: string): Promise<void> {
  const sets = await storedSets(db);
  const tests = [...(await db.rows('SELECT id FROM test ORDER BY id')).map(([id]) => Number(id)), 999_999];
  const holders = await testSetHolders(db, sets.keys(), tests);
  for (const [setId, members] of sets) for (const t of tests) if (holders.has(setId, t) !== members.has(t)) expect.fail(`${what}: set ${setId}, test ${t}`);
  const some = tests.filter((_, i) => i % 3 === 0);
  const wanted = holders.wanted(some);
  expect(new Map([...wanted].map(([s, ts]) => [s, ts]))).toEqual(new Map([...sets].map(([s, members]) => [s, some.filter((t) => members.has(t))])));
  // sets holding the same of those tests share one list
  const shared = new Map<string, readonly number[]>();
  for (const list of wanted.values()) {
    const members = list.join(',');
    if (!shared.has(members)) shared.set(members, list);
    expect(shared.get(members)).toBe(list);
  }
  expect(shared.size).toBeLessThan(wanted.size);
}

describeEachDatabase('test set index', (kind) => {
  let target: Awaited<ReturnType<typeof freshWorldDatabase>>;
  let db: Database;
  let fromSets: string;
  beforeAll(async () => {
    target = await freshWorldDatabase(kind);
    db = target.db;
    fromSets = await answersJson(target.url);
  }, 300_000);
  afterAll(async () => {
    await target?.drop();
  });

  it('indexes every set once, each holding exactly the tests the set holds', async () => {
    await expectHoldersExact(db, 'before indexing');
    const sets = (await storedSets(db)).size;
    expect(sets).toBeGreaterThan(5);
    expect(await indexTestSets(db)).toMatchObject({ indexed: sets, errors: [] });
    expect(await indexTestSets(db)).toMatchObject({ indexed: 0, errors: [] });
    await expectHoldersExact(db, 'indexed');
  });

  it('gives the same answers read through the index as from the sets', async () => {
    expect(await answersJson(target.url)).toBe(fromSets);
  }, 120_000);

  it('reads sets written after it from the sets until they are indexed, then indexes only those', async () => {
    const tests = (await db.rows('SELECT id FROM test ORDER BY id')).map(([id]) => Number(id));
    // sets at the end of a block, at the start of the next and further on; one holds every test
    const added: [number, number[]][] = [
      [BLOCK_SETS - 1, tests.filter((_, i) => i % 2 === 0)],
      [BLOCK_SETS, tests],
      [2 * BLOCK_SETS + 5, tests.slice(0, 3)],
    ];
    for (const [id, members] of added) {
      const bytes = encodeTestSet(members);
      await db.run('INSERT INTO test_set (id, hash, size, members) VALUES (?, ?, ?, ?)', [id, testSetHash(bytes), members.length, bytes]);
    }
    await expectHoldersExact(db, 'three sets not indexed');
    expect(await indexTestSets(db)).toMatchObject({ indexed: 3, errors: [] });
    await expectHoldersExact(db, 'indexed again');
    // the sample world's sets (the first block) kept their bits when the block was written again
    expect(await answersJson(target.url)).toBe(fromSets);
  }, 120_000);

  it('holds none of its tests in a set outside the runs it was made for, and refuses a test not loaded', async () => {
    const sets = [...(await storedSets(db)).keys()];
    const test = Number((await db.rows('SELECT MIN(id) FROM test'))[0][0]);
    const holders = await testSetHolders(db, sets.slice(1), [test]);
    expect(holders.has(sets[0], test)).toBe(false);
    expect(holders.has(null, test)).toBe(false);
    expect(() => holders.has(sets[1], test + 1)).toThrow(/not loaded/);
  });
});
