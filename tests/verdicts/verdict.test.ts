// The verdict rules on plain numbers, and Fisher's exact test against known values.
import { describe, expect, it } from 'vitest';
import { fisherGreater, fisherTwoSided } from '../../lib/verdicts/fisher';
import { classify, describeChange, findStepChange, type FailedRun, type VerdictInput } from '../../lib/verdicts/verdict';

describe("Fisher's exact test", () => {
  it('matches textbook values', () => {
    // Fisher's lady tasting tea: [[3,1],[1,3]], two-sided p = 0.4857, one-sided 0.2429
    expect(fisherTwoSided(3, 4, 1, 4)).toBeCloseTo(0.4857, 4);
    expect(fisherGreater(1, 4, 3, 4)).toBeCloseTo(0.2429, 4);
    // no difference at all
    expect(fisherGreater(5, 50, 5, 50)).toBeGreaterThan(0.5);
    // 0/100 before, 30/60 after: overwhelming
    expect(fisherGreater(0, 100, 30, 60)).toBeLessThan(1e-12);
  });
});

const start = 1_700_000_000;
function input(over: Partial<VerdictInput> & { runs: number[]; failed: number[] }): VerdictInput {
  const { runs, failed, ...rest } = over;
  return {
    test: 'a test',
    bucketStarts: runs.map((_, i) => start + i * 21_600),
    runsPerBucket: runs,
    failedPerBucket: failed,
    windowStartBucket: Math.floor(runs.length / 2),
    perJob: [{ job: 'job-a', runs: runs.slice(runs.length / 2).reduce((a, b) => a + b, 0), failed: failed.slice(runs.length / 2).reduce((a, b) => a + b, 0), flaked: 0 }],
    failedRuns: [],
    flakedRuns: 0,
    previousFlakedRuns: 0,
    sameConditionPairs: [],
    ...rest,
  };
}
const failedRun = (over: Partial<FailedRun> = {}): FailedRun => ({ installFailed: false, failedTests: 1, ...over });

describe('step change', () => {
  it('finds the bucket where the rate rose and stayed up', () => {
    const runs = Array(56).fill(6);
    const failed = runs.map((_, i) => (i >= 40 ? 4 : 0));
    const change = findStepChange({ runsPerBucket: runs, failedPerBucket: failed })!;
    expect(change.bucket).toBe(40);
    expect(change.before).toEqual({ failed: 0, runs: 240 });
    expect(change.after).toEqual({ failed: 64, runs: 96 });
  });
  it('sees no step in a steady 5% rate, nor in a burst that went away', () => {
    const runs = Array(56).fill(20);
    expect(findStepChange({ runsPerBucket: runs, failedPerBucket: runs.map((_, i) => (i % 2 ? 1 : 1)) })).toBeUndefined();
    const burst = runs.map((_, i) => (i >= 20 && i < 26 ? 15 : 0));
    expect(findStepChange({ runsPerBucket: runs, failedPerBucket: burst })).toBeUndefined();
  });
  it('needs history before the change: a test new in the window is not a regression', () => {
    const runs = [...Array(28).fill(0), ...Array(28).fill(5)];
    const failed = [...Array(28).fill(0), ...Array(28).fill(2)];
    expect(findStepChange({ runsPerBucket: runs, failedPerBucket: failed })).toBeUndefined();
  });
});

describe('classify', () => {
  const steady = { runs: Array(56).fill(10), failed: Array(56).fill(0) };
  it('infra when most failures come with install failures or mass failures', () => {
    const v = classify(input({ ...steady, failedRuns: [failedRun({ installFailed: true }), failedRun({ failedTests: 80 }), failedRun({ failedTests: 2 })] }));
    expect(v.classification).toBe('infra');
    expect(v.evidence).toMatchObject({ withInstallFailure: 1, withMassFailure: 1, failedRuns: 3 });
  });
  it('infra for an install step test itself', () => {
    expect(classify(input({ ...steady, test: 'install should succeed: infrastructure', failedRuns: [failedRun()] })).classification).toBe('infra');
  });
  it('broken when a job fails at least 90% of its runs', () => {
    const v = classify(input({ ...steady, perJob: [{ job: 'job-azure', runs: 20, failed: 19, flaked: 0 }, { job: 'job-aws', runs: 20, failed: 0, flaked: 0 }], failedRuns: [failedRun()] }));
    expect(v.classification).toBe('broken');
    expect(v.evidence.jobs).toEqual([{ job: 'job-azure', failed: 19, runs: 20, failureRate: 0.95 }]);
    expect(v.evidence.summary).toContain('95.0% (19/20) of job-azure runs');
  });
  it('regression with the change time, before/after and a p-value', () => {
    const failed = steady.runs.map((_, i) => (i >= 36 ? 5 : 0));
    const v = classify(input({ runs: steady.runs, failed, failedRuns: [failedRun()] }));
    expect(v.classification).toBe('regression');
    expect(v.changeBucket).toBe(36);
    expect(v.evidence.changeAt).toBe(new Date((start + 36 * 21_600) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(v.evidence.pValue).toBeLessThan(1e-10);
  });
  it('flaky when it failed then passed in one run, or on the same job and payload', () => {
    const failed = steady.runs.map((_, i) => (i % 9 === 0 ? 1 : 0));
    expect(classify(input({ runs: steady.runs, failed, failedRuns: [failedRun()], flakedRuns: 3 })).classification).toBe('flaky');
    const pairs = [{ job: 'job-a', on: 'payload' as const, value: '4.2.0-0.nightly-x', failed: '1', passed: '2' }];
    const v = classify(input({ runs: steady.runs, failed, failedRuns: [failedRun()], sameConditionPairs: pairs }));
    expect(v.classification).toBe('flaky');
    expect(v.evidence.summary).toContain('same job and payload 1 times');
  });
  it('failing when none of the above', () => {
    const failed = steady.runs.map((_, i) => (i % 9 === 0 ? 1 : 0));
    expect(classify(input({ runs: steady.runs, failed, failedRuns: [failedRun()] })).classification).toBe('failing');
  });
});

describe('what changed', () => {
  it('names the payload and commit that differ from the run before', () => {
    const first = { job: 'j', buildId: '2', url: 'u2', started: start, payload: 'p2', commit: 'c2' };
    const prev = { job: 'j', buildId: '1', url: 'u1', started: start - 100, payload: 'p1', commit: 'c2' };
    expect(describeChange(first, prev)).toMatchObject({ payloadChanged: { from: 'p1', to: 'p2' }, previousRun: { buildId: '1' } });
    expect(describeChange(first, prev)).not.toHaveProperty('commitChanged');
  });
});
