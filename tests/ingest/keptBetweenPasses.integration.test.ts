// The passes of one process (`ingest --interval`) keep the known runs, the catalog, the clustering
// index and the bug linking indexes of the pass before instead of reading and building them again. That must never
// change what is stored (runs, signatures and bug links): passes in one process, on either reading
// thread, end with the database that one process per pass gives, signatures created in the same
// order; and a pass after another process wrote reads and builds what depends on that order again.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getStats } from '../../lib/answers/stats';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import type { Database } from '../../lib/store/db';
import { testSetHolders } from '../../lib/store/testSetBlocks';
import { closeDatabase, describeEachDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, TEST_WORLD_END, writeConfig } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
const DAY = 86_400_000;
// Deck as of six days before the end, two days before, and the end: each pass brings new failures,
// and a later one a new test
const TIMES = [new Date(TEST_WORLD_END.getTime() - 6 * DAY), new Date(TEST_WORLD_END.getTime() - 2 * DAY), TEST_WORLD_END];
const ALL_KEPT = { knownRuns: true, catalog: true, signatureIndex: true, bugLinkIndexes: true };

describeEachDatabase('passes of one process', (kind) => {
  let dir: string;
  let server: ReplayServer;
  const targets: TestDatabase[] = [];
  let expected: Awaited<ReturnType<typeof contents>>;

  const config = (workers: number) => configFor(dir, server.url, { ingest: { workers } });
  const newTarget = async () => {
    const t = await freshDatabase(kind);
    targets.push(t);
    return t;
  };
  /** a pass of `ingest --once` in a process of its own, as of `now` */
  const passInNewProcess = async (t: TestDatabase, now: Date) => {
    server.setNow(now);
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--config', writeConfig(config(0)), '--db', t.url, '--quiet'], { stdio: 'ignore' });
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
  };
  const passHere = async (db: Database, workers: number, now: Date) => {
    server.setNow(now);
    return ingestPass({ config: config(workers), db, morePasses: true });
  };
  const contents = async (db: Database) => ({
    dump: await logicalDump(db),
    signatureOrder: (await db.rows('SELECT hash FROM signature ORDER BY id')).map(([hash]) => hash),
    bugLinks: await db.all('SELECT b.tracker, b.bug_id, l.test_hash, l.signature_hash, l.reason FROM bug_link l JOIN bug b ON b.id = l.bug_pk ORDER BY 1, 2, 3, 4'),
  });

  beforeAll(async () => {
    dir = (await sampleWorld()).dir;
    server = await replay(dir);
    // the reference: a new process for every pass, which keeps nothing
    const t = await newTarget();
    for (const now of TIMES) await passInNewProcess(t, now);
    const db = await open(t);
    expected = await contents(db);
    await closeDatabase(db);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    for (const t of targets) await t.drop();
  });

  it('index every test set after the passes of the command, as the answers read them', async () => {
    const db = await open(targets[0]);
    try {
      const sets = (await db.rows('SELECT id FROM test_set')).map(([id]) => Number(id));
      expect(sets.length).toBeGreaterThan(0);
      const holders = await testSetHolders(db, sets, []);
      expect(sets.every((id) => holders.indexed(id))).toBe(true);
    } finally {
      await closeDatabase(db);
    }
  });

  it.each([['the main thread', 0], ['a reader thread', 1]])('keep the known runs, the catalog and the indexes on %s, and store what a process per pass stores', async (_, workers) => {
    const db = await open(await newTarget());
    try {
      const kept = [];
      const tests = [];
      for (const now of TIMES) {
        const s = await passHere(db, workers, now);
        expect(s.runsNew).toBeGreaterThan(0);
        kept.push(s.kept);
        tests.push((await getStats(db)).tests);
      }
      expect(tests[2]).toBeGreaterThan(tests[0]);
      expect(kept.slice(1)).toEqual([ALL_KEPT, ALL_KEPT]);
      expect(expected.signatureOrder.length).toBeGreaterThan(10);
      expect(expected.bugLinks.filter((l) => (l as { reason: string }).reason === 'signature').length).toBeGreaterThan(0);
      expect(await contents(db)).toEqual(expected);
    } finally {
      await closeDatabase(db);
    }
  }, 120_000);

  it('read the known runs and the catalog and build the clustering index again after another process wrote to the database, and bring the bug linking indexes up to date', async () => {
    const t = await newTarget();
    const db = await open(t);
    try {
      await passHere(db, 0, TIMES[0]);
      await passInNewProcess(t, TIMES[1]);
      const s = await passHere(db, 0, TIMES[2]);
      // the linking indexes do not depend on the order signatures came in: they take the other's in
      expect(s.kept).toEqual({ knownRuns: false, catalog: false, signatureIndex: false, bugLinkIndexes: true });
      expect(await contents(db)).toEqual(expected);
    } finally {
      await closeDatabase(db);
    }
  }, 120_000);
});
