// The verdicts on the sample world. Each scenario test gets the verdict the world was built to have,
// with its evidence, in every window; and for every test, the verdict and its evidence are the same
// on every tab, on the test page and in the promotion view at the same `at`.
import { beforeAll, describe, expect, it } from 'vitest';
import { hotlist, listedEvidence, type Hotlist, type HotlistItem } from '../../lib/answers/hotlist';
import { promotionStatus } from '../../lib/answers/promotion';
import { testDetail } from '../../lib/answers/testDetail';
import { openDatabase, type Database } from '../../lib/store/db';
import { configFor, replay, sampleWorld, TEST_WORLD_END, worldDatabaseUrl, type Truth } from '../helpers/world';

const at = Math.floor(TEST_WORLD_END.getTime() / 1000);
const WINDOWS = ['24h', '3d', '7d', '14d'] as const;
let db: Database;
let truth: Truth;
const lists = {} as Record<(typeof WINDOWS)[number], Hotlist>;
const item = (name: string, w: (typeof WINDOWS)[number] = '7d'): HotlistItem => {
  const found = lists[w].items.find((i) => i.test === name);
  expect(found, `${name} in the ${w} hot list`).toBeDefined();
  return found!;
};
const ev = (i: { evidence: Record<string, unknown> }) => i.evidence as Record<string, any>;

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
  db = await openDatabase(await worldDatabaseUrl());
  for (const w of WINDOWS) lists[w] = await hotlist(db, { window: w, at, limit: 10_000 });
}, 300_000);

describe('one verdict per test at a time', () => {
  it('gives every test the same classification and evidence on every tab and on its page', async () => {
    const byId = new Map<string, HotlistItem>();
    for (const w of WINDOWS) {
      for (const i of lists[w].items) {
        const seen = byId.get(i.id);
        if (seen) expect({ w, c: i.classification, e: i.evidence }, i.test).toEqual({ w, c: seen.classification, e: seen.evidence });
        else byId.set(i.id, i);
      }
    }
    expect(byId.size).toBe(lists['14d'].totalItems);
    // the regressions of the sample world did not rise in some jobs of their releases: counted, not listed
    expect([...byId.values()].some((i) => Number(i.evidence.unchangedJobSlices) > 0)).toBe(true);
    for (const i of [...byId.values()].filter((_, k) => k % 7 === 0)) {
      for (const w of ['24h', '14d'] as const) {
        const d = await testDetail(db, i.id, { window: w, at });
        // the page has every slice; the hot list the same evidence less the jobs where it did not rise
        expect({ c: d.classification, e: listedEvidence(d.evidence) }, `${i.test} on its ${w} page`).toEqual({ c: i.classification, e: i.evidence });
        const count = (e: Record<string, unknown>) => ((e.slices ?? []) as unknown[]).length;
        expect(count(d.evidence) - count(i.evidence), i.test).toBe(Number(i.evidence.unchangedJobSlices ?? 0));
      }
    }
  });

  it('gives each scenario test the verdict it was built to have, in every window it is listed in', async () => {
    for (const [test, expected] of Object.entries(truth.expectedVerdicts)) {
      const listed = WINDOWS.filter((w) => lists[w].items.some((i) => i.test === test));
      expect(listed, test).toContain('14d');
      for (const w of listed) expect(item(test, w).classification, `${test} in ${w}`).toBe(expected);
      for (const w of WINDOWS) expect((await testDetail(db, test, { window: w, at })).classification, `${test} page, ${w}`).toBe(expected);
    }
  });
});

describe('regressions against a basis, per slice', () => {
  it('dates the NodePort regression at the payload change on the grid, with Fisher evidence', () => {
    const r = truth.scenarios.regression;
    const e = ev(item(r.test));
    const change = Date.parse(e.changeAt) / 1000;
    // on the grid of UTC days: the day of the payload change
    expect(change % 86_400).toBe(0);
    expect(r.changeAt - change).toBeGreaterThanOrEqual(0);
    expect(r.changeAt - change).toBeLessThan(86_400);
    expect(e.pValue).toBeLessThan(1e-6);
    expect(e.before.failed).toBe(0);
    expect(e.firstFailingRun.buildId).toBe(r.firstFailingRun.buildId);
    expect(e.payloadChanged).toEqual({ from: r.payloadBefore, to: r.payloadAfter });
    expect(e.notChangedIn.every((s: string) => !s.startsWith('4.2'))).toBe(true);
    expect(item(r.test).isNew).toBe(true);
  });

  it('calls the intermittent 4.2 regression whose retries pass a regression of 4.2 and not of 4.1', () => {
    const r = truth.scenarios.intermittentRegression;
    const e = ev(item(r.test));
    expect(e.changedIn.length).toBeGreaterThan(0);
    // presubmits of master say no release in their names: "unversioned"
    expect(e.changedIn.every((s: string) => s.startsWith('4.2') || s.startsWith('unversioned'))).toBe(true);
    expect(e.notChangedIn).toEqual(expect.arrayContaining(['4.1 aws', '4.1 gcp', '4.1 azure']));
    expect(e.summary).toMatch(/in 4\.2 .*; not in .*4\.1 aws/);
    // every slice with runs, its counts from the slice's own runs; the 4.1 ones never failed
    const v41 = e.slices.filter((s: any) => s.release === '4.1' && !s.job);
    expect(v41.length).toBe(3);
    for (const s of v41) expect(s).toMatchObject({ failedBefore: 0, failedAfter: 0, changed: false });
    const after = e.slices.filter((s: any) => !s.job).reduce((n: number, s: any) => n + s.failedAfter, 0);
    const truth42 = r.afterChangeHealthy['4.2'];
    expect(after).toBe(truth42.failedRuns + truth42.flakedRuns);
    expect(truth42.flakedRuns).toBeGreaterThan(0); // retries that passed count as failures
    const change = Date.parse(e.changeAt) / 1000;
    expect(r.changeAt - change).toBeGreaterThanOrEqual(0);
    expect(r.changeAt - change).toBeLessThan(86_400);
    expect(e.firstFailingRun.buildId).toBe(r.firstFailingRun.buildId);
  });
});

describe('precedence a buildcop would sign', () => {
  it('never calls the 4.1 promotion blocker flaky, and the promotion view agrees with the hot list', async () => {
    const b = truth.scenarios.promotionBlocker;
    for (const w of WINDOWS) expect(['broken', 'regression']).toContain(item(b.test, w).classification);
    const { dir } = await sampleWorld();
    const server = await replay(dir);
    try {
      const status = await promotionStatus(db, configFor(dir, server.url), { at });
      const gate = status.gates.find((g) => g.jobs.some((j) => j.job === b.job))!;
      const failing = gate.jobs.flatMap((j) => j.failingTests).find((t) => t.test === b.test)!;
      expect(failing.classification).toBe(item(b.test).classification);
      expect(status.summary).not.toMatch(/flaky, no bug/);
    } finally {
      await server.close();
    }
  });

  it('calls a test broken on one platform broken on each of its jobs', () => {
    const b = truth.scenarios.brokenPlatform;
    expect(ev(item(b.test)).jobs.map((j: any) => j.job).sort()).toEqual(b.jobs);
    expect(ev(item(truth.scenarios.broken.test)).jobs).toEqual([expect.objectContaining({ job: truth.scenarios.broken.job, failureRate: 1 })]);
  });

  it('keeps the long-lived flake overlapping the mass failure flaky, and says how long and how much', () => {
    const f = truth.scenarios.flaky;
    expect(truth.scenarios.massIncident.flakyTestFailures).toBeGreaterThan(10);
    const e = ev(item(f.test, '14d'));
    expect(e.flakedRuns).toBe(f.window.flakedRuns + f.previous.flakedRuns);
    expect(e.severity.firstSeen).toBe(truth.scenarios.massIncident.longFlakeFirstFailure);
    expect(e.severity.daysWithFailure).toBe(14);
    expect(e.severity.trend).toBe('steady');
    // the Kubelet race text, different resource versions in every run, is one signature
    const kubelet = item(f.test).signatures.filter((s) => /object\.Status\.Phase/.test(s.text));
    expect(kubelet).toHaveLength(1);
    expect(kubelet[0].count).toBe(truth.kubeletRaceSignature.windowOccurrences);
  });

  it('calls the mass failure\'s tests and the crashlooping-pods test infra, with co-failure figures', () => {
    for (const t of truth.scenarios.massIncident.tests.filter((n: string) => n !== truth.scenarios.flaky.test)) {
      expect(item(t, '14d').classification, t).toBe('infra');
    }
    const e = ev(item(truth.scenarios.infra.test));
    expect(e.withMassFailure).toBe(e.failedRuns);
    expect(e.medianFailedTestsPerRun).toBeGreaterThanOrEqual(20);
    expect(item(truth.scenarios.installStepTest.test).classification).toBe('infra');
  });
});

describe('fixed', () => {
  it('says since when, how many clean runs, how unlikely at the old rate, and the bug that closed', () => {
    const f = truth.scenarios.fixedFlake;
    const e = ev(item(f.test, '14d'));
    expect(e.lastFailure).toBe(f.lastFailure.startedIso);
    expect(e.lastFailingRun.buildId).toBe(f.lastFailure.buildId);
    expect(e.cleanRuns).toBe(f.cleanHealthyRunsSince);
    expect(e.chanceAtOldRate).toBeLessThan(1e-6);
    expect(Date.parse(e.firstCleanRun.started) / 1000).toBeGreaterThan(f.lastFailure.started);
    expect(e.bug).toMatchObject({ tracker: f.bug.tracker, id: f.bug.id });
    expect(Date.parse(e.bug.closedAt) / 1000).toBeGreaterThan(f.fixedAt);
  });

  it('is a classification the hot list filters by, and absent where the window saw no failure', async () => {
    const fixed = await hotlist(db, { window: '14d', at, limit: 10_000, classification: 'fixed' });
    expect(fixed.items.map((i) => i.test)).toContain(truth.scenarios.fixedFlake.test);
    expect(fixed.items.every((i) => i.classification === 'fixed')).toBe(true);
    expect(lists['24h'].items.some((i) => i.test === truth.scenarios.fixedFlake.test)).toBe(false);
  });
});

describe('the hot list around the verdicts', () => {
  it('puts the top test first and leaves out ci-operator wrapper tests by default', () => {
    expect(lists['7d'].items[0].test).toBe(truth.scenarios.top.test);
    expect(lists['7d'].items.some((i) => i.test.startsWith('Run multi-stage test'))).toBe(false);
    expect(lists['7d'].items.some((i) => i.test === truth.scenarios.installStepTest.test)).toBe(true);
  });

  it('sorts by flake severity on request', async () => {
    const bySeverity = await hotlist(db, { window: '7d', at, limit: 10_000, sort: 'severity' });
    expect(bySeverity.totalItems).toBe(lists['7d'].totalItems);
    const scores = bySeverity.items.map((i) => ev(i).severity?.score).filter((s): s is number => s !== undefined);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('shares one cross-test signature for the TLS handshake timeouts', () => {
    const tls = lists['7d'].items.filter((i) => i.signatures.some((s) => /TLS handshake timeout/.test(s.text)));
    expect(tls.length).toBeGreaterThan(20);
    expect(new Set(tls.flatMap((i) => i.signatures.filter((s) => /TLS handshake timeout/.test(s.text)).map((s) => s.id))).size).toBe(1);
  });

  it('marks a test new in the window and counts nothing before it', () => {
    const n = truth.scenarios.newInWindow;
    const i = item(n.test);
    expect(i.isNew).toBe(true);
    expect(i.previousFailedRuns).toBe(0);
    expect(i.failedRuns).toBe(n.window.failedRuns);
    expect(i.classification).not.toBe('regression');
  });

  it('counts a renamed job under both names, each with its own runs', async () => {
    const { from, to } = truth.scenarios.renamedJob;
    const both = lists['7d'].items.filter((i) => i.jobs.includes(from) && i.jobs.includes(to));
    expect(both.length).toBeGreaterThan(0);
    const q = (job: string) => hotlist(db, { window: '7d', at, limit: 10_000, job });
    const [a, b, c] = await Promise.all([q(`^${from}$`), q(`^${to}$`), q(`^(${from}|${to})$`)]);
    const t = both[0].test;
    const [x, y, z] = [a, b, c].map((l) => l.items.find((i) => i.test === t)!);
    expect(x.failedRuns + x.flakedRuns).toBeGreaterThan(0);
    expect(y.failedRuns + y.flakedRuns).toBeGreaterThan(0);
    expect({ failed: z.failedRuns, flaked: z.flakedRuns, runs: z.runs }).toEqual({ failed: x.failedRuns + y.failedRuns, flaked: x.flakedRuns + y.flakedRuns, runs: x.runs + y.runs });
    // a filter selects the rows, never the verdict
    expect(z.classification).toBe(item(t).classification);
  });

  it('answers a window with no runs with an empty list, and a test page that says so', async () => {
    const empty = await hotlist(db, { window: '24h', at: Date.UTC(2020, 0, 1) / 1000, limit: 100 });
    expect(empty.items).toEqual([]);
    const d = await testDetail(db, truth.scenarios.flaky.test, { window: '24h', at: Date.UTC(2020, 0, 1) / 1000 });
    expect(d.classification).toBe('passing');
    expect(d.evidence.summary).toMatch(/did not run/);
  });

  it('gives a test page with history, signatures and runs newest first', async () => {
    const r = truth.scenarios.regression;
    const d = await testDetail(db, r.test, { window: '7d', at });
    expect(d.runs).toHaveLength(r.window.failedRuns);
    expect(d.runs.map((x) => x.started)).toEqual([...d.runs.map((x) => x.started)].sort().reverse());
    expect(d.history.reduce((s, h) => s + h.failed, 0)).toBe(r.window.failedRuns);
    expect(d.history.reduce((s, h) => s + h.runs, 0)).toBe(r.window.runs);
    expect((await testDetail(db, d.id, { window: '7d', at })).test).toBe(d.test);
  });

  it('filters by release, platform, owner and verdict', async () => {
    const q = (more: object) => hotlist(db, { window: '7d', at, limit: 10_000, ...more });
    expect((await q({ platform: 'aws' })).items.find((i) => i.test === truth.scenarios.broken.test)).toBeUndefined();
    expect((await q({ release: '4.1' })).items.find((i) => i.test === truth.scenarios.regression.test)).toBeUndefined();
    expect((await q({ owner: 'storage' })).items.every((i) => i.owner === 'storage')).toBe(true);
    const flaky = await q({ classification: 'flaky' });
    expect(flaky.items.every((i) => i.classification === 'flaky')).toBe(true);
    expect(flaky.totalItems).toBe(lists['7d'].items.filter((i) => i.classification === 'flaky').length);
  });
});
