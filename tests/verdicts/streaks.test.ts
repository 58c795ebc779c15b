// Streaks ("failed the latest 3 runs of a job") read only the runs they are counted on: a span of
// the test's outcomes, or the runs one by one where a job runs rarely. The cases a generated world
// seldom has: a streak longer than the runs counted (its start lies further back than the days read
// for them), a streak on a job that runs once a day beside a job that flakes every other run, and a
// test judged alone and in a batch with others, which must get the same verdict (the hot list judges
// hundreds at once, the test page one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDaysKept } from '../../lib/history/dayKeeping';
import type { Database } from '../../lib/store/db';
import { verdictsAt } from '../../lib/verdicts/judge';
import { LATEST_RUNS, readPlan } from '../../lib/verdicts/recentRuns';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';
import { craftedBuildId, writeCraftedRuns, type CraftedRun } from '../helpers/craftedRuns';

const HOUR = 3600;
const DAY = 86_400;
const DAY0 = Date.UTC(2026, 9, 1) / 1000;
const AT = DAY0 + 13 * DAY + 12 * HOUR;
const job = (v: string) => `periodic-ci-openshift-release-master-nightly-${v}`;
const F = job('4.16-e2e-aws-every-2h');
const F2 = job('4.18-e2e-gcp-every-30m');
const R = job('4.17-e2e-azure-daily');
const S = job('4.15-e2e-vsphere-stopped');
const K = job('4.19-e2e-metal-hourly');
const LONG = '[sig-apps] fails nearly always, its latest 20 runs in a row';
const RARE = '[sig-node] fails the latest 3 runs of a daily job, flakes every other run elsewhere';
const STOPPED = '[sig-storage] failed the latest 3 runs of a job that stopped running, fails now elsewhere';
const ONCE = '[sig-cli] failed once, in the last run of the job that stopped';
const TESTS = [LONG, RARE, STOPPED, ONCE];

type Outcomes = Record<string, 1 | 2>;
const not = (test: string, outcome: 1 | 2 = 1): Outcomes => ({ [test]: outcome });
const none: Outcomes = {};

function world(): CraftedRun[] {
  const runs: CraftedRun[] = [];
  const every = (name: string, first: number, step: number, until: number, outcome: (k: number, fromEnd: number) => Outcomes) => {
    const n = Math.ceil((until - first) / step);
    for (let k = 0; k < n; k++) runs.push({ job: name, started: first + k * step, outcomes: outcome(k, n - 1 - k) });
  };
  // LONG passes its 21st-newest run (40 hours back: before the day its latest 10 runs end in) and a
  // few long before, and fails every other run of F
  every(F, DAY0 + HOUR, 2 * HOUR, AT, (_, e) => (e === 20 || (e > 20 && e % 30 === 0) ? none : not(LONG)));
  every(F2, DAY0 + 600, HOUR / 2, AT, (k) => (k % 2 === 0 ? not(RARE, 2) : none));
  every(R, DAY0 + 6 * HOUR, DAY, AT, (_, e) => (e < 3 ? not(RARE) : none));
  // S runs at 06:00 and 18:00 until yesterday evening; STOPPED failed there now and then, then its last 3
  every(S, DAY0 + 6 * HOUR, 12 * HOUR, DAY0 + 12 * DAY + 19 * HOUR, (k, e) => ({ ...(e < 3 || [4, 10, 16].includes(k) ? not(STOPPED) : none), ...(e === 0 ? not(ONCE) : none) }));
  every(K, DAY0 + HOUR / 2, HOUR, AT, (k) => (k % 8 === 3 ? not(STOPPED) : none));
  return runs.sort((a, b) => a.started - b.started);
}

describe('the read plan of a test\'s latest outcomes', () => {
  it('reads a span where the runs are recent and the test fails seldom, probes the runs far back', () => {
    const at = 1_000_000;
    const recent = Array.from({ length: 10 }, (_, i) => at - 600 * (i + 1));
    expect(readPlan(recent, at, 0.001)).toEqual({ from: at - 6000, probed: [] });
    // one rare job's runs days back: probed, not a span of days of outcomes
    const rare = [at - 2 * DAY, at - 3 * DAY + 10];
    expect(readPlan([...recent, ...rare], at, 0.001)).toEqual({ from: at - 6000, probed: rare });
    // a test failing so often that any span costs more than probing every run
    expect(readPlan(recent, at, 10)).toEqual({ from: at, probed: [...recent].sort((a, b) => b - a) });
    // runs in the same second fall on the same side
    const tied = [at - 100, at - 5000, at - 5000, at - 9000];
    const plan = readPlan(tied, at, 0.0001);
    expect(tied.filter((s) => s >= plan.from).length + plan.probed.length).toBe(tied.length);
    expect(plan.probed.filter((s) => s === at - 5000).length % 2).toBe(0);
  });
});

describeEachDatabase('streaks', (kind) => {
  let t: TestDatabase;
  let db: Database;
  let runs: CraftedRun[];
  let ids: Map<string, number>;
  const buildOf = (name: string, fromEnd: number) => {
    const mine = runs.map((r, i) => ({ r, i })).filter(({ r }) => r.job === name);
    return craftedBuildId(mine[mine.length - 1 - fromEnd].i);
  };

  beforeAll(async () => {
    t = await freshDatabase(kind);
    db = await open(t);
    runs = world();
    ids = await writeCraftedRuns(db, [F, F2, R, S, K], TESTS, runs);
  }, 120_000);
  afterAll(async () => {
    await closeDatabase(db);
    await t.drop();
  });

  it('names where a streak longer than the runs counted began, and the pass before it', async () => {
    const v = (await verdictsAt(db, AT, [ids.get(LONG)!])).get(ids.get(LONG)!)!;
    expect(v.classification).toBe('broken');
    const entry = (v.evidence.jobs as Record<string, any>[]).find((j) => j.job === F)!;
    expect(entry.failedLatestRuns).toBe(LATEST_RUNS);
    expect(entry.since).toMatchObject({ job: F, buildId: buildOf(F, 19) });
    expect(entry.lastPass).toMatchObject({ job: F, buildId: buildOf(F, 20) });
  });

  it('finds a streak on a job that runs once a day beside a job where the test flakes every other run', async () => {
    const v = (await verdictsAt(db, AT, [ids.get(RARE)!])).get(ids.get(RARE)!)!;
    expect(v.classification).toBe('broken');
    const entry = (v.evidence.jobs as Record<string, any>[]).find((j) => j.job === R)!;
    expect(entry.failedLatestRuns).toBe(3);
    // the span looked at begins three days before: the first of the three is the oldest there
    expect(entry.since).toMatchObject({ job: R, buildId: buildOf(R, 2) });
  });

  it('gives a test the same verdict judged alone as in a batch with others', async () => {
    const alone = new Map<number, unknown>();
    for (const name of TESTS) alone.set(ids.get(name)!, (await verdictsAt(db, AT, [ids.get(name)!])).get(ids.get(name)!));
    // a second later: nothing ran in between, and the verdicts judged alone are not reused
    const together = await verdictsAt(db, AT + 1, TESTS.map((n) => ids.get(n)!));
    for (const name of TESTS) expect(together.get(ids.get(name)!), name).toEqual(alone.get(ids.get(name)!));
    // a streak counts on the jobs the test failed on the last day it failed, not on one that stopped
    expect(alone.get(ids.get(STOPPED)!)).not.toMatchObject({ classification: 'broken' });
  });

  it('gives the same verdicts in a process that keeps no days (the CLI), reading the waiting jobs\' runs of the days before', async () => {
    const all = TESTS.map((n) => ids.get(n)!);
    const kept = await verdictsAt(db, AT + 2, all);
    setDaysKept(false);
    try {
      // the daily job's streak and the long one reach back days before today's: read for their jobs only
      const one = await verdictsAt(db, AT + 3, all);
      for (const name of TESTS) expect(one.get(ids.get(name)!), name).toEqual(kept.get(ids.get(name)!));
    } finally {
      setDaysKept(true);
    }
  });
});
