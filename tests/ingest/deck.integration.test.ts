// Deck's two data.js field sets, the prowjobs.js fallback, runs that finish after Deck forgot them,
// and the CLI's exit codes. SQLite; one job at a time so each pass is small.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStats } from '../../lib/answers/stats';
import { formatSummary, ingestPass, NOT_FINISHED } from '../../lib/ingest/pass';
import { jobDetail } from '../../lib/answers/jobs';
import { runDetail } from '../../lib/answers/runDetail';
import { iso } from '../../lib/history/window';
import { closeDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { openDatabase } from '../../lib/store/db';
import { expectRollupsExact } from '../helpers/rollups';
import { configFor, replay, sampleWorld, TEST_WORLD_END, writeConfig } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
interface WorldRun { job: string; buildId: string; state: string; started: number; finished: number }
let dir: string;
let runs: WorldRun[];
const dbs: TestDatabase[] = [];
const endSec = TEST_WORLD_END.getTime() / 1000;

beforeAll(async () => {
  dir = (await sampleWorld()).dir;
  runs = (JSON.parse(fs.readFileSync(path.join(dir, 'world.json'), 'utf8')) as { runs: WorldRun[] }).runs;
});
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

async function fresh() {
  const t = await freshDatabase('sqlite');
  dbs.push(t);
  return open(t);
}

const PROMOTE = 'release-promote-openshift-machine-os-content-e2e-aws-4.1';
const finishedBy = (job: string, t: number) => runs.filter((r) => r.job === job && r.finished <= t).length;

describe('Deck', () => {
  it.each([
    ['the current data.js fields', { deckFormat: 'current' as const }],
    ['the current data.js fields, parsed on a worker thread', { deckFormat: 'current' as const, workers: 1 }],
    ['the 2019 data.js fields', { deckFormat: '2019' as const }],
    ['prowjobs.js when data.js is missing', { noDataJs: true }],
  ])('ingests a job listed with %s', async (_, opts) => {
    const server = await replay(dir, opts);
    const db = await fresh();
    try {
      const ingest = 'workers' in opts ? { ingest: { workers: opts.workers } } : {};
      const s = await ingestPass({ config: configFor(dir, server.url, { prow: { url: server.url, jobs: `^${PROMOTE}$` }, ...ingest }), db });
      expect(s.source).toBe('noDataJs' in opts ? 'prowjobs.js' : 'data.js');
      if ('workers' in opts) expect(s.parsedOn).toBe('worker thread');
      expect(s.runsNew).toBe(finishedBy(PROMOTE, endSec));
      const refs = await db.all<{ n: number }>("SELECT COUNT(*) AS n FROM run WHERE state NOT IN ('success','failure','error','aborted')");
      expect(refs[0].n).toBe(0);
    } finally {
      await closeDatabase(db);
      await server.close();
    }
  });

  it('reads a Deck listing larger than the per-file cap, which is for artifacts', async () => {
    const server = await replay(dir, { deckWindowHours: 24 * 15 });
    const db = await fresh();
    try {
      const maxFileBytes = 200_000;
      const dataJs = await fetch(`${server.url}/data.js`).then((r) => r.text());
      expect(dataJs.length).toBeGreaterThan(maxFileBytes);
      const s = await ingestPass({ config: configFor(dir, server.url, { prow: { url: server.url, jobs: `^${PROMOTE}$` }, ingest: { maxFileBytes } }), db });
      expect(s.source).toBe('data.js');
      expect(s.runsNew).toBe(finishedBy(PROMOTE, endSec));
    } finally {
      await closeDatabase(db);
      await server.close();
    }
  });

  it('picks up runs that were pending, after they finish, even once Deck no longer lists them', async () => {
    const job = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';
    // a moment about a day before the end when a run of the job was still going
    const going = runs.find((r) => r.job === job && r.started > endSec - 40 * 3600 && r.finished < endSec - 2 * 3600)!;
    const t1 = going.started + 60;
    const earlier = new Date(t1 * 1000);
    const pendingThen = runs.filter((r) => r.job === job && r.started <= t1 && r.finished > t1);
    const stillRunning = pendingThen.filter((r) => r.finished > t1 + 600);
    expect(pendingThen.length).toBeGreaterThan(0);
    const first = await replay(dir, { now: earlier });
    const db = await fresh();
    try {
      const config = configFor(dir, first.url, { prow: { url: first.url, jobs: `^${job}$` } });
      const s1 = await ingestPass({ config, db });
      expect(s1.runsPending).toBe(pendingThen.length);
      await first.close();
      // later, Deck only lists the last hour: the runs seen pending are no longer in data.js
      const later = await replay(dir, { deckWindowHours: 1 });
      const s2 = await ingestPass({ config: configFor(dir, later.url, { prow: { url: later.url, jobs: `^${job}$` } }), db });
      const listedLater = runs.filter((r) => r.job === job && r.started >= endSec - 3600 && r.finished <= endSec).length;
      expect(s2.runsNew).toBe(pendingThen.length + listedLater);
      const stored = await db.all<{ build_id: string }>('SELECT build_id FROM run');
      for (const p of pendingThen) expect(stored.map((r) => r.build_id)).toContain(p.buildId);
      expect((await getStats(db)).runs).toBe(runs.filter((r) => r.job === job && r.finished <= t1).length + pendingThen.length + listedLater);
      await later.close();
    } finally {
      await closeDatabase(db);
    }
  });
});

describe('a run Deck stopped listing before it finished', () => {
  it('is checked for its finished.json less and less often, says why it is pending, and is stored once it finishes', async () => {
    const job = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';
    const going = runs.find((r) => r.job === job && r.started > endSec - 40 * 3600 && r.finished - r.started > 1800 && r.finished < endSec - 2 * 3600)!;
    const t1 = going.started + 60;
    const pendingThen = runs.filter((r) => r.job === job && r.started <= t1 && r.finished > t1);
    const stillRunning = pendingThen.filter((r) => r.finished > t1 + 600);
    // Deck lists it while it runs; ten minutes on, Deck only lists the last five minutes' runs
    const first = await replay(dir, { now: new Date(t1 * 1000) });
    const later = await replay(dir, { now: new Date((t1 + 600) * 1000), deckWindowHours: 5 / 60 });
    const db = await fresh();
    const config = (url: string) => configFor(dir, url, { prow: { url, jobs: `^${job}$` } });
    const checks = () => later.requests.filter((r) => r.path.includes(`${going.buildId}%2Ffinished.json`) || r.path.includes(`${going.buildId}/finished.json`)).length;
    const row = async () => (await db.get<{ attempts: number; last_error: string; wait: number; last_seen: number }>(
      'SELECT attempts, last_error, next_check - ? AS wait, last_seen FROM pending_run WHERE build_id = ?', [Math.floor(Date.now() / 1000), going.buildId]))!;
    try {
      expect((await ingestPass({ config: config(first.url), db })).runsPending).toBe(pendingThen.length);
      const seenAt = Number((await row()).last_seen);
      expect((await jobDetail(db, job, { window: '7d', at: t1 })).pending.map((p) => p.listed)).toEqual(pendingThen.map(() => true));

      const lost = await ingestPass({ config: config(later.url), db });
      expect(checks()).toBe(1);
      expect(lost.runsLost).toBe(stillRunning.length);
      expect(formatSummary(lost)).toContain(`pending (${stillRunning.length} lost track of)`);
      let r = await row();
      expect([r.attempts, r.last_error]).toEqual([1, NOT_FINISHED]);
      expect(Number(r.wait)).toBeGreaterThan(290);
      expect(Number(r.last_seen)).toBe(seenAt); // when Deck last listed it, whatever was tried since
      await expect(runDetail(db, job, going.buildId)).rejects.toThrow(`is pending (not finished or not fetched yet: ${NOT_FINISHED})`);
      // the job's page tells a run it lost track of from one still running
      const shown = (await jobDetail(db, job, { window: '7d', at: t1 + 600 })).pending.find((p) => p.buildId === going.buildId)!;
      expect(shown).toMatchObject({ listed: false, lastListed: iso(seenAt), lastError: NOT_FINISHED });

      await ingestPass({ config: config(later.url), db }); // a pass right after does not check it
      expect(checks()).toBe(1);
      await db.run('UPDATE pending_run SET next_check = next_check - 300'); // as if 5 minutes had passed
      await ingestPass({ config: config(later.url), db });
      expect(checks()).toBe(2);
      r = await row();
      expect(r.attempts).toBe(2);
      expect(Number(r.wait)).toBeGreaterThan(590); // then 10 minutes, doubling up to a day
      await db.run('UPDATE pending_run SET attempts = 20, next_check = 0');
      await ingestPass({ config: config(later.url), db });
      expect(Number((await row()).wait)).toBeGreaterThan(86_390);

      later.setNow(TEST_WORLD_END); // it has finished since
      await db.run('UPDATE pending_run SET next_check = 0');
      const s = await ingestPass({ config: config(later.url), db });
      expect(s.runsNew).toBe(stillRunning.length);
      expect(await db.all('SELECT build_id FROM pending_run')).toEqual([]);
      expect((await db.get<{ state: string }>('SELECT state FROM run WHERE build_id = ?', [going.buildId]))!.state).toBe(going.state);
    } finally {
      await closeDatabase(db);
      await first.close();
      await later.close();
    }
  });
});

describe('the run reader thread', () => {
  it('stores what the main thread would, failures included, and serves pass after pass', async () => {
    const jobs = '^(periodic-ci-openshift-release-master-nightly-4\\.2-e2e-(aws|gcp)|release-promote-.*)$';
    // one run whose folder cannot be listed: it must come back as an error and stay pending
    const unreadable = runs.find((r) => new RegExp(jobs).test(r.job) && r.finished <= endSec)!;
    const server = await replay(dir, { faults: { status: [{ match: `^/storage/v1/b/[^/]+/o\\?prefix=[^&]*${unreadable.buildId}`, status: 503, times: 1000 }] } });
    const ingest = async (workers: number) => {
      const db = await fresh();
      try {
        const config = configFor(dir, server.url, { prow: { url: server.url, jobs }, ingest: { workers, retries: 1 } });
        const s = await ingestPass({ config, db });
        expect(s.parsedOn).toBe(workers ? 'worker thread' : 'main thread');
        expect(s.runsFailed).toBe(1);
        expect(s).toMatchObject({ status: 'ok', runsNotStored: 0 }); // a run that could not be read does not fail the pass
        const pending = await db.all<{ build_id: string; last_error: string }>('SELECT build_id, last_error FROM pending_run WHERE last_error <> ?', ['']);
        expect(pending).toEqual([{ build_id: unreadable.buildId, last_error: expect.stringMatching(/^listing gs:\/\/.*HTTP 503 \(after 2 attempts\)$/) }]);
        return await logicalDump(db);
      } finally {
        await closeDatabase(db);
      }
    };
    try {
      const inline = await ingest(0);
      expect((inline.runs as unknown[]).length).toBeGreaterThan(50);
      // the second worker pass reuses the thread the first one left idle
      expect(await ingest(1)).toEqual(inline);
      expect(await ingest(1)).toEqual(inline);
    } finally {
      await server.close();
    }
  });
});

describe('a run with a file that cannot be downloaded', () => {
  it('is stored without it, read again after 5 minutes, then less and less often, and completed once the file can be read', async () => {
    const victim = runs.filter((r) => r.job === PROMOTE && r.finished <= endSec)[1];
    const server = await replay(dir, { faults: { status: [{ match: `${victim.buildId}/build-log\\.txt$`, status: 503, times: 1e9 }] } });
    let db = await fresh();
    const config = configFor(dir, server.url, { prow: { url: server.url, jobs: `^${PROMOTE}$` }, ingest: { retries: 0 } });
    const stored = async () => {
      const row = (await db.get<{ meta: string; parse_errors: number }>('SELECT meta, parse_errors FROM run WHERE build_id = ?', [victim.buildId]))!;
      return { ...(JSON.parse(row.meta) as { incomplete?: boolean; readAttempts?: number }), parseErrors: row.parse_errors };
    };
    // time passing, as far as ingest can tell: the run was stored earlier. Ingest never changes a
    // stored run in place, and the passes of one process go by what they stored (see
    // knownRunsForPass): each pass after an edit runs as a new process would, on a new connection.
    const age = async (seconds: number) => {
      await db.run('UPDATE run SET ingested_at = ingested_at - ? WHERE build_id = ?', [seconds, victim.buildId]);
      const url = db.url;
      await closeDatabase(db);
      db = await openDatabase(url);
    };
    try {
      const first = await ingestPass({ config, db });
      expect(first.runsNew).toBe(finishedBy(PROMOTE, endSec));
      expect(await stored()).toMatchObject({ incomplete: true, readAttempts: 1, parseErrors: 1 });
      expect((await ingestPass({ config, db })).runsUpdated).toBe(0); // not due yet
      await age(301);
      expect((await ingestPass({ config, db })).runsUpdated).toBe(1);
      expect(await stored()).toMatchObject({ incomplete: true, readAttempts: 2 });
      await age(301);
      expect((await ingestPass({ config, db })).runsUpdated).toBe(0); // the second wait is 10 minutes
      server.setFaults({});
      await age(301);
      expect((await ingestPass({ config, db })).runsUpdated).toBe(1);
      const done = await stored();
      expect([done.incomplete, done.readAttempts, done.parseErrors]).toEqual([undefined, undefined, 0]);
      expect((await ingestPass({ config, db })).runsUpdated).toBe(0);
      // the run was replaced three times: each took its earlier version out of the rollups
      await expectRollupsExact(db);
    } finally {
      await closeDatabase(db);
      await server.close();
    }
  });
});

describe('the ingest command', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), ...args], { encoding: 'utf8', timeout: 60_000 });

  it('exits non-zero with a clear message when Prow cannot be read', async () => {
    const db = await freshDatabase('sqlite');
    dbs.push(db);
    const config = writeConfig(configFor(dir, 'http://127.0.0.1:9', { ingest: { retries: 1 } }));
    const r = cli('ingest', '--config', config, '--db', db.url, '--quiet');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot read the list of runs from Prow at http:\/\/127\.0\.0\.1:9/);
  });

  it('rejects a configuration with an unknown key, naming it', () => {
    const file = writeConfig({ prow: { url: 'http://127.0.0.1:9' } } as never);
    fs.writeFileSync(file, JSON.stringify({ prow: { url: 'http://x' }, gcs: { url: 'http://x', bucket: 'b' } }));
    const r = cli('ingest', '--config', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/unknown config key "gcs\.bucket"/);
  });

  it('prints the one-line summary and exits 0', async () => {
    const server = await replay(dir);
    const db = await freshDatabase('sqlite');
    dbs.push(db);
    try {
      const config = writeConfig(configFor(dir, server.url, { prow: { url: server.url, jobs: `^${PROMOTE}$` } }));
      const r = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
        // asynchronously: the replay server lives in this process
        const child = spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--config', config, '--db', db.url]);
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d));
        child.on('exit', (status: number | null) => resolve({ status, stdout }));
      });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^ingest: ${finishedBy(PROMOTE, endSec)} runs new, 0 updated, 0 pending; [\\d,]+ test results, 0 parse errors; [\\d.]+ MB downloaded; [\\d.]+ s\\n$`));
    } finally {
      await server.close();
    }
  });
});
