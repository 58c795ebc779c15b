// The verdict rules on plain numbers (a test's history over the lookback), Fisher's exact test
// against known values, and the step change they rest on.
import { describe, expect, it } from 'vitest';
import { fisherGreater, fisherTwoSided } from '../../lib/verdicts/fisher';
import { bucketStart, GRID_SECONDS, lookback } from '../../lib/verdicts/lookback';
import { judge, type JobSeries, type TestHistory } from '../../lib/verdicts/rules';
import { atSplit, bestRise } from '../../lib/verdicts/stepChange';
import { describeChange } from '../../lib/verdicts/verdict';

describe("Fisher's exact test", () => {
  it('matches textbook values', () => {
    // Fisher's lady tasting tea: [[3,1],[1,3]], two-sided p = 0.4857, one-sided 0.2429
    expect(fisherTwoSided(3, 4, 1, 4)).toBeCloseTo(0.4857, 4);
    expect(fisherGreater(1, 4, 3, 4)).toBeCloseTo(0.2429, 4);
    expect(fisherGreater(5, 50, 5, 50)).toBeGreaterThan(0.5);
    expect(fisherGreater(0, 100, 30, 60)).toBeLessThan(1e-12);
  });

  it('gives the same doubles as the tail summed term by term, each with its nine log-factorials', () => {
    // the definition, written out: verdicts and their evidence must not move by a bit with its speed
    const lf = [0];
    const logFact = (n: number) => {
      while (lf.length <= n) lf.push(lf[lf.length - 1] + Math.log(lf.length));
      return lf[n];
    };
    const term = (a: number, b: number, c: number, d: number) => logFact(a + b) + logFact(c + d) + logFact(a + c) + logFact(b + d) - logFact(a + b + c + d) - logFact(a) - logFact(b) - logFact(c) - logFact(d);
    const tail = (failedBefore: number, runsBefore: number, failedAfter: number, runsAfter: number) => {
      let p = 0;
      for (let x = failedAfter; x <= Math.min(failedBefore + failedAfter, runsAfter); x++) {
        const [a, b, d] = [failedBefore + failedAfter - x, runsBefore - failedBefore - failedAfter + x, runsAfter - x];
        if (a >= 0 && b >= 0 && d >= 0) p += Math.exp(term(a, b, x, d));
      }
      return Math.min(1, p);
    };
    // small tables, a test's lookback at OpenShift's scale (its tail runs to terms too small for a double), and edges
    const tables = [[1, 4, 3, 4], [0, 100, 30, 60], [5, 50, 5, 50], [12, 9000, 180, 4000], [300, 40000, 900, 20000], [0, 5, 0, 5], [7, 7, 9, 9], [40, 30, 2, 3]];
    for (let f = 0; f < 60; f += 7) for (let r = 20; r < 3000; r *= 3) tables.push([f, r, f + 9, Math.ceil(r / 2)]);
    // tables of every shape, up to a lookback's 300,000 runs: the sum stops where its terms no longer
    // change it, and must stop nowhere sooner (wide, flat tails; the observed count below the peak)
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48271) % 2147483647) % n);
    for (let i = 0; i < 300; i++) {
      const runsBefore = 1 + random([50, 3000, 300_000][i % 3]);
      const runsAfter = 1 + random(runsBefore);
      tables.push([random(Math.ceil(runsBefore / (1 + random(40)))), runsBefore, random(Math.ceil(runsAfter / (1 + random(40)))), runsAfter]);
    }
    for (const [fb, rb, fa, ra] of tables) expect(Object.is(fisherGreater(fb, rb, fa, ra), tail(fb, rb, fa, ra)), `${fb} ${rb} ${fa} ${ra}`).toBe(true);
  });
});

describe('step change', () => {
  it('finds the bucket where the rate rose and stayed up', () => {
    const runs = Array(56).fill(6);
    const failed = runs.map((_, i) => (i >= 40 ? 4 : 0));
    const split = bestRise({ runs, failed })!;
    expect(split).toMatchObject({ bucket: 40, runsBefore: 240, failedBefore: 0, runsAfter: 96, failedAfter: 64 });
  });
  it('sees no step in a steady 5% rate, nor in a burst that went away', () => {
    const runs = Array(56).fill(20);
    expect(bestRise({ runs, failed: runs.map(() => 1) })).toBeUndefined();
    expect(bestRise({ runs, failed: runs.map((_, i) => (i >= 20 && i < 26 ? 15 : 0)) })).toBeUndefined();
  });
  it('needs history before the change', () => {
    expect(bestRise({ runs: [...Array(28).fill(0), ...Array(28).fill(5)], failed: [...Array(28).fill(0), ...Array(28).fill(2)] })).toBeUndefined();
  });
  it('judges another series at a given split', () => {
    const at = atSplit({ runs: Array(10).fill(5), failed: [0, 0, 0, 0, 0, 3, 3, 3, 3, 3] }, 5);
    expect(at).toMatchObject({ runsBefore: 25, failedBefore: 0, runsAfter: 25, failedAfter: 15, changed: true });
    expect(atSplit({ runs: Array(10).fill(5), failed: Array(10).fill(0) }, 5).changed).toBe(false);
  });
});

// ---- histories on the grid: 14 UTC days, the last one partial ------------------------------------
const AT = Date.UTC(2026, 10, 23, 15) / 1000; // 15:00: the day of `at` is partial
const LB = lookback(AT);
const N = LB.buckets;
type JobSpec = { job: string; release?: string; platform?: string; upgrade?: boolean; runs?: number | number[]; failed?: (b: number) => number; flaked?: (b: number) => number; latest?: number[] };
function job(s: JobSpec): JobSeries {
  const runs = Array.from({ length: N }, (_, b) => (Array.isArray(s.runs) ? s.runs[b] : (s.runs ?? 8)));
  return {
    job: s.job, release: s.release ?? '4.2', platform: s.platform ?? 'aws', upgrade: s.upgrade ?? false,
    runs, failed: runs.map((_, b) => s.failed?.(b) ?? 0), flaked: runs.map((_, b) => s.flaked?.(b) ?? 0),
    latest: s.latest ?? [0, 0, 0, 0, 0],
  };
}
function history(jobs: JobSeries[], over: Partial<TestHistory> = {}): TestHistory {
  return { test: 'a test', lookback: LB, jobs, broken: { install: 0, mass: 0, failedTestsPerRun: [] }, sameConditionPairs: [], ...over };
}
const every = (k: number) => (b: number) => (b % k === 0 ? 1 : 0);

describe('the grid', () => {
  it('anchors buckets to absolute time, so a reload never moves a change', () => {
    for (let b = 0; b < N; b++) expect(bucketStart(LB, b) % GRID_SECONDS).toBe(0);
    expect(bucketStart(LB, 0)).toBe(LB.from);
    expect(N).toBe(14);
    expect(bucketStart(LB, N - 1)).toBeLessThan(AT);
    // a minute later: the same grid
    expect(bucketStart(lookback(AT + 60), 3)).toBe(bucketStart(LB, 3));
  });
});

describe('judge', () => {
  it('infra only when its failures came with broken runs and not outside them', () => {
    const v = judge(history([job({ job: 'j' })], { broken: { install: 2, mass: 5, failedTestsPerRun: [0, 0, 60, 61, 70, 80, 90] } }));
    expect(v.classification).toBe('infra');
    expect(v.evidence).toMatchObject({ withInstallFailure: 2, withMassFailure: 5, failedRuns: 7, outsideBrokenRuns: 0, medianFailedTestsPerRun: 61 });
    // a long-lived flake that also failed in a mass failure is judged on its own failures
    const flake = judge(history([job({ job: 'j', flaked: every(4), failed: every(9) })], { broken: { install: 0, mass: 20, failedTestsPerRun: Array(20).fill(69) } }));
    expect(flake.classification).toBe('flaky');
  });

  it('regression per slice: a 40% rate on 4.2 with retries that pass, none on 4.1', () => {
    const change = 9;
    const v = judge(
      history([
        job({ job: 'nightly-4.2-aws', failed: (b) => (b >= change ? 3 : 0), flaked: (b) => (b >= change ? 1 : 0) }),
        job({ job: 'nightly-4.2-gcp', platform: 'gcp', failed: (b) => (b >= change ? 2 : 0), flaked: (b) => (b >= change ? 1 : 0) }),
        job({ job: 'nightly-4.1-aws', release: '4.1' }),
        job({ job: 'nightly-4.1-gcp', release: '4.1', platform: 'gcp' }),
      ]),
    );
    expect(v.classification).toBe('regression');
    const ev = v.evidence as any;
    expect(ev.changeAt).toBe(new Date(bucketStart(LB, change) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(ev.changedIn).toEqual(['4.2 aws', '4.2 gcp']);
    expect(ev.notChangedIn).toEqual(['4.1 aws', '4.1 gcp']);
    // the headline counts pool the changed slices only, never the releases where nothing changed
    expect(ev.before).toMatchObject({ failed: 0, runs: 2 * 8 * change });
    expect(ev.after).toMatchObject({ failed: 7 * (N - change), runs: 2 * 8 * (N - change) });
    const row = ev.slices.find((s: any) => s.release === '4.1' && s.platform === 'aws' && !s.job);
    expect(row).toMatchObject({ runsBefore: 8 * change, failedBefore: 0, runsAfter: 8 * (N - change), failedAfter: 0, changed: false, status: 'steady' });
    expect(ev.slices.find((s: any) => s.job === 'nightly-4.2-aws')).toMatchObject({ changed: true, status: 'rose' });
    // every job with runs enough is a slice of the evidence, the jobs where it never failed too (made
    // only once a rise is found), in the order of the others: newest release first, then by name
    expect(ev.slices.filter((s: any) => s.job).map((s: any) => [s.job, s.status])).toEqual([
      ['nightly-4.2-aws', 'rose'],
      ['nightly-4.2-gcp', 'rose'],
      ['nightly-4.1-aws', 'steady'],
      ['nightly-4.1-gcp', 'steady'],
    ]);
    expect(ev.summary).toMatch(/in 4\.2 aws, 4\.2 gcp .*; not in 4\.1 aws, 4\.1 gcp/);
    // the same failures as retries only (every failure passed on retry) are still a regression
    const retries = judge(history([job({ job: 'n', flaked: (b) => (b >= change ? 3 : 0) }), job({ job: 'm', release: '4.1' })]));
    expect(retries.classification).toBe('regression');
  });

  it('regression and broken beat flaky', () => {
    const flakes = { flaked: every(5) };
    expect(judge(history([job({ job: 'j', ...flakes, failed: (b) => (b >= 10 ? 3 : 0) })])).classification).toBe('regression');
    expect(judge(history([job({ job: 'j', ...flakes, failed: () => 8 })])).classification).toBe('broken');
  });

  it('broken on a job it fails (nearly) always, naming the job', () => {
    const v = judge(history([job({ job: 'azure', platform: 'azure', failed: () => 8 }), job({ job: 'aws' })]));
    expect(v.classification).toBe('broken');
    expect(v.evidence.jobs).toEqual([expect.objectContaining({ job: 'azure', failureRate: 1 })]);
  });

  it('broken when the latest 3+ runs of a job failed after passing there, never flaky', () => {
    // three runs a day; the last three failed; retries elsewhere would have made it "flaky"
    const runs = Array.from({ length: N }, (_, b) => (b % 4 === 0 ? 1 : 0));
    const v = judge(history([job({ job: 'promote-4.1', runs, failed: (b) => (b >= N - 3 && b % 4 === 0 ? 1 : 0), latest: [1, 1, 1, 0, 0, 0] })], { sameConditionPairs: [{ job: 'promote-4.1', on: 'payload', value: 'p', failed: '9', passed: '8' }] }));
    expect(['broken', 'regression']).toContain(v.classification);
    const streak = judge(history([job({ job: 'promote-4.1', runs: 1, latest: [1, 1, 1, 0, 0], failed: (b) => (b === N - 1 ? 1 : 0) })]));
    expect(streak.classification).toBe('broken');
    expect(streak.evidence.jobs).toEqual([expect.objectContaining({ job: 'promote-4.1', failedLatestRuns: 3 })]);
  });

  it('fixed: clean since its last failure for longer than its old rate makes plausible', () => {
    const runsSince = 8 * (N - 8);
    const v = judge(history([job({ job: 'j', flaked: (b) => (b < 8 ? 2 : 0) })], { lastFailure: { started: bucketStart(LB, 7), runsSince } }));
    expect(v.classification).toBe('fixed');
    expect(v.evidence).toMatchObject({ cleanRuns: runsSince, failedBefore: 16 });
    expect(v.evidence.chanceAtOldRate as number).toBeLessThan(0.001);
    // a few clean runs after a rare flake prove nothing
    const early = judge(history([job({ job: 'j', flaked: (b) => (b === 3 || b === 9 || b === 13 ? 1 : 0) })], { lastFailure: { started: bucketStart(LB, 13), runsSince: 3 } }));
    expect(early.classification).toBe('flaky');
  });

  it('says how long and how much a flake fails, and its trend', () => {
    const basis = [2, 1, 2, 1, 2, 1, 1];
    const recent = [4, 4, 4, 5, 4, 5, 4];
    const v = judge(history([job({ job: 'j', runs: 40, flaked: (b) => (b < 7 ? basis[b] : recent[b - 7]) })], { firstSeen: AT - 700 * 86_400 }));
    expect(v.classification).toBe('flaky');
    const sev = v.evidence.severity as any;
    expect(sev.firstSeen).toBe(new Date((AT - 700 * 86_400) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(sev.trend).toBe('rising');
    expect(sev.daysWithFailure).toBe(14);
    expect(sev.flakedRuns).toBe(v.evidence.flakedRuns);
  });

  it('failing when none of the above', () => {
    expect(judge(history([job({ job: 'j', failed: every(11) })])).classification).toBe('failing');
  });
});

describe('what changed', () => {
  it('names the payload and commit that differ from the run before', () => {
    const first = { job: 'j', buildId: '2', url: 'u2', started: AT, payload: 'p2', commit: 'c2' };
    const prev = { job: 'j', buildId: '1', url: 'u1', started: AT - 100, payload: 'p1', commit: 'c2' };
    expect(describeChange(first, prev)).toMatchObject({ payloadChanged: { from: 'p1', to: 'p2' }, previousRun: { buildId: '1' } });
    expect(describeChange(first, prev)).not.toHaveProperty('commitChanged');
  });
});
