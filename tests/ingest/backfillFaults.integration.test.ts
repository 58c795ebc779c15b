// The backfill against what real GCS folders hold and do, on SQLite and PostgreSQL: pr-logs/directory
// objects that name no build folder, build folders without started.json, listings that fail half-way;
// each gives a clear warning or parse error and loses nothing. And `retention`: runs older are pruned
// in each pass with everything hanging off them, and a --since beyond it is refused.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import type { Database } from '../../lib/store/db';
import type { WorldRun } from '../../lib/world/types';
import { beyondDeck, DAY, DECK_WINDOW_HOURS, deckPresent, jobDump, worldManifest } from '../helpers/backfill';
import { closeDatabase, describeEachDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, writeConfig } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
const PRESUBMIT = 'pull-ci-openshift-installer-master-e2e-aws';
const PERIODIC = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';

describeEachDatabase('backfill from GCS folders as they come', (kind) => {
  let dir: string;
  let runs: WorldRun[];
  let end: number;
  let server: ReplayServer;
  let deckDump: Record<string, unknown[]>;
  const made: TestDatabase[] = [];
  const fresh = async () => {
    const t = await freshDatabase(kind);
    made.push(t);
    return open(t);
  };
  /** one job, no promotion gates (their jobs would be backfilled too), no retries (a fault stays one) */
  const oneJob = (job: string, extra: Record<string, unknown> = {}) => configFor(dir, server.url, { prow: { url: server.url, jobs: `^${job}$` }, promotion: [], ingest: { retries: 0 }, ...extra });
  const old = (job: string) => beyondDeck(runs, end).filter((r) => r.job === job);

  beforeAll(async () => {
    ({ dir } = await sampleWorld());
    ({ runs, endUnix: end } = worldManifest(dir));
    server = await replay(dir);
    const all = await fresh();
    await ingestPass({ config: configFor(dir, server.url), db: all });
    deckDump = await logicalDump(all);
    server.setDeckWindowHours(DECK_WINDOW_HOURS);
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    for (const t of made) await t.drop();
  });

  it('warns about pr-logs/directory objects that name no build folder, and reads them once they do', async () => {
    const [cut, garbage] = old(PRESUBMIT).slice(3, 5);
    server.setFaults({
      truncate: [`/pr-logs/directory/${PRESUBMIT}/${cut.buildId}\\.txt$`],
      status: [{ match: `/pr-logs/directory/${PRESUBMIT}/${garbage.buildId}\\.txt$`, status: 200, times: 100 }],
    });
    const db = await fresh();
    try {
      const s1 = await ingestPass({ config: oneJob(PRESUBMIT), db, since: '15d' });
      expect(s1.warnings).toEqual([
        expect.stringMatching(new RegExp(`^backfill: 2 of the builds of ${PRESUBMIT} in gs://origin-ci-test/pr-logs/directory/${PRESUBMIT}/ name no build folder, left out \\(listed again by the next pass\\): `)),
      ]);
      expect(s1.warnings[0]).toContain(`${cut.buildId}.txt: names "gs://origin-ci-test/pr-logs/pull/`);
      expect(s1.warnings[0]).toContain(`not a folder of build ${cut.buildId}`);
      expect(s1.warnings[0]).toContain(`${garbage.buildId}.txt: does not hold a gs:// folder: "{\\"error\\"`);
      const finished = runs.filter((r) => r.job === PRESUBMIT && r.finished <= end);
      expect([s1.runsNew, s1.parseErrors]).toEqual([finished.length - 2, 0]);
      expect(await db.all('SELECT job FROM backfill_cursor')).toEqual([]); // listed again next pass

      server.setFaults({});
      const s2 = await ingestPass({ config: oneJob(PRESUBMIT), db, since: '15d' });
      expect([s2.runsNew, s2.runsBackfilled, s2.warnings]).toEqual([2, 2, []]);
      expect(await jobDump(db, PRESUBMIT)).toEqual(await jobDump(deckDump, PRESUBMIT));
    } finally {
      server.setFaults({});
      await closeDatabase(db);
    }
  }, 240_000);

  it('stores a build whose folder has no started.json with a parse error, its start from prowjob.json or its build id', async () => {
    const [noStarted, bare] = old(PERIODIC).filter((r) => r.state === 'success').slice(0, 2);
    const folder = (r: WorldRun) => `^logs/${PERIODIC}/${r.buildId}`;
    server.setFaults({ hideObjects: [`${folder(noStarted)}/started\\.json$`, `${folder(bare)}/(started|prowjob)\\.json$`] });
    const db = await fresh();
    try {
      const s = await ingestPass({ config: oneJob(PERIODIC), db, since: '15d' });
      expect([s.runsNew, s.parseErrors, s.warnings]).toEqual([runs.filter((r) => r.job === PERIODIC && r.finished <= end).length, 2, []]);
      const errors = await db.all<{ build_id: string; file: string; message: string }>('SELECT r.build_id, p.file, p.message FROM parse_error p JOIN run r ON r.id = p.run_id ORDER BY r.build_id');
      expect(errors).toEqual(
        [noStarted, bare].map((r) => ({ build_id: r.buildId, file: 'started.json', message: 'not in the build folder: the start is taken from prowjob.json or the build id' })).sort((a, b) => (a.build_id < b.build_id ? -1 : 1)),
      );
      // as Deck would have it but for the parse error and the listing's fingerprint (and, with no
      // prowjob.json, the payload only it names)
      const mine = (await jobDump(db, PERIODIC)).runs as Record<string, unknown>[];
      const deck = (await jobDump(deckDump, PERIODIC)).runs as Record<string, unknown>[];
      const without = (rows: Record<string, unknown>[]) => rows.map(({ parse_errors: _, fingerprint: __, payload, ...r }) => ({ ...r, payload: r.build_id === bare.buildId ? '' : payload }));
      expect(without(mine)).toEqual(without(deck));
      for (const r of [noStarted, bare]) expect(mine.find((m) => m.build_id === r.buildId)).toMatchObject({ started: r.started, state: 'success', parse_errors: 1 });
    } finally {
      server.setFaults({});
      await closeDatabase(db);
    }
  }, 240_000);

  it('warns when a job folder cannot be listed to its end, keeps the job for the next pass, and loses nothing', async () => {
    const s = (x: string) => x.replaceAll('/', '%2F');
    server.setFaults({ status: [{ match: `^/storage/v1/b/origin-ci-test/o\\?prefix=${s(`logs/${PERIODIC}/`)}&.*&pageToken=`, status: 503, times: 1000 }] });
    const db = await fresh();
    try {
      const s1 = await ingestPass({ config: oneJob(PERIODIC), db, since: '15d' });
      expect(s1.warnings).toEqual([expect.stringMatching(new RegExp(`^backfill: ${PERIODIC}: .*503.* \\(listed again by the next pass\\)$`))]);
      // Deck's runs are stored all the same
      expect([s1.runsNew, s1.runsBackfilled]).toEqual([runs.filter((r) => r.job === PERIODIC && r.finished <= end && r.started > end - DECK_WINDOW_HOURS * 3600).length, 0]);
      expect(await db.all('SELECT job FROM backfill_cursor')).toEqual([]);
      server.setFaults({});
      const s2 = await ingestPass({ config: oneJob(PERIODIC), db, since: '15d' });
      expect([s2.runsBackfilled, s2.warnings]).toEqual([old(PERIODIC).length, []]);
      expect(await jobDump(db, PERIODIC)).toEqual(await jobDump(deckDump, PERIODIC));
    } finally {
      server.setFaults({});
      await closeDatabase(db);
    }
  }, 240_000);

  it('prunes the runs older than the retention in each pass, with their outcomes, parse errors and pending runs', async () => {
    const db: Database = await fresh();
    try {
      server.setDeckWindowHours(24 * 15);
      await ingestPass({ config: configFor(dir, server.url), db });
      const cutoff = deckPresent(runs, end, 24 * 15) - 10 * DAY;
      const older = runs.filter((r) => r.finished <= end && r.started < cutoff);
      const stale = { job: 'j', buildId: '1', type: 'periodic', state: 'pending', started: cutoff - 60, url: '' };
      await db.run("INSERT INTO pending_run (job, build_id, state, started, first_seen, last_seen, record) VALUES ('j', '1', 'pending', ?, 0, 0, ?)", [stale.started, JSON.stringify(stale)]);
      await db.run("INSERT INTO parse_error (run_id, file, message) SELECT id, 'x', 'y' FROM run WHERE started < ?", [cutoff]);
      const s = await ingestPass({ config: configFor(dir, server.url, { retention: '10d' }), db });
      // Deck still lists them: they are neither pruned again nor stored again
      expect([s.runsPruned, s.runsNew]).toEqual([older.length, 0]);
      expect(await db.all("SELECT 1 FROM pending_run WHERE job = 'j'")).toEqual([]);
      expect((await ingestPass({ config: configFor(dir, server.url, { retention: '10d' }), db })).runsPruned).toBe(0);
      const left = await logicalDump(db);
      expect(left.runs).toEqual((deckDump.runs as { started: number }[]).filter((r) => r.started >= cutoff));
      expect(left.outcomes).toEqual((deckDump.outcomes as { started: number }[]).filter((o) => o.started >= cutoff));
      const orphans = await db.get<{ n: number }>('SELECT (SELECT COUNT(*) FROM test_outcome o LEFT JOIN run r ON r.id = o.run_id WHERE r.id IS NULL) + (SELECT COUNT(*) FROM parse_error p LEFT JOIN run r ON r.id = p.run_id WHERE r.id IS NULL) AS n');
      expect([Number(orphans!.n), (await db.all('SELECT 1 FROM parse_error')).length]).toEqual([0, 0]);
      // the catalog keeps its rows, first_seen included
      expect(left.tests).toEqual(deckDump.tests);
    } finally {
      server.setDeckWindowHours(DECK_WINDOW_HOURS);
      await closeDatabase(db);
    }
  }, 240_000);

  it('refuses a --since reaching further back than the retention, before reading anything', () => {
    const config = writeConfig(configFor(dir, server.url, { retention: '10d' }));
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--config', config, '--db', 'file:/nonexistent/never.db', '--since', '15d'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--since 15d reaches further back than "retention" \(10d\)/);
  });
});
