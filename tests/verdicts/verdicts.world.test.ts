// The verdicts and counting rules on the sample world: its flaky, regressing, broken and infra
// tests get those verdicts with the evidence the truth expects, plus the edge cases.
import { beforeAll, describe, expect, it } from 'vitest';
import { hotlist, type Hotlist, type HotlistItem } from '../../lib/answers/hotlist';
import { testDetail } from '../../lib/answers/testDetail';
import { openDatabase, type Database } from '../../lib/store/db';
import { sampleWorld, TEST_WORLD_END, worldDatabaseUrl, type Truth } from '../helpers/world';

const at = Math.floor(TEST_WORLD_END.getTime() / 1000);
let db: Database;
let truth: Truth;
let list: Hotlist;
const item = (name: string): HotlistItem => {
  const found = list.items.find((i) => i.test === name);
  expect(found, name).toBeDefined();
  return found!;
};

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
  db = await openDatabase(await worldDatabaseUrl());
  list = await hotlist(db, { window: '7d', at, limit: 10_000 });
}, 300_000);

describe('verdicts on the sample world', () => {
  it('puts the top test first and leaves out ci-operator wrapper tests by default', () => {
    expect(list.items[0].test).toBe(truth.scenarios.top.test);
    expect(list.items.some((i) => i.test.startsWith('Run multi-stage test'))).toBe(false);
    // install and setup step failures stay in
    expect(list.items.some((i) => i.test === truth.scenarios.installStepTest.test)).toBe(true);
  });

  it('calls the regression a regression, dated at the payload change, with Fisher evidence', () => {
    const r = truth.scenarios.regression;
    const it = item(r.test);
    expect(it.classification).toBe('regression');
    const ev = it.evidence as Record<string, any>;
    const change = Date.parse(ev.changeAt) / 1000;
    expect(Math.abs(change - r.changeAt)).toBeLessThanOrEqual(6 * 3600); // within one bucket
    expect(ev.pValue).toBeLessThan(1e-6);
    expect(ev.before.failed).toBe(0);
    expect(ev.after.failed).toBe(r.afterChange.failedRuns);
    expect(ev.firstFailingRun.buildId).toBe(r.firstFailingRun.buildId);
    expect(ev.payloadChanged).toEqual({ from: r.payloadBefore, to: r.payloadAfter });
    expect(ev.summary).toMatch(/rose from 0\.0% .* to .*Fisher/);
    expect(it.isNew).toBe(true);
  });

  it('calls the test failing every run of one job broken, naming the job', () => {
    const b = truth.scenarios.broken;
    const it = item(b.test);
    expect(it.classification).toBe('broken');
    expect((it.evidence as { jobs: { job: string; failureRate: number }[] }).jobs).toEqual([
      expect.objectContaining({ job: b.job, failureRate: 1 }),
    ]);
  });

  it('calls the retried deploymentconfigs test flaky: failed then passed in the same run', () => {
    const f = truth.scenarios.flaky;
    const it = item(f.test);
    expect(it.classification).toBe('flaky');
    expect(it.flakedRuns).toBe(f.window.flakedRuns);
    expect(it.failedRuns).toBe(f.window.failedRuns);
    expect((it.evidence as { flakedRuns: number }).flakedRuns).toBe(f.window.flakedRuns);
    // the Kubelet race text, different resource versions in every run, is one signature
    expect(it.signaturesCount).toBe(1);
    expect(it.signatures[0].count).toBe(truth.kubeletRaceSignature.windowOccurrences);
    expect(it.signatures[0].text).toMatch(/object\.Status\.Phase:\s+a: "Failed"\s+b: "Succeeded"/);
    expect(it.signatures[0].text).not.toMatch(/ResourceVersion:\s+a: "\d/);
  });

  it('calls the test that only fails when the cluster falls over infra, with co-failure figures', () => {
    const it = item(truth.scenarios.infra.test);
    expect(it.classification).toBe('infra');
    const ev = it.evidence as { withMassFailure: number; failedRuns: number; medianFailedTestsPerRun: number };
    expect(ev.withMassFailure).toBe(ev.failedRuns);
    expect(ev.medianFailedTestsPerRun).toBeGreaterThanOrEqual(20);
    expect(item(truth.scenarios.installStepTest.test).classification).toBe('infra');
  });

  it('shares one cross-test signature for the TLS handshake timeouts', () => {
    const tls = list.items.filter((i) => i.signatures.some((s) => /TLS handshake timeout/.test(s.text)));
    const ids = new Set(tls.flatMap((i) => i.signatures.filter((s) => /TLS handshake timeout/.test(s.text)).map((s) => s.id)));
    expect(tls.length).toBeGreaterThan(20);
    expect(ids.size).toBe(1);
  });
});

describe('edge cases', () => {
  it('marks a test new in the window and counts nothing before it', () => {
    const n = truth.scenarios.newInWindow;
    const it = item(n.test);
    expect(it.isNew).toBe(true);
    expect(it.previousFailedRuns).toBe(0);
    expect(it.failedRuns).toBe(n.window.failedRuns);
    // five failures at a low rate is not a step change
    expect(it.classification).not.toBe('regression');
  });

  it('counts a renamed job under both names, each with its own runs', async () => {
    const { from, to } = truth.scenarios.renamedJob;
    const both = list.items.filter((i) => i.jobs.includes(from) && i.jobs.includes(to));
    expect(both.length).toBeGreaterThan(0);
    const old = await hotlist(db, { window: '7d', at, limit: 10_000, job: `^${from}$` });
    const renamed = await hotlist(db, { window: '7d', at, limit: 10_000, job: `^${to}$` });
    const together = await hotlist(db, { window: '7d', at, limit: 10_000, job: `^(${from}|${to})$` });
    const t = both[0].test;
    const a = old.items.find((i) => i.test === t)!;
    const b = renamed.items.find((i) => i.test === t)!;
    expect(a.failedRuns + a.flakedRuns).toBeGreaterThan(0);
    expect(b.failedRuns + b.flakedRuns).toBeGreaterThan(0);
    const c = together.items.find((i) => i.test === t)!;
    expect({ failed: c.failedRuns, flaked: c.flakedRuns, runs: c.runs }).toEqual({ failed: a.failedRuns + b.failedRuns, flaked: a.flakedRuns + b.flakedRuns, runs: a.runs + b.runs });
  });

  it('answers a window with no runs with an empty list, and a test page that says so', async () => {
    const empty = await hotlist(db, { window: '24h', at: Date.UTC(2020, 0, 1) / 1000, limit: 100 });
    expect(empty.items).toEqual([]);
    expect(empty.totalItems).toBe(0);
    const d = await testDetail(db, truth.scenarios.flaky.test, { window: '24h', at: Date.UTC(2020, 0, 1) / 1000 });
    expect(d.classification).toBe('passing');
    expect(d.runs).toEqual([]);
    expect(d.evidence.summary).toMatch(/did not run/);
  });

  it('gives a test page with history, signatures and runs newest first', async () => {
    const d = await testDetail(db, truth.scenarios.regression.test, { window: '7d', at });
    expect(d.classification).toBe('regression');
    expect(d.runs).toHaveLength(truth.scenarios.regression.window.failedRuns);
    expect(d.runs.map((r) => r.started)).toEqual([...d.runs.map((r) => r.started)].sort().reverse());
    expect(d.history.reduce((s, h) => s + h.failed, 0)).toBe(truth.scenarios.regression.window.failedRuns);
    expect(d.history.reduce((s, h) => s + h.runs, 0)).toBe(truth.scenarios.regression.window.runs);
    expect(d.signatures[0].exampleRuns.length).toBeGreaterThan(0);
    // the same answer by id as by name
    expect((await testDetail(db, d.id, { window: '7d', at })).test).toBe(d.test);
  });

  it('filters by release, platform, upgrade, owner and verdict', async () => {
    const aws = await hotlist(db, { window: '7d', at, limit: 10_000, platform: 'aws' });
    expect(aws.items.find((i) => i.test === truth.scenarios.broken.test)).toBeUndefined();
    const r41 = await hotlist(db, { window: '7d', at, limit: 10_000, release: '4.1' });
    expect(r41.items.find((i) => i.test === truth.scenarios.regression.test)).toBeUndefined();
    const storage = await hotlist(db, { window: '7d', at, limit: 10_000, owner: 'storage' });
    expect(storage.items.every((i) => i.owner === 'storage')).toBe(true);
    const flaky = await hotlist(db, { window: '7d', at, limit: 10_000, classification: 'flaky' });
    expect(flaky.items.every((i) => i.classification === 'flaky')).toBe(true);
    expect(flaky.totalItems).toBe(list.items.filter((i) => i.classification === 'flaky').length);
  });
});
