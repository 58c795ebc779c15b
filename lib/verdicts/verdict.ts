// Flake or regression? The verdict on a test and the evidence behind it, from plain numbers.
// Pure: the caller gathers the counts (testStats.ts); tests feed it directly.
import { INSTALL_OR_SETUP_TEST } from '../parse/variants';
import { fisherGreater } from './fisher';
import { iso } from '../history/window';

export type Classification = 'flaky' | 'regression' | 'broken' | 'infra' | 'failing';

export interface RunRef {
  job: string;
  buildId: string;
  url: string;
  started: number;
  payload: string;
  commit: string;
}

/** What the verdict needs of a failed run: whether it came with a broken cluster. */
export interface FailedRun {
  installFailed: boolean;
  /** tests that failed in the run (this one included) */
  failedTests: number;
}

export interface VerdictInput {
  test: string;
  bucketStarts: number[];
  /** per bucket over [prevFrom, to): runs executing the test, failed runs, flaked runs */
  runsPerBucket: ArrayLike<number>;
  failedPerBucket: ArrayLike<number>;
  /** index of the first bucket of the window (the ones before are the previous window) */
  windowStartBucket: number;
  /** window only */
  perJob: { job: string; runs: number; failed: number; flaked: number }[];
  failedRuns: FailedRun[];
  flakedRuns: number;
  previousFlakedRuns: number;
  /** the same job and commit or payload both failed and passed the test */
  sameConditionPairs: { job: string; on: 'payload' | 'commit'; value: string; failed: string; passed: string }[];
}

export interface Verdict {
  classification: Classification;
  evidence: Record<string, unknown> & { summary: string };
  /** bucket index of the change, for regressions */
  changeBucket?: number;
}

export const THRESHOLDS = {
  /** broken: this share of a job's runs in the window fail ... */
  brokenRate: 0.9,
  /** ... and the job ran the test at least this often */
  brokenMinRuns: 3,
  /** a failure "comes with" a broken run when install/setup failed or this many tests failed with it */
  massFailureTests: 20,
  /** infra: at least this share of the failed runs are such runs */
  infraShare: 0.5,
  /** regression: p-value of the best split (one-sided Fisher) must be below this */
  regressionP: 0.001,
  regressionMinRunsBefore: 10,
  regressionMinRunsAfter: 5,
  regressionMinFailedAfter: 3,
} as const;

const pct = (f: number, n: number) => (n ? `${((100 * f) / n).toFixed(1)}%` : 'n/a');
const rate = (f: number, n: number) => (n ? Math.round((f / n) * 10000) / 10000 : 0);
const fmtP = (p: number) => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));


/** The split of the bucket series where the failure rate rose most significantly, if it did and stayed up. */
export function findStepChange(input: Pick<VerdictInput, 'runsPerBucket' | 'failedPerBucket'>): {
  bucket: number;
  before: { failed: number; runs: number };
  after: { failed: number; runs: number };
  pValue: number;
} | undefined {
  const { runsPerBucket: runs, failedPerBucket: failed } = input;
  const n = runs.length;
  let totalRuns = 0;
  let totalFailed = 0;
  for (let i = 0; i < n; i++) {
    totalRuns += runs[i];
    totalFailed += failed[i];
  }
  let best: ReturnType<typeof findStepChange>;
  let runsBefore = 0;
  let failedBefore = 0;
  for (let k = 1; k < n; k++) {
    runsBefore += runs[k - 1];
    failedBefore += failed[k - 1];
    if (failed[k] === 0) continue; // a change starts with a failure
    const runsAfter = totalRuns - runsBefore;
    const failedAfter = totalFailed - failedBefore;
    if (runsBefore < THRESHOLDS.regressionMinRunsBefore || runsAfter < THRESHOLDS.regressionMinRunsAfter) continue;
    if (failedAfter < THRESHOLDS.regressionMinFailedAfter) continue;
    const rb = failedBefore / runsBefore;
    const ra = failedAfter / runsAfter;
    if (ra < Math.max(2 * rb, rb + 0.1)) continue;
    const p = fisherGreater(failedBefore, runsBefore, failedAfter, runsAfter);
    if (!best || p < best.pValue) best = { bucket: k, before: { failed: failedBefore, runs: runsBefore }, after: { failed: failedAfter, runs: runsAfter }, pValue: p };
  }
  if (!best || best.pValue >= THRESHOLDS.regressionP) return undefined;
  // "Stayed up": the later half of the after-segment still fails at half the after-rate or more.
  const afterRate = best.after.failed / best.after.runs;
  let r = 0;
  let f = 0;
  for (let i = n - 1; i >= best.bucket && r < best.after.runs / 2; i--) {
    r += runs[i];
    f += failed[i];
  }
  if (r > 0 && f / r < afterRate / 2) return undefined;
  return best;
}

export function classify(input: VerdictInput): Verdict {
  const windowFailed = input.failedRuns.length;
  const windowRuns = input.perJob.reduce((s, j) => s + j.runs, 0);

  // infra: the failures come with broken clusters rather than with this test.
  const install = input.failedRuns.filter((r) => r.installFailed).length;
  const mass = input.failedRuns.filter((r) => !r.installFailed && r.failedTests >= THRESHOLDS.massFailureTests).length;
  const isSetupTest = INSTALL_OR_SETUP_TEST.test(input.test);
  if (windowFailed > 0 && (isSetupTest || (windowFailed >= 2 && (install + mass) / windowFailed >= THRESHOLDS.infraShare))) {
    const co = input.failedRuns.map((r) => r.failedTests).sort((a, b) => a - b);
    const median = co.length ? co[Math.floor(co.length / 2)] : 0;
    return {
      classification: 'infra',
      evidence: {
        summary: isSetupTest
          ? `an install or setup step: it failed in ${windowFailed} runs, where the cluster under test did not come up`
          : `${install + mass} of ${windowFailed} failures came in runs where the install or setup failed (${install}) or ${THRESHOLDS.massFailureTests}+ tests failed together (${mass}); median ${median} tests failed in those runs`,
        failedRuns: windowFailed,
        withInstallFailure: install,
        withMassFailure: mass,
        medianFailedTestsPerRun: median,
        massFailureThreshold: THRESHOLDS.massFailureTests,
      },
    };
  }

  // broken: fails (nearly) every run of some job.
  const brokenJobs = input.perJob
    .filter((j) => j.runs >= THRESHOLDS.brokenMinRuns && j.failed / j.runs >= THRESHOLDS.brokenRate)
    .map((j) => ({ job: j.job, failed: j.failed, runs: j.runs, failureRate: rate(j.failed, j.runs) }));
  if (brokenJobs.length) {
    return {
      classification: 'broken',
      evidence: {
        summary: `fails in ${brokenJobs.map((j) => `${pct(j.failed, j.runs)} (${j.failed}/${j.runs}) of ${j.job} runs`).join('; ')}`,
        jobs: brokenJobs,
        threshold: THRESHOLDS.brokenRate,
      },
    };
  }

  const change = findStepChange(input);
  if (change) {
    const changeAt = input.bucketStarts[change.bucket];
    return {
      classification: 'regression',
      changeBucket: change.bucket,
      evidence: {
        summary: `failure rate rose from ${pct(change.before.failed, change.before.runs)} (${change.before.failed}/${change.before.runs}) to ${pct(change.after.failed, change.after.runs)} (${change.after.failed}/${change.after.runs}) around ${iso(changeAt)} and stayed up; p = ${fmtP(change.pValue)} (Fisher's exact test, one-sided)`,
        changeAt: iso(changeAt),
        before: { ...change.before, failureRate: rate(change.before.failed, change.before.runs) },
        after: { ...change.after, failureRate: rate(change.after.failed, change.after.runs) },
        pValue: change.pValue,
      },
    };
  }

  const totalRuns = sum(input.runsPerBucket);
  const totalFailed = sum(input.failedPerBucket);
  const flakes = input.flakedRuns + input.previousFlakedRuns;
  if (flakes > 0 || input.sameConditionPairs.length > 0) {
    const parts = [];
    if (input.flakedRuns) parts.push(`failed then passed on retry in the same run ${input.flakedRuns} times in the window`);
    if (input.sameConditionPairs.length) parts.push(`failed and passed on the same job and ${input.sameConditionPairs[0].on} ${input.sameConditionPairs.length} times`);
    if (!parts.length) parts.push(`failed then passed on retry ${input.previousFlakedRuns} times in the window before`);
    return {
      classification: 'flaky',
      evidence: {
        summary: `${parts.join('; ')}; ${totalFailed} hard failures in ${totalRuns} runs over both windows, no step change in the failure rate`,
        flakedRuns: input.flakedRuns,
        previousFlakedRuns: input.previousFlakedRuns,
        failedRuns: windowFailed,
        runs: windowRuns,
        sameConditionPairs: input.sameConditionPairs.slice(0, 5),
        sameConditionCount: input.sameConditionPairs.length,
        failureRateBothWindows: rate(totalFailed, totalRuns),
      },
    };
  }

  const before = prefix(input.failedPerBucket, input.runsPerBucket, input.windowStartBucket);
  return {
    classification: 'failing',
    evidence: {
      summary: `failed ${windowFailed} of ${windowRuns} runs (${pct(windowFailed, windowRuns)}) in the window, ${before.failed} of ${before.runs} (${pct(before.failed, before.runs)}) before; no retry passes, no step change, no job at ${100 * THRESHOLDS.brokenRate}%`,
      failedRuns: windowFailed,
      runs: windowRuns,
      before,
    },
  };
}

function sum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}

function prefix(failed: ArrayLike<number>, runs: ArrayLike<number>, end: number): { failed: number; runs: number } {
  let f = 0;
  let r = 0;
  for (let i = 0; i < end; i++) {
    f += failed[i];
    r += runs[i];
  }
  return { failed: f, runs: r };
}

/** What changed in the first failing run after a step change, compared with the run of the same job before it. */
export function describeChange(first: RunRef, previous: RunRef | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { firstFailingRun: { ...first, started: iso(first.started) } };
  if (!previous) return out;
  out.previousRun = { job: previous.job, buildId: previous.buildId, url: previous.url, started: iso(previous.started) };
  if (first.payload && previous.payload && first.payload !== previous.payload) out.payloadChanged = { from: previous.payload, to: first.payload };
  if (first.commit && previous.commit && first.commit !== previous.commit) out.commitChanged = { from: previous.commit, to: first.commit };
  return out;
}
