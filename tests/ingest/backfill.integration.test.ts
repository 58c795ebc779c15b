// History beyond Deck's window, on SQLite and PostgreSQL: the sample world's 14 days in GCS, 7 in
// Deck. `ingest --once --since 15d` stores every finished run as a Deck-listed one would be stored,
// a second pass changes nothing, a kill -9 and a restart end the same, first_seen is the first day,
// a shorter --since reads only what it covers, and builds still running are kept pending.
import { expectRollupsExact } from '../helpers/rollups';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestLog } from '../../lib/answers/ingestLog';
import { getStats } from '../../lib/answers/stats';
import { ingestPass, type PassSummary } from '../../lib/ingest/pass';
import { buildIdTime, firstBuildIdAt } from '../../lib/parse/buildFolders';
import type { ReplayServer } from '../../lib/replay/server';
import type { Database } from '../../lib/store/db';
import { decodeTestSet } from '../../lib/store/testSets';
import type { WorldRun } from '../../lib/world/types';
import { beyondDeck, buildIdInRequest, DAY, DECK_WINDOW_HOURS, deckPresent, firstSeen, worldManifest } from '../helpers/backfill';
import { closeDatabase, describeEachDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, writeConfig, type Truth } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');

describeEachDatabase('backfill of the sample world from GCS', (kind) => {
  let world: { dir: string; truth: Truth };
  let runs: WorldRun[];
  let end: number;
  let server: ReplayServer;
  const made: TestDatabase[] = [];
  /** what a pass with Deck listing all 14 days stores, from the same server */
  let deckDump: Record<string, unknown[]>;
  let deckFirstSeen: Awaited<ReturnType<typeof firstSeen>>;
  let target: TestDatabase;
  let db: Database;
  let backfilledDump: Record<string, unknown[]>;

  const fresh = async () => {
    const t = await freshDatabase(kind);
    made.push(t);
    return t;
  };
  const cli = (dbUrl: string, args: string[]) =>
    spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--once', '--config', writeConfig(configFor(world.dir, server.url)), '--db', dbUrl, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });

  beforeAll(async () => {
    world = await sampleWorld();
    const manifest = worldManifest(world.dir);
    runs = manifest.runs;
    end = manifest.endUnix;
    server = await replay(world.dir);
    const all = await open(await fresh());
    await ingestPass({ config: configFor(world.dir, server.url), db: all });
    deckDump = await logicalDump(all);
    deckFirstSeen = await firstSeen(all);
    await closeDatabase(all);
    server.setDeckWindowHours(DECK_WINDOW_HOURS);
    target = await fresh();
  }, 240_000);
  afterAll(async () => {
    if (db) await closeDatabase(db);
    await server?.close();
    for (const t of made) await t.drop();
  });

  it('stores every finished run with `ingest --once --since 15d`, those beyond Deck from GCS, as Deck-listed ones are stored', async () => {
    const child = cli(target.url, ['--since', '15d', '--json']);
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
    const summary = JSON.parse(out) as PassSummary;
    const { truth } = world;
    const old = beyondDeck(runs, end);
    expect(old.length).toBeGreaterThan(300);
    expect(summary).toMatchObject({ runsNew: truth.runs.finished, runsBackfilled: old.length, runsPending: truth.runs.pending, runsFailed: 0, parseErrors: 0, warnings: [] });
    expect(summary.backfill).toEqual({ since: '15d', from: new Date((deckPresent(runs, end) - 15 * DAY) * 1000).toISOString(), jobsListed: 12, buildsFound: old.length });
    db = await open(target);
    const stats = await getStats(db);
    expect([stats.runs, stats.runsByState, stats.pendingRuns, stats.tests]).toEqual([truth.runs.finished, truth.runs.byState, truth.runs.pending, truth.tests]);
    await expectRollupsExact(db);
    expect([stats.testResults, stats.failures, stats.flakes]).toEqual([truth.testResults.total, truth.testResults.failed, truth.testResults.flaked]);
    expect((await ingestLog(db, { limit: 5 })).passes).toEqual([expect.objectContaining({ status: 'ok', runsNew: truth.runs.finished, runsBackfilled: old.length, runsPruned: 0 })]);
    // the same rows as when Deck listed everything: runs, outcomes, signatures (in the same order), pending runs
    backfilledDump = await logicalDump(db);
    expect(backfilledDump).toEqual(deckDump);
  }, 240_000);

  it('changes nothing, and lists no job folder, on a second pass', async () => {
    const mark = server.requests.length;
    const s = await ingestPass({ config: configFor(world.dir, server.url), db, since: '15d' });
    expect([s.runsNew, s.runsUpdated, s.runsBackfilled, s.backfill?.jobsListed, s.backfill?.buildsFound]).toEqual([0, 0, 0, 0, 0]);
    expect(server.requests.slice(mark).filter((r) => r.path.includes('delimiter='))).toEqual([]);
    expect(await logicalDump(db)).toEqual(backfilledDump);
  });

  it('takes first_seen of jobs and tests from the earliest stored run: the first day', async () => {
    const mine = await firstSeen(db);
    expect(mine).toEqual(deckFirstSeen);
    const firstStart = Math.min(...runs.map((r) => r.started));
    for (const [job, t] of Object.entries(mine.jobs)) expect(t, job).toBe(Math.min(...runs.filter((r) => r.job === job).map((r) => r.started)));
    // every test the world's first run executed was first seen then, on its first day; none earlier
    const first = (await db.get<{ members: Uint8Array }>('SELECT s.members FROM run r JOIN test_set s ON s.id = r.test_set_id ORDER BY r.started LIMIT 1'))!;
    const tests = new Map((await db.all<{ id: number; first_seen: number }>('SELECT id, first_seen FROM test')).map((t) => [t.id, Number(t.first_seen)]));
    const ran = [...decodeTestSet(first.members)];
    expect(ran.length).toBeGreaterThan(50);
    for (const id of ran) expect(tests.get(id)).toBe(firstStart);
    expect(Math.min(...tests.values())).toBe(firstStart);
  });

  it('reads only the builds a shorter --since covers, and the older ones once it reaches further, first_seen moving back', async () => {
    const other = await open(await fresh());
    try {
      const present = deckPresent(runs, end);
      const cutoff = present - 10 * DAY;
      const mark = server.requests.length;
      const s = await ingestPass({ config: configFor(world.dir, server.url), db: other, since: '10d' });
      const covered = runs.filter((r) => r.finished <= end && r.started >= cutoff);
      expect(s.runsNew).toBe(covered.length);
      expect(s.runsBackfilled).toBe(covered.filter((r) => r.started <= end - DECK_WINDOW_HOURS * 3600).length);
      // no request touched a build made before the cutoff; listings start at the cutoff's first id
      const gcs = server.requests.slice(mark).filter((r) => r.path.startsWith('/origin-ci-test/') || r.path.startsWith('/storage/'));
      for (const r of gcs) {
        const id = buildIdInRequest(r.path);
        if (id) expect(buildIdTime(id)!, r.path).toBeGreaterThanOrEqual(cutoff);
      }
      const offsets = gcs.map((r) => new URL(r.path, server.url).searchParams.get('startOffset')).filter((o): o is string => !!o);
      expect(offsets.length).toBeGreaterThanOrEqual(12);
      for (const o of offsets) expect(o.endsWith(`/${firstBuildIdAt(cutoff)}`), o).toBe(true);
      const earlier = await firstSeen(other);
      expect(Math.min(...Object.values(earlier.tests))).toBeGreaterThanOrEqual(cutoff);

      const further = await ingestPass({ config: configFor(world.dir, server.url), db: other, since: '15d' });
      expect(further.runsBackfilled).toBe(runs.filter((r) => r.finished <= end && r.started < cutoff).length);
      expect(further.backfill?.jobsListed).toBe(12);
      // the catalog kept from the pass before (this process's) knew later first_seen values: moved back all the same
      expect(further.kept.catalog).toBe(true);
      expect(await firstSeen(other)).toEqual(deckFirstSeen);
      expect((await logicalDump(other)).runs).toEqual(deckDump.runs);
    } finally {
      await closeDatabase(other);
    }
  }, 240_000);

  it('ends with the same database after a kill -9 in the middle of the backfill and a restart', async () => {
    server.setFaults({ delayMs: 4 }); // slowed down so the kill lands mid-pass
    const other = await fresh();
    try {
      const odb = await open(other);
      const child = cli(other.url, ['--since', '15d', '--quiet']);
      // runs are stored in start order: the first 400 or so are the backfilled ones
      for (let i = 0; i < 600; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if ((await odb.get<{ n: number }>('SELECT COUNT(*) AS n FROM run'))!.n >= 150) break;
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const partial = Number((await odb.get<{ n: number }>('SELECT COUNT(*) AS n FROM run'))!.n);
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(beyondDeck(runs, end).length);
      await closeDatabase(odb);
      const again = cli(other.url, ['--since', '15d', '--quiet']);
      expect(await new Promise((r) => again.once('exit', r))).toBe(0);
      const db2 = await open(other);
      expect(await logicalDump(db2)).toEqual(backfilledDump);
      expect(await firstSeen(db2)).toEqual(deckFirstSeen);
      expect((await ingestLog(db2, { limit: 5 })).passes.map((p) => p.status)).toEqual(['ok', 'interrupted']);
      await closeDatabase(db2);
    } finally {
      server.setFaults({});
    }
  }, 240_000);

  it('keeps a build still running pending, as a run Deck lost track of, and stores it once it has finished', async () => {
    // three hours before the end, Deck lists only the last hour: builds started before and still running are GCS's
    const t1 = end - 3 * 3600;
    const running = runs.filter((r) => r.started <= t1 - 3600 && r.finished > t1);
    expect(running.length).toBeGreaterThan(0);
    const earlier = await replay(world.dir, { now: new Date(t1 * 1000), deckWindowHours: 1 });
    const other = await open(await fresh());
    try {
      const config = configFor(world.dir, earlier.url);
      const s1 = await ingestPass({ config, db: other, since: '15d' });
      const runningThen = runs.filter((r) => r.started <= t1 && r.finished > t1);
      expect([s1.runsNew, s1.runsPending]).toEqual([runs.filter((r) => r.finished <= t1).length, runningThen.length]);
      const pending = await other.all<{ build_id: string; state: string; attempts: number }>('SELECT build_id, state, attempts FROM pending_run WHERE attempts > 0 ORDER BY build_id');
      expect(pending).toEqual(running.map((r) => ({ build_id: r.buildId, state: 'pending', attempts: 1 })).sort((a, b) => (a.build_id < b.build_id ? -1 : 1)));
      const log = await ingestLog(other, { limit: 1 });
      expect(log.pending.lost).toBe(running.length);
      expect((await other.all('SELECT 1 FROM run WHERE build_id IN (' + running.map(() => '?').join(',') + ')', running.map((r) => r.buildId))).length).toBe(0);

      earlier.setNow(new Date(end * 1000));
      await other.run('UPDATE pending_run SET next_check = 0'); // as if their next try had come
      const s2 = await ingestPass({ config, db: other, since: '15d' });
      expect(s2.runsPending).toBe(world.truth.runs.pending);
      const stats = await getStats(other);
      expect([stats.runs, stats.runsByState]).toEqual([world.truth.runs.finished, world.truth.runs.byState]);
      const states = await other.all<{ build_id: string; state: string }>(`SELECT build_id, state FROM run WHERE build_id IN (${running.map(() => '?').join(',')}) ORDER BY build_id`, running.map((r) => r.buildId));
      expect(states).toEqual(running.map((r) => ({ build_id: r.buildId, state: r.state })).sort((a, b) => (a.build_id < b.build_id ? -1 : 1)));
    } finally {
      await closeDatabase(other);
      await earlier.close();
    }
  }, 240_000);
});
