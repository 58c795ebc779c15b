// The passes of one process (`ingest --interval`) keep the catalog and the clustering index of the
// pass before instead of reading and building them again. That must never change what is stored:
// passes in one process, on either reading thread, end with the database that one process per pass
// gives, signatures created in the same order; and a pass after another process wrote builds again.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import type { Database } from '../../lib/store/db';
import { closeDatabase, describeEachDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, TEST_WORLD_END, writeConfig } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
const DAY = 86_400_000;
// Deck as of four days before the end, two days before, and the end: each pass brings new failures
const TIMES = [new Date(TEST_WORLD_END.getTime() - 4 * DAY), new Date(TEST_WORLD_END.getTime() - 2 * DAY), TEST_WORLD_END];
const JOBS = '^(periodic-ci-openshift-release-master-nightly-4\\.2-e2e-(aws|gcp)|release-promote-.*)$';

describeEachDatabase('passes of one process', (kind) => {
  let dir: string;
  let server: ReplayServer;
  const targets: TestDatabase[] = [];
  let expected: { dump: Record<string, unknown[]>; signatureOrder: unknown[] };

  const config = (workers: number) => configFor(dir, server.url, { prow: { url: server.url, jobs: JOBS }, ingest: { workers } });
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

  it.each([['the main thread', 0], ['a reader thread', 1]])('keep the catalog and the clustering index on %s, and store what a process per pass stores', async (_, workers) => {
    const db = await open(await newTarget());
    try {
      const kept = [];
      for (const now of TIMES) {
        const s = await passHere(db, workers, now);
        expect(s.runsNew).toBeGreaterThan(0);
        kept.push(s.kept);
      }
      expect(kept.slice(1)).toEqual([{ catalog: true, signatureIndex: true }, { catalog: true, signatureIndex: true }]);
      expect(expected.signatureOrder.length).toBeGreaterThan(10);
      expect(await contents(db)).toEqual(expected);
    } finally {
      await closeDatabase(db);
    }
  }, 120_000);

  it('read and build them again after another process wrote to the database', async () => {
    const t = await newTarget();
    const db = await open(t);
    try {
      await passHere(db, 0, TIMES[0]);
      await passInNewProcess(t, TIMES[1]);
      const s = await passHere(db, 0, TIMES[2]);
      expect(s.kept).toEqual({ catalog: false, signatureIndex: false });
      expect(await contents(db)).toEqual(expected);
    } finally {
      await closeDatabase(db);
    }
  }, 120_000);
});
