// The sample world end to end on SQLite and PostgreSQL: ingest through the replay server (which also
// refreshes the release controller's payloads), then the promotion status against truth.json.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hotlist } from '../../lib/answers/hotlist';
import { promotionStatus } from '../../lib/answers/promotion';
import { type PromotionGate, type PromotionStatus } from '../../lib/promotion/types';
import type { Config } from '../../lib/config';
import { ingestPass } from '../../lib/ingest/pass';
import { refreshReleases } from '../../lib/ingest/releases';
import type { ReplayServer } from '../../lib/replay/server';
import { HttpClient } from '../../lib/sources/http';
import type { Database } from '../../lib/store/db';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';
import { configFor, END_ISO, replay, sampleWorld, TEST_WORLD_END, writeConfig, type Truth } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
const at = Math.floor(TEST_WORLD_END.getTime() / 1000);
const run = promisify(execFile);

describeEachDatabase('promotion status of the sample world', (kind) => {
  let truth: Truth;
  let server: ReplayServer;
  let target: TestDatabase;
  let db: Database;
  let config: Config;
  let status: PromotionStatus;
  const gate = (name: string): PromotionGate => status.gates.find((g) => g.name === name)!;

  beforeAll(async () => {
    const world = await sampleWorld();
    truth = world.truth;
    server = await replay(world.dir);
    config = configFor(world.dir, server.url);
    target = await freshDatabase(kind);
    db = await open(target);
    const summary = await ingestPass({ config, db });
    expect(summary.warnings).toEqual([]);
    status = await promotionStatus(db, config, { at });
  });
  afterAll(async () => {
    await server?.close();
    if (db) await closeDatabase(db);
    await target?.drop();
  });

  it('has one entry per configured gate, blocked exactly where the truth says', () => {
    expect(status.gates.map((g) => [g.name, g.blocked])).toEqual(truth.promotion.gates.map((g: { name: string; blocked: boolean }) => [g.name, g.blocked]));
    expect(status.blockedGates).toEqual(truth.promotion.gates.filter((g: { blocked: boolean }) => g.blocked).map((g: { name: string }) => g.name));
  });

  it('shows the blocked gate\'s latest failed run, its failure streak and the failing test named in the truth', () => {
    const t = truth.promotion.gates.find((g: { blocked: boolean }) => g.blocked);
    const g = gate(t.name);
    const job = g.jobs.find((j) => j.kind === 'blocking' && j.job === t.latestRun.job)!;
    expect(job.latest).toMatchObject({ buildId: t.latestRun.buildId, state: t.latestRun.state });
    expect(job.latest!.url).toContain(`/${t.latestRun.job}/${t.latestRun.buildId}`);
    const lastFailures = t.lastRuns.filter((r: { state: string }) => r.state !== 'success').length;
    expect(job.consecutiveFailures).toBeGreaterThanOrEqual(lastFailures);
    expect(Date.parse(job.lastSuccess!)).toBeLessThan(Date.parse(t.lastRuns[0].startedIso));
    const failing = job.failingTests.map((f) => f.test);
    expect(failing).toContain(t.failingTest);
    expect(failing.some((n) => n.startsWith('Run multi-stage test'))).toBe(false); // wrapper steps left out
    expect(job.promote?.candidate).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(g.summary).toContain(`${g.name} is blocked by ${t.latestRun.job}`);
    expect(g.summary).toContain(t.failingTest);
    expect(g.timeline[g.timeline.length - 1]).toMatchObject({ state: 'blocked', to: status.at });
    expect(Date.parse(g.timeline[g.timeline.length - 1].from)).toBeGreaterThan(Date.parse(t.lastRuns[0].startedIso));
  });

  it('gives each failing test the hot list\'s verdict and bugs', async () => {
    const hot = await hotlist(db, { window: '7d', at, limit: 10_000 }, { ignoreTests: [] });
    const byId = new Map(hot.items.map((i) => [i.id, i]));
    const tests = [...status.gates.flatMap((g) => g.jobs.flatMap((j) => j.failingTests)), ...status.releaseStreams.flatMap((s) => s.blockingJobs.flatMap((j) => j.failingTests))];
    expect(tests.length).toBeGreaterThan(0);
    for (const t of tests) expect({ test: t.test, classification: t.classification, bugs: t.bugs }).toEqual({ test: t.test, classification: byId.get(t.id!)!.classification, bugs: byId.get(t.id!)!.bugs });
  });

  it('shows the unblocked gate\'s latest successful run and the runs pending now', () => {
    const t = truth.promotion.gates.find((g: { blocked: boolean }) => !g.blocked);
    const g = gate(t.name);
    expect(g.reason).toMatch(/succeeded/);
    const job = g.jobs.find((j) => j.job === t.latestRun.job)!;
    expect(job).toMatchObject({ kind: 'blocking', consecutiveFailures: 0, failingTests: [] });
    expect(job.latest).toMatchObject({ buildId: t.latestRun.buildId, state: 'success' });
    expect(g.timeline[g.timeline.length - 1]).toMatchObject({ state: 'unblocked', to: status.at });
    const pendingInGates = status.gates.flatMap((x) => x.jobs.flatMap((j) => j.pending.map((p) => `${j.job}/${p.buildId}`)));
    const expected = truth.runs.pendingRuns
      .filter((r: { job: string }) => status.gates.some((x) => x.jobs.some((j) => j.job === r.job)))
      .map((r: { job: string; buildId: string }) => `${r.job}/${r.buildId}`);
    expect(pendingInGates.sort()).toEqual(expected.sort());
  });

  it('keeps a gate blocked while a newer run is still running', async () => {
    const t = truth.promotion.gates.find((g: { blocked: boolean }) => g.blocked);
    const whileRunning = await promotionStatus(db, config, { at: t.latestRun.started + 60, verdicts: false });
    const job = whileRunning.gates.find((g) => g.name === t.name)!.jobs.find((j) => j.job === t.latestRun.job)!;
    expect(whileRunning.gates.find((g) => g.name === t.name)!.blocked).toBe(true);
    expect(job.latest!.buildId).toBe(t.lastRuns[t.lastRuns.length - 2].buildId);
    expect(job.pending.map((p) => p.buildId)).toEqual([t.latestRun.buildId]);
  });

  it('shows each release stream\'s latest payload, its phase and the last accepted one', () => {
    for (const s of status.releaseStreams) {
      const t = truth.releaseStreams[s.name];
      expect(s.latest).toMatchObject({ tag: t.latest, phase: t.phase });
      expect(s.tags).toBe(t.tags);
      const lastAccepted = Object.entries(t.phases as Record<string, string>).find(([, p]) => p === 'Accepted')?.[0];
      expect(s.lastAccepted?.tag).toBe(lastAccepted);
      const rejected = Object.keys(t.phases).slice(0, Object.keys(t.phases).indexOf(lastAccepted!)).filter((k) => t.phases[k] === 'Rejected');
      expect(s.rejected.map((r) => r.tag)).toEqual(rejected);
    }
  });

  it('joins the rejected payload\'s failed blocking job to its ingested run and lists that run\'s failing tests', async () => {
    const [name, t] = Object.entries(truth.releaseStreams).find(([, v]) => (v as { phase: string }).phase === 'Rejected') as [string, any];
    const s = status.releaseStreams.find((x) => x.name === name)!;
    const [jobName, ref] = Object.entries(t.blockingJobs as Record<string, { job: string; buildId: string; state: string }>).find(([, v]) => v.state === 'Failed')!;
    const job = s.blockingJobs.find((j) => j.name === jobName)!;
    expect(job.state).toBe('Failed');
    expect(job.run).toMatchObject({ job: ref.job, buildId: ref.buildId, state: 'failure' });
    const direct = await db.all<{ name: string }>(
      `SELECT t.name FROM test_outcome o JOIN test t ON t.id = o.test_id JOIN run r ON r.id = o.run_id JOIN job j ON j.id = r.job_id
       WHERE j.name = ? AND r.build_id = ? AND o.outcome = 1 ORDER BY t.name`,
      [ref.job, ref.buildId],
    );
    const expected = direct.map((d) => d.name).filter((n) => !n.startsWith('Run multi-stage test'));
    expect(expected.length).toBeGreaterThan(0);
    expect(job.failingTests.map((f) => f.test).sort()).toEqual(expected.sort());
    expect(status.summary).toContain(`${name}: latest ${t.latest} Rejected`);
  });

  it('counts the payloads rejected in a row at the head of each stream and names the stream among the blockers', () => {
    for (const s of status.releaseStreams) {
      const names = Object.keys(truth.releaseStreams[s.name].phases as Record<string, string>);
      const phases = Object.values(truth.releaseStreams[s.name].phases as Record<string, string>);
      const undecided = phases.findIndex((p) => p !== 'Ready');
      let n = 0;
      while (phases[undecided + n] === 'Rejected') n++;
      expect(s.rejectedInARow).toBe(n);
      expect(status.rejectedStreams.includes(s.name)).toBe(n > 0);
      if (!n) continue;
      expect(status.summary).toContain(`Release stream rejecting payloads: ${s.name} (${n} payloads rejected in a row since`);
      expect(s.failingBlockingJobs[0].payloads).toBeGreaterThan(0);
      // nightly names end in their creation time: YYYY-MM-DD-HHMMSS
      const [, d, hh, mm, ss] = /(\d{4}-\d{2}-\d{2})-(\d{2})(\d{2})(\d{2})$/.exec(names[undecided + n - 1])!;
      expect(s.rejectedSince).toBe(`${d}T${hh}:${mm}:${ss}Z`);
    }
    expect(status.rejectedStreams.length).toBeGreaterThan(0);
  });

  it('keeps the stored payloads when the release controller is down, with a warning', async () => {
    const http = new HttpClient({ allowedHosts: new Set([new URL(server.url).host]), retries: 1, retryBaseMs: 1 });
    server.setFaults({ status: [{ match: '/api/v1/releasestream/', status: 503, times: 1000 }] });
    try {
      const r = await refreshReleases({ config, db, http });
      expect(r.warnings).toHaveLength(config.releaseController!.streams.length);
      expect(r.warnings[0]).toMatch(/release controller: cannot read the tags of stream .*503.*kept the tags stored before/);
    } finally {
      server.setFaults({});
    }
    const again = await promotionStatus(db, config, { at });
    expect(again.releaseStreams).toEqual(status.releaseStreams);
  });

  it('answers GET /api/promotion with the same JSON, and 400 for a bad `at`', async () => {
    const saved = { db: process.env.DATABASE_URL, config: process.env.BUILDCOP_CONFIG };
    process.env.DATABASE_URL = target.url;
    process.env.BUILDCOP_CONFIG = writeConfig(config);
    try {
      const { GET } = await import('../../app/api/promotion/route');
      const ok = await GET(new Request(`http://localhost/api/promotion?at=${encodeURIComponent(END_ISO)}`) as never);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual(status);
      const bad = await GET(new Request('http://localhost/api/promotion?at=last-tuesday') as never);
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toMatch(/invalid at/);
    } finally {
      for (const [k, v] of [['DATABASE_URL', saved.db], ['BUILDCOP_CONFIG', saved.config]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('prints the same JSON from `buildcop promotion --json`, and readable text without --json', async () => {
    if (kind !== 'sqlite') return; // the CLI path is engine-independent; once is enough
    const file = writeConfig(config);
    const args = ['bin/buildcop.mjs', 'promotion', '--at', END_ISO, '--db', target.url, '--config', file];
    const { stdout } = await run(process.execPath, [...args, '--json'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    expect(JSON.parse(stdout)).toEqual(status);
    const text = (await run(process.execPath, args, { cwd: ROOT })).stdout;
    const blocked = truth.promotion.gates.find((g: { blocked: boolean }) => g.blocked);
    expect(text).toContain(`BLOCKED ${blocked.name}`);
    expect(text).toContain(blocked.failingTest);
    await expect(run(process.execPath, ['bin/buildcop.mjs', 'promotion', '--at', 'yesterday', '--db', target.url, '--config', file], { cwd: ROOT })).rejects.toMatchObject({
      stderr: expect.stringContaining('invalid at'),
    });
  });
});
