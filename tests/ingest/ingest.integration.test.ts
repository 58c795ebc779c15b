// Replay server → ingest → database, checked against the sample world's truth, on SQLite and
// PostgreSQL: counts, idempotence, kill -9 and restart, injected 503s and a truncated junit.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { health } from '../../lib/answers/health';
import { hotlist } from '../../lib/answers/hotlist';
import { ingestLog } from '../../lib/answers/ingestLog';
import { getStats } from '../../lib/answers/stats';
import { ingestPass } from '../../lib/ingest/pass';
import { pendingRunsOf } from '../../lib/store/pending';
import type { Database } from '../../lib/store/db';
import { closeDatabase, describeEachDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, TEST_WORLD_END, writeConfig, type Truth } from '../helpers/world';
import type { ReplayServer } from '../../lib/replay/server';

const ROOT = path.resolve(__dirname, '../..');
const at = Math.floor(TEST_WORLD_END.getTime() / 1000);

describeEachDatabase('ingest of the sample world', (kind) => {
  let world: { dir: string; truth: Truth };
  let server: ReplayServer;
  let target: TestDatabase;
  let db: Database;
  let firstDump: Record<string, unknown[]>;

  beforeAll(async () => {
    world = await sampleWorld();
    server = await replay(world.dir);
    target = await freshDatabase(kind);
    db = await open(target);
  });
  afterAll(async () => {
    await server?.close();
    if (db) await closeDatabase(db);
    await target?.drop();
  });

  it('stores exactly the runs, tests and outcomes of the world', async () => {
    const summary = await ingestPass({ config: configFor(world.dir, server.url), db });
    const { truth } = world;
    expect(summary.runsNew).toBe(truth.runs.finished);
    expect(summary.runsPending).toBe(truth.runs.pending);
    expect(summary.parseErrors).toBe(0);
    const stats = await getStats(db);
    expect(stats.runs).toBe(truth.runs.finished);
    expect(stats.runsByState).toEqual(truth.runs.byState);
    expect(stats.pendingRuns).toBe(truth.runs.pending);
    expect(stats.tests).toBe(truth.tests);
    expect(stats.testResults).toBe(truth.testResults.total);
    expect(stats.failures).toBe(truth.testResults.failed);
    expect(stats.flakes).toBe(truth.testResults.flaked);
    expect(stats.lastIngestWarnings).toBe(0);
    // the ingest log: the pass, and the runs Deck lists unfinished
    const log = await ingestLog(db, { limit: 5 });
    expect(log.passes).toEqual([expect.objectContaining({ status: 'ok', runsNew: truth.runs.finished, runsPending: truth.runs.pending, runsFailed: 0, runsNotStored: 0, testResults: truth.testResults.total, warnings: [] })]);
    expect(log.passes[0].downloadedBytes).toBe(summary.downloadedBytes);
    expect(log.pending).toMatchObject({ total: truth.runs.pending, running: truth.runs.pending, retrying: 0, lost: 0 });
    expect(log.pending.runs.every((r) => r.why === 'running' && r.attempts === 0)).toBe(true);
    expect(log.parseErrors).toEqual({ total: 0, runs: 0, errors: [] });
    firstDump = await logicalDump(db);
  });

  it('counts every failing test in the window and the one before exactly as the truth does', async () => {
    const list = await hotlist(db, { window: '7d', at, limit: 10_000 }, { ignoreTests: [] });
    const byName = new Map(list.items.map((i) => [i.test, i]));
    const expected = Object.entries(world.truth.perTest).filter(([, t]) => t.window.failedRuns + t.window.flakedRuns > 0);
    expect(list.items.length).toBe(expected.length);
    for (const [name, t] of expected) {
      const item = byName.get(name);
      expect(item, name).toBeDefined();
      expect({ runs: item!.runs, failedRuns: item!.failedRuns, flakedRuns: item!.flakedRuns, jobs: item!.jobs }, name).toEqual({
        runs: t.window.runs, failedRuns: t.window.failedRuns, flakedRuns: t.window.flakedRuns, jobs: [...t.window.jobs].sort(),
      });
      // the sparkline's days hold the window's runs, failures and flakes, each once
      const days = item!.sparkline.reduce((s, p) => ({ runs: s.runs + p.runs, failed: s.failed + p.failed, flaked: s.flaked + p.flaked }), { runs: 0, failed: 0, flaked: 0 });
      expect(days, name).toEqual({ runs: t.window.runs, failed: t.window.failedRuns, flaked: t.window.flakedRuns });
      expect({ previousFailedRuns: item!.previousFailedRuns, previousFlakedRuns: item!.previousFlakedRuns, previousRuns: item!.previousRuns }, name).toEqual({
        previousFailedRuns: t.previous.failedRuns, previousFlakedRuns: t.previous.flakedRuns, previousRuns: t.previous.runs,
      });
    }
  });

  it('changes nothing when the same data is ingested again', async () => {
    const summary = await ingestPass({ config: configFor(world.dir, server.url), db });
    expect(summary.runsNew + summary.runsUpdated).toBe(0);
    expect(await logicalDump(db)).toEqual(firstDump);
  });

  it('ends with the same database after a kill -9 in the middle and a restart', async () => {
    // the same server (URLs are part of what is stored), slowed down so the kill lands mid-pass
    server.setFaults({ delayMs: 4 });
    const other = await freshDatabase(kind);
    const config = writeConfig(configFor(world.dir, server.url));
    const cli = (args: string[]) => spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--config', config, '--db', other.url, '--quiet', ...args], { stdio: 'ignore' });
    try {
      const odb = await open(other);
      const child = cli([]);
      // kill once a good part of the runs is in, mid-pass
      for (let i = 0; i < 600; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const n = (await odb.get<{ n: number }>('SELECT COUNT(*) AS n FROM run'))!.n;
        if (n >= 150) break;
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const partial = (await odb.get<{ n: number }>('SELECT COUNT(*) AS n FROM run'))!.n;
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(world.truth.runs.finished);
      await closeDatabase(odb);
      const again = cli([]);
      const code = await new Promise((r) => again.once('exit', r));
      expect(code).toBe(0);
      const db2 = await open(other);
      expect(await logicalDump(db2)).toEqual(firstDump);
      // the killed pass stays recorded as running: the log calls it interrupted once a later one started
      expect((await ingestLog(db2, { limit: 5 })).passes.map((p) => p.status)).toEqual(['ok', 'interrupted']);
      await closeDatabase(db2);
    } finally {
      server.setFaults({});
      await other.drop();
    }
  }, 240_000);

  it('survives injected 503s and records a truncated junit as a parse error, keeping the rest of the run', async () => {
    const noJunit = world.truth.specialRuns.noE2eJunit;
    // a run of the same job that does have an e2e junit: truncate that file
    const victim = (firstDump.runs as { job: string; build_id: string; gcs_path: string; meta: string }[]).find(
      (r) => r.job === noJunit.job && r.build_id !== noJunit.buildId && r.meta.includes('"resultsFrom":"junit"'),
    )!;
    const faulty = await replay(world.dir, {
      faults: {
        status: [
          { match: '^/data\\.js', status: 503, times: 2 },
          { match: '^/storage/v1/b/', status: 503, times: 3 },
          { match: 'build-log\\.txt$', status: 502, times: 2 },
          // a bug tracker that refuses the query: a warning of the pass, which completes
          { match: '^/rest/api/2/search', status: 400, times: 100 },
        ],
        truncate: [`${victim.build_id}/artifacts/.*junit_e2e_[^/]*\\.xml$`],
      },
    });
    const other = await freshDatabase(kind);
    const odb = await open(other);
    try {
      const summary = await ingestPass({ config: configFor(world.dir, faulty.url), db: odb });
      expect(summary.runsNew).toBe(world.truth.runs.finished);
      expect(summary.parseErrors).toBe(1);
      expect(faulty.requests.filter((r) => r.status >= 500).length).toBe(7);
      const errors = await odb.all<{ file: string; message: string }>(
        'SELECT p.file, p.message FROM parse_error p JOIN run r ON r.id = p.run_id WHERE r.build_id = ?',
        [victim.build_id],
      );
      expect(errors).toHaveLength(1);
      expect(errors[0].file).toMatch(/junit_e2e_.*\.xml$/);
      expect(errors[0].message).toMatch(/truncated/);
      // the build log fills in what the cut junit lost: the counts still equal the truth
      const stats = await getStats(odb);
      expect(stats.testResults).toBe(world.truth.testResults.total);
      expect(stats.failures).toBe(world.truth.testResults.failed);
      expect(stats.lastIngestWarnings).toBe(1); // the pages' freshness line points to the log
      // a source that failed does not make the data stale, but the health check tells it
      expect(await health(async () => odb)).toMatchObject({ status: 'ok', lastIngestStatus: 'ok', lastIngestWarnings: 1 });
      // the ingest log shows both: the warning, and the file that could not be parsed
      const log = await ingestLog(odb, { limit: 5 });
      expect(log.passes).toEqual([expect.objectContaining({ status: 'ok', message: '', parseErrors: 1, warnings: [expect.stringMatching(/^bugs: jira: .*400/)] })]);
      expect(log.parseErrors).toEqual({
        total: 1, runs: 1, errors: [{ job: victim.job, buildId: victim.build_id, started: expect.any(String), url: expect.stringContaining(victim.build_id), file: errors[0].file, message: errors[0].message }],
      });
    } finally {
      await closeDatabase(odb);
      await faulty.close();
      await other.drop();
    }
  }, 240_000);

  it('keeps a run the database refuses pending with the reason, stores the rest of its batch, and stores it once it can', async () => {
    // A real refusal by the engine (a trigger), in the middle of a job's history.
    const job = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';
    const builds = (firstDump.runs as { job: string; build_id: string }[]).filter((r) => r.job === job).map((r) => r.build_id);
    const refused = builds[Math.floor(builds.length / 2)];
    const other = await freshDatabase(kind);
    const odb = await open(other);
    const config = configFor(world.dir, server.url, { prow: { url: server.url, jobs: `^${job}$` } });
    try {
      if (kind === 'sqlite') {
        await odb.exec(`CREATE TRIGGER refuse BEFORE INSERT ON run WHEN NEW.build_id = '${refused}' BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`);
      } else {
        await odb.exec(`CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN IF NEW.build_id = '${refused}' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
          CREATE TRIGGER refuse BEFORE INSERT ON run FOR EACH ROW EXECUTE FUNCTION refuse()`);
      }
      const first = await ingestPass({ config, db: odb });
      expect(first.runsFailed).toBe(1);
      // a pass that could not store a run is a failed pass, and health says so with the count
      expect(first).toMatchObject({ status: 'failed', runsNotStored: 1, message: expect.stringMatching(/^1 run could not be stored: .*refused by a test trigger/) });
      expect(await health(async () => odb)).toMatchObject({ status: 'degraded', lastIngestStatus: 'failed', lastIngestRunsNotStored: 1 });
      expect(first.runsNew).toBe(builds.length - 1);
      const pending = await odb.all<{ build_id: string; last_error: string; attempts: number }>('SELECT build_id, last_error, attempts FROM pending_run');
      expect(pending).toEqual([{ build_id: refused, last_error: expect.stringMatching(/^storing failed: .*refused by a test trigger/), attempts: 1 }]);
      expect((await odb.all('SELECT 1 FROM run WHERE build_id = ?', [refused])).length).toBe(0);
      expect((await odb.all('SELECT 1 FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE r.build_id = ?', [refused])).length).toBe(0);
      const wait = async () => Number((await odb.get<{ wait: number }>('SELECT next_check - last_seen AS wait FROM pending_run'))!.wait);
      expect(await wait()).toBe(300); // tried again 5 minutes later
      const log = await ingestLog(odb, { limit: 5 });
      expect(log.passes[0]).toMatchObject({ status: 'failed', runsFailed: 1, runsNotStored: 1, message: first.message });
      expect(log.pending).toMatchObject({ total: 1, running: 0, retrying: 1, lost: 0 });
      expect(log.pending.runs).toEqual([
        expect.objectContaining({ job, buildId: refused, why: 'retrying', attempts: 1, lastError: expect.stringMatching(/refused by a test trigger/), nextCheck: expect.any(String) }),
      ]);

      // refused again and again: the wait doubles, up to an hour while Deck lists the run
      await odb.run('UPDATE pending_run SET attempts = 9, next_check = 0');
      expect((await ingestPass({ config, db: odb })).runsFailed).toBe(1);
      expect(await wait()).toBe(3600);

      await odb.exec(kind === 'sqlite' ? 'DROP TRIGGER refuse' : 'DROP TRIGGER refuse ON run; DROP FUNCTION refuse()');
      // not tried by the next pass; meanwhile Deck lists it, it is not lost
      const waiting = await ingestPass({ config, db: odb });
      expect([waiting.runsNew, waiting.runsPending, waiting.runsLost]).toEqual([0, 1, 0]);
      expect((await pendingRunsOf(odb, job)).map((p) => [p.buildId, p.listed])).toEqual([[refused, true]]);
      await odb.run('UPDATE pending_run SET next_check = 0'); // as if the hour had passed
      const second = await ingestPass({ config, db: odb });
      expect(second.runsNew).toBe(1);
      expect(await health(async () => odb)).toMatchObject({ status: 'ok', lastIngestRunsNotStored: 0 });
      expect(await odb.all('SELECT build_id FROM pending_run')).toEqual([]);
      // the same runs and outcomes as the whole world's ingest (signatures aside: clustering one job
      // alone, and the refused run last, may pick other representatives)
      const mine = (rows: Record<string, unknown[]>) => ({
        runs: (rows.runs as { job: string }[]).filter((r) => r.job === job),
        outcomes: (rows.outcomes as { job: string; signature?: string }[]).filter((r) => r.job === job).map(({ signature: _, ...o }) => o),
      });
      expect(mine(await logicalDump(odb))).toEqual(mine(firstDump));
    } finally {
      await closeDatabase(odb);
      await other.drop();
    }
  }, 240_000);
});
