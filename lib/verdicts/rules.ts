// Flake or regression? The verdict on a test at a time `at` and the evidence behind it, judged on a
// fixed lookback (lookback.ts) and never on the window a page shows. Pure: the caller gathers the
// numbers (testHistory.ts); tests feed them directly. In order:
//   infra       its failures came with broken runs (install or setup failed, or a mass failure), and it
//               does not fail outside them
//   regression  in some slice (release, platform, upgrade; or a job) its failure rate rose at a change
//               point and stayed up; retries that passed count as failures
//   broken      it fails (nearly) every run of some job, or the latest 3+ runs of a job after passing
//   fixed       it failed, then has not failed for more clean runs than its old rate makes plausible
//   flaky       it failed then passed in one run, or failed and passed on the same job and payload/commit
//   failing     none of these
// Failures in broken runs say nothing about the test itself: every rule after infra counts the
// healthy runs only.
import { fisherGreater } from './fisher';
import { bucketStart, type Lookback } from './lookback';
import { atSplit, bestRise, bestRiseIn, chanceOfCleanRuns, STEP, type Split } from './stepChange';
import type { Classification } from './verdict';
import { addInto, sum, zeros } from '../history/series';
import { jobSums, slicesOf, type Slice, type Slices } from './slices';
import { MASS_FAILURE_TESTS } from '../store/rollups';

export const RULES = {
  /** a run with this many failed tests is a mass failure (as the rollups count broken runs) */
  massFailureTests: MASS_FAILURE_TESTS,
  /** infra: at most this many failures outside broken runs */
  infraMaxOutside: 1,
  /** broken: this share of a job's runs fail ... */
  brokenRate: 0.9,
  /** ... and the job ran the test at least this often; a streak is at least this long too */
  brokenMinRuns: 3,
  /** a job slice of its own needs this many runs in the lookback */
  jobSliceMinRuns: 10,
  /** fixed: at least this many failures before the last one's clean runs ... */
  fixedMinFailures: 3,
  /** ... whose chance at the old rate is below this */
  fixedChance: 0.001,
  /** flake trend: the last 7 days against the 7 before, one-sided Fisher below this, and 1.5x */
  trendPValue: 0.05,
} as const;

export interface JobSeries {
  job: string;
  release?: string;
  platform?: string;
  upgrade: boolean;
  /** per lookback bucket: healthy runs of the job that executed the test, its hard failures and its flakes there */
  runs: ArrayLike<number>;
  failed: ArrayLike<number>;
  flaked: ArrayLike<number>;
  /** the test's outcome in the job's latest healthy runs that executed it, newest first: 0 passed, 1 failed, 2 flaked */
  latest: readonly number[];
}

export interface SameConditionPair {
  job: string;
  on: 'payload' | 'commit';
  value: string;
  failed: string;
  passed: string;
}

export interface TestHistory {
  test: string;
  lookback: Lookback;
  jobs: JobSeries[];
  /** the test's failures (failed or flaked) in broken runs: whose install or setup failed, or mass failures */
  broken: { install: number; mass: number; failedTestsPerRun: number[] };
  /** the latest failure or flake in a healthy run, and the healthy runs that executed the test after it */
  lastFailure?: { started: number; runsSince: number };
  /** the test's first failure or flake in all stored history (Unix seconds) */
  firstSeen?: number;
  sameConditionPairs: SameConditionPair[];
}

export interface SliceEvidence {
  release: string;
  platform: string;
  upgrade: boolean;
  job?: string;
  runsBefore: number;
  failedBefore: number;
  runsAfter: number;
  failedAfter: number;
  pValue: number;
  changed: boolean;
  /** rose; steady (enough runs after, no rise); or unclear (too few runs after, or a rise too small to tell) */
  status: 'rose' | 'steady' | 'unclear';
}

/** A job's slice where the regression did not rise: what the hot list counts and the test page folds. */
export const isUnchangedJobSlice = (s: { job?: unknown; changed?: unknown }): boolean => Boolean(s.job) && !s.changed;

export interface Verdict {
  classification: Classification;
  evidence: Record<string, unknown> & { summary: string };
  /** what the caller fills in from the runs themselves (first failing run, the run that fixed it...) */
  needs?: { changeAt?: number; changedJobs?: string[]; streakJobs?: string[]; fixedAfter?: number };
}

const pct = (f: number, n: number) => (n ? `${((100 * f) / n).toFixed(1)}%` : 'n/a');
const rate = (f: number, n: number) => (n ? Math.round((f / n) * 10000) / 10000 : 0);
const fmtP = (p: number) => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2));
const iso = (s: number): string => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

type Totals = { runs: number; failed: number; flaked: number };

// The loops over a history's 800 jobs live in small functions of their own, out of judge(): in a new
// process V8 optimizes a function whose loops run hot, and optimizing all of judge() took 185 ms of a
// CLI call's CPU (indexed loops: unoptimized, each step of a for-of is an object made).

function totalsOf(h: TestHistory): Totals {
  const sums = jobSums(h);
  const totals = { runs: 0, failed: 0, flaked: 0 };
  for (let i = 0; i < h.jobs.length; i++) {
    totals.runs += sums.runs[i];
    totals.failed += sums.failed[i];
    totals.flaked += sums.flaked[i];
  }
  return totals;
}

/** Jobs where the test fails (nearly) every run, or its latest runs after passing there. */
function brokenJobsOf(h: TestHistory, streaks: { job: string; length: number }[]): { j: JobSeries; runs: number; failed: number; streak: number }[] {
  const streakOf = new Map(streaks.map((s) => [s.job, s.length]));
  const sums = jobSums(h);
  const out: { j: JobSeries; runs: number; failed: number; streak: number }[] = [];
  for (let i = 0; i < h.jobs.length; i++) {
    const j = h.jobs[i];
    const runs = sums.runs[i];
    const failed = sums.failed[i];
    const streak = streakOf.get(j.job) ?? 0;
    if ((runs >= RULES.brokenMinRuns && failed / runs >= RULES.brokenRate) || streak >= RULES.brokenMinRuns) out.push({ j, runs, failed, streak });
  }
  return out;
}

type Counts = { failedRuns: number; flakedRuns: number; runs: number; lookbackFrom: string };

/**
 * Histories judged flaky or failing, with what that step reads: the evidence's pairs, read for those
 * verdicts only, send them back to judge, and no rule before that step reads the pairs.
 */
const pastTheRises = new WeakMap<TestHistory, { totals: Totals; counts: Counts; severity: FlakeSeverity }>();

export function judge(h: TestHistory): Verdict {
  const known = pastTheRises.get(h);
  if (known) return flakyOrFailing(h, known.totals, known.counts, known.severity);
  const totals = totalsOf(h);
  const outside = totals.failed + totals.flaked;
  const inBroken = h.broken.install + h.broken.mass;
  const counts = { failedRuns: totals.failed, flakedRuns: totals.flaked, runs: totals.runs, lookbackFrom: iso(h.lookback.from) };

  // infra: the failures are the broken runs', not the test's
  if (inBroken > 0 && outside <= RULES.infraMaxOutside && inBroken > outside) return infraVerdict(h, totals, counts, inBroken, outside);

  // regression: the most significant rise of any slice, then every slice judged at that split
  const slices = slicesOf(h, RULES.jobSliceMinRuns);
  const streaks = currentStreaks(h);
  const best = mostSignificantRise(slices);
  if (best) return regressionVerdict(h, slices, best, streaks, counts);

  // broken: (nearly) every run of a job, or every one of its latest runs after passing there
  const brokenJobs = brokenJobsOf(h, streaks);
  if (brokenJobs.length) return brokenVerdict(brokenJobs, counts);

  // fixed: clean since its last failure, for longer than its old rate makes plausible
  const fixed = h.lastFailure && outside >= RULES.fixedMinFailures ? fixedVerdict(h.lastFailure, totals, outside, counts) : undefined;
  if (fixed) return fixed;

  const severity = flakeSeverity(h);
  pastTheRises.set(h, { totals, counts, severity });
  return flakyOrFailing(h, totals, counts, severity);
}

// Each rule's verdict is made in a function of its own: judge() stays small, which V8 optimizes at a
// fraction of the cost of all the rules' evidence together (a CLI call's 100 verdicts made V8 spend
// 150-185 ms of CPU optimizing one large judge()).

function infraVerdict(h: TestHistory, totals: Totals, counts: Counts, inBroken: number, outside: number): Verdict {
  const co = [...h.broken.failedTestsPerRun].sort((a, b) => a - b);
  const median = co.length ? co[Math.floor(co.length / 2)] : 0;
  return {
    classification: 'infra',
    evidence: {
      summary: `${inBroken} of its ${inBroken + outside} failures in the last 14 days came in broken runs: the install or setup failed (${h.broken.install}) or ${RULES.massFailureTests}+ tests failed together (${h.broken.mass}, median ${median} tests); ${outside ? 'once' : 'never'} outside them`,
      failedRuns: inBroken,
      withInstallFailure: h.broken.install,
      withMassFailure: h.broken.mass,
      outsideBrokenRuns: outside,
      medianFailedTestsPerRun: median,
      massFailureThreshold: RULES.massFailureTests,
      runs: totals.runs,
      lookbackFrom: counts.lookbackFrom,
    },
  };
}

/** A rise found: in a variant's slice, or in a job's (whose slice is made with the others' for the evidence). */
interface Rise {
  slice?: Slice;
  job?: JobSeries;
  split: Split;
}

/** The most significant rise of any slice, the first in the slices' order of those as significant. */
function mostSignificantRise(slices: Slices): Rise | undefined {
  let best: Rise | undefined;
  for (let i = 0; i < slices.variants.length; i++) {
    const split = bestRise(slices.variants[i].series);
    if (split && (!best || split.pValue < best.split.pValue)) best = { slice: slices.variants[i], split };
  }
  for (let i = 0; i < slices.searchedJobs.length; i++) {
    const j = slices.searchedJobs[i];
    const split = bestRiseIn(j.runs, j.failed, j.flaked);
    if (split && (!best || split.pValue < best.split.pValue)) best = { job: j, split };
  }
  return best;
}

function regressionVerdict(h: TestHistory, slices: Slices, best: Rise, streaks: { job: string; length: number }[], counts: Counts): Verdict {
  const k = best.split.bucket;
  const judged = slices.all().map((s) => ({ s, at: atSplit(s.series, k) })).filter(({ at }) => at.runsBefore + at.runsAfter > 0);
  const statusOf = (s: Slice, at: ReturnType<typeof atSplit>): SliceEvidence['status'] =>
    at.changed || (best.slice ? s === best.slice : s.job === best.job!.job) ? 'rose' : at.runsAfter < STEP.minRunsAfter || (at.failedAfter > 0 && at.failedAfter / at.runsAfter > (at.runsBefore ? at.failedBefore / at.runsBefore : 0)) ? 'unclear' : 'steady';
  const rows = judged.map(({ s, at }) => ({ s, at, status: statusOf(s, at) }));
  const evidenceSlices: SliceEvidence[] = rows.map(({ s, at, status }) => ({
    release: s.release, platform: s.platform, upgrade: s.upgrade, ...(s.job ? { job: s.job } : {}),
    runsBefore: at.runsBefore, failedBefore: at.failedBefore, runsAfter: at.runsAfter, failedAfter: at.failedAfter, pValue: at.pValue, changed: status === 'rose', status,
  }));
  const variantRows = rows.filter(({ s }) => !s.job);
  const changedVariants = variantRows.filter((r) => r.status === 'rose');
  const unchanged = variantRows.filter((r) => r.status === 'steady');
  const unclear = variantRows.filter((r) => r.status === 'unclear');
  const before = { failed: sum(changedVariants.map((c) => c.at.failedBefore)), runs: sum(changedVariants.map((c) => c.at.runsBefore)) };
  const after = { failed: sum(changedVariants.map((c) => c.at.failedAfter)), runs: sum(changedVariants.map((c) => c.at.runsAfter)) };
  const pValue = fisherGreater(before.failed, before.runs, after.failed, after.runs);
  const changeAt = bucketStart(h.lookback, k);
  const changedJobs = evidenceSlices.filter((s) => s.job && s.changed).map((s) => s.job!);
  const jobs = changedJobs.length > 3 ? `${changedJobs.slice(0, 3).join(', ')} and ${changedJobs.length - 3} more jobs` : changedJobs.join(', ');
  const where = `in ${changedVariants.map(({ s }) => s.label).join(', ')}${jobs ? ` (${jobs})` : ''}${unchanged.length ? `; not in ${unchanged.map(({ s }) => s.label).join(', ')}` : ''}${unclear.length ? `; too few runs to tell in ${unclear.map(({ s }) => s.label).join(', ')}` : ''}`;
  return {
    classification: 'regression',
    evidence: {
      summary: `failure rate rose from ${pct(before.failed, before.runs)} (${before.failed}/${before.runs}) to ${pct(after.failed, after.runs)} (${after.failed}/${after.runs}) around ${iso(changeAt)} and stayed up, ${where}; p = ${fmtP(pValue)} (Fisher's exact test, one-sided; retries that passed count as failures)`,
      changeAt: iso(changeAt),
      before: { ...before, failureRate: rate(before.failed, before.runs) },
      after: { ...after, failureRate: rate(after.failed, after.runs) },
      pValue,
      slices: evidenceSlices,
      changedIn: changedVariants.map(({ s }) => s.label),
      notChangedIn: unchanged.map(({ s }) => s.label),
      unclearIn: unclear.map(({ s }) => s.label),
      ...(streaks.length ? { streaks: streaks.map((s) => ({ job: s.job, failedLatestRuns: s.length })) } : {}),
      ...counts,
    },
    needs: { changeAt, changedJobs: changedJobs.length ? changedJobs : changedVariants.flatMap(({ s }) => s.jobs) },
  };
}

function brokenVerdict(brokenJobs: { j: JobSeries; runs: number; failed: number; streak: number }[], counts: Counts): Verdict {
  const jobs = brokenJobs.map(({ j, runs, failed, streak }) => ({ job: j.job, failed, runs, failureRate: rate(failed, runs), ...(streak ? { failedLatestRuns: streak } : {}) }));
  return {
    classification: 'broken',
    evidence: {
      summary: `fails ${jobs.map((j) => (j.failureRate >= RULES.brokenRate ? `${pct(j.failed, j.runs)} (${j.failed}/${j.runs}) of ${j.job} runs` : `the latest ${j.failedLatestRuns} runs of ${j.job}, after passing there (${j.failed}/${j.runs} in 14 days)`)).join('; ')}`,
      jobs,
      threshold: RULES.brokenRate,
      ...counts,
    },
    needs: { streakJobs: jobs.filter((j) => j.failedLatestRuns).map((j) => j.job) },
  };
}

function fixedVerdict(lastFailure: NonNullable<TestHistory['lastFailure']>, totals: Totals, outside: number, counts: Counts): Verdict | undefined {
  const runsBefore = totals.runs - lastFailure.runsSince;
  const chance = chanceOfCleanRuns(outside, runsBefore, lastFailure.runsSince);
  if (chance >= RULES.fixedChance) return undefined;
  return {
    classification: 'fixed',
    evidence: {
      summary: `has not failed in the ${lastFailure.runsSince} runs since ${iso(lastFailure.started)}; it failed in ${pct(outside, runsBefore)} (${outside}/${runsBefore}) of runs before, at which rate that many clean runs had a ${fmtP(chance)} chance`,
      lastFailure: iso(lastFailure.started),
      cleanRuns: lastFailure.runsSince,
      failedBefore: outside,
      runsBefore,
      oldFailureRate: rate(outside, runsBefore),
      chanceAtOldRate: chance,
      ...counts,
    },
    needs: { fixedAfter: lastFailure.started },
  };
}

/** The last rules: flaky (retries that passed, or a pass under the same condition), else failing. */
function flakyOrFailing(h: TestHistory, totals: Totals, counts: Counts, severity: FlakeSeverity): Verdict {
  if (totals.flaked > 0 || h.sameConditionPairs.length > 0) {
    const parts = [];
    if (totals.flaked) parts.push(`failed then passed on retry in the same run ${totals.flaked} times`);
    if (h.sameConditionPairs.length) parts.push(`failed and passed on the same job and ${h.sameConditionPairs[0].on} ${h.sameConditionPairs.length} times`);
    return {
      classification: 'flaky',
      evidence: {
        summary: `${parts.join('; ')} in the last 14 days; ${totals.failed} hard failures in ${totals.runs} runs, on ${severity.daysWithFailure} of 14 days, trend ${severity.trend}${h.firstSeen !== undefined ? `; first seen ${iso(h.firstSeen)}` : ''}`,
        sameConditionPairs: h.sameConditionPairs.slice(0, 5),
        sameConditionCount: h.sameConditionPairs.length,
        failureRate: rate(totals.failed + totals.flaked, totals.runs),
        severity,
        ...counts,
      },
    };
  }

  return {
    classification: 'failing',
    evidence: {
      summary: `failed ${totals.failed} of ${totals.runs} runs (${pct(totals.failed, totals.runs)}) in the last 14 days, on ${severity.daysWithFailure} days, trend ${severity.trend}; no retry passes, no change point, no job at ${100 * RULES.brokenRate}%`,
      failureRate: rate(totals.failed, totals.runs),
      severity,
      ...counts,
    },
  };
}

/** Jobs whose latest runs all failed the test (hard failures), after it passed there. */
function currentStreaks(h: TestHistory): { job: string; length: number }[] {
  const sums = jobSums(h);
  const out: { job: string; length: number }[] = [];
  for (let i = 0; i < h.jobs.length; i++) {
    const j = h.jobs[i];
    let n = 0;
    while (n < j.latest.length && j.latest[n] === 1) n++;
    const passedBefore = j.latest.indexOf(0, n) >= 0 || (n === j.latest.length && sums.runs[i] > n && sums.failed[i] < sums.runs[i]);
    if (n >= RULES.brokenMinRuns && passedBefore) out.push({ job: j.job, length: n });
  }
  return out;
}

export interface FlakeSeverity {
  /** first failure or flake in all stored history */
  firstSeen: string | null;
  /** days of the lookback with a failure or flake */
  daysWithFailure: number;
  failedRuns: number;
  flakedRuns: number;
  /** the last 7 days against the 7 before */
  trend: 'rising' | 'steady' | 'falling';
  recentRate: number;
  basisRate: number;
  /** for sorting: failed and flaked runs of the lookback, weighed by how many of its days they fell on */
  score: number;
}

/** How long and how much a test fails: days with a failure, counts, and the trend against the basis. */
export function flakeSeverity(h: TestHistory): FlakeSeverity {
  const n = h.lookback.buckets;
  // runs and failures per bucket over all jobs: the variant slices' summed (30-odd, not 800 jobs)
  const runs = zeros(n);
  const fails = zeros(n);
  const { variants } = slicesOf(h, RULES.jobSliceMinRuns);
  for (let i = 0; i < variants.length; i++) {
    addInto(runs, variants[i].series.runs);
    addInto(fails, variants[i].series.failed);
  }
  const { failed, flaked } = totalsOf(h);
  const perDay = 86_400 / (bucketStart(h.lookback, 1) - bucketStart(h.lookback, 0));
  const days = new Set<number>();
  for (let b = 0; b < n; b++) if (fails[b] > 0) days.add(Math.floor((h.lookback.firstCell + b) / perDay));
  const half = Math.floor(n / 2);
  const r0 = sum(runs, 0, half);
  const f0 = sum(fails, 0, half);
  const r1 = sum(runs, half);
  const f1 = sum(fails, half);
  const basisRate = r0 ? f0 / r0 : 0;
  const recentRate = r1 ? f1 / r1 : 0;
  let trend: FlakeSeverity['trend'] = 'steady';
  if (r0 && r1 && recentRate >= 1.5 * basisRate && fisherGreater(f0, r0, f1, r1) < RULES.trendPValue) trend = 'rising';
  else if (r0 && r1 && basisRate >= 1.5 * recentRate && fisherGreater(f1, r1, f0, r0) < RULES.trendPValue) trend = 'falling';
  return {
    firstSeen: h.firstSeen !== undefined ? iso(h.firstSeen) : null,
    daysWithFailure: days.size,
    failedRuns: failed,
    flakedRuns: flaked,
    trend,
    recentRate: Math.round(recentRate * 10000) / 10000,
    basisRate: Math.round(basisRate * 10000) / 10000,
    score: Math.round((failed + flaked) * (days.size / 14) * 100) / 100,
  };
}
