// Where a failure rate changed: the split of a bucket series at which the rate after is most
// significantly higher than before (one-sided Fisher), and the same split judged on every slice.
import { fisherGreater } from './fisher';
import { sum } from '../history/series';

export interface Series {
  runs: ArrayLike<number>;
  /** failures: hard failures and retries that passed alike (a regression rarely fails every attempt) */
  failed: ArrayLike<number>;
}

export interface Split {
  bucket: number;
  runsBefore: number;
  failedBefore: number;
  runsAfter: number;
  failedAfter: number;
  pValue: number;
}

export const STEP = {
  /** the best split must be this significant */
  pValue: 0.001,
  minRunsBefore: 10,
  minRunsAfter: 5,
  minFailedAfter: 3,
  /** a slice "changed" at an established split with this much evidence of its own */
  slicePValue: 0.01,
  sliceMinFailedAfter: 2,
  sliceMinRunsAfter: 3,
} as const;

/** The rate after is at least double the rate before, and 10 points above it. */
const rose = (fb: number, rb: number, fa: number, ra: number): boolean => {
  const before = rb ? fb / rb : 0;
  const after = fa / ra;
  return after >= Math.max(2 * before, before + 0.1);
};

/** No more failures: the series' own are all. */
const NONE: ArrayLike<number> = { length: 0 };

/**
 * The split where the failure rate rose most significantly and stayed up (the later half of the
 * runs after it still fail at half the rate or more), if one passes the thresholds.
 */
export function bestRise(s: Series): Split | undefined {
  return bestRiseIn(s.runs, s.failed);
}

/**
 * bestRise of the series (runs, failed) with no object made for it. `more`: failures counted with
 * `failed`, bucket by bucket (a job's flakes beside its hard failures, searched without a series of
 * their sum made for each of a test's jobs).
 */
export function bestRiseIn(runs: ArrayLike<number>, failed: ArrayLike<number>, more: ArrayLike<number> = NONE): Split | undefined {
  const n = runs.length;
  const failedAt = (k: number) => failed[k] + (k < more.length ? more[k] : 0);
  const totalRuns = sum(runs);
  const totalFailed = sum(failed) + sum(more);
  if (totalFailed < STEP.minFailedAfter) return undefined;
  let best: Split | undefined;
  let runsBefore = 0;
  let failedBefore = 0;
  for (let k = 1; k < n; k++) {
    runsBefore += runs[k - 1];
    failedBefore += failedAt(k - 1);
    if (failedAt(k) === 0) continue; // a change starts with a failure
    const runsAfter = totalRuns - runsBefore;
    const failedAfter = totalFailed - failedBefore;
    if (runsBefore < STEP.minRunsBefore || runsAfter < STEP.minRunsAfter || failedAfter < STEP.minFailedAfter) continue;
    if (!rose(failedBefore, runsBefore, failedAfter, runsAfter)) continue;
    const p = fisherGreater(failedBefore, runsBefore, failedAfter, runsAfter);
    if (!best || p < best.pValue) best = { bucket: k, runsBefore, failedBefore, runsAfter, failedAfter, pValue: p };
  }
  if (!best || best.pValue >= STEP.pValue) return undefined;
  return stayedUp(runs, failedAt, best) ? best : undefined;
}

function stayedUp(runs: ArrayLike<number>, failedAt: (k: number) => number, split: Split): boolean {
  const afterRate = split.failedAfter / split.runsAfter;
  let r = 0;
  let f = 0;
  for (let i = runs.length - 1; i >= split.bucket && r < split.runsAfter / 2; i--) {
    r += runs[i];
    f += failedAt(i);
  }
  return !(r > 0 && f / r < afterRate / 2);
}

/** A series judged at a split found elsewhere: its counts either side, and whether it rose there too. */
export function atSplit(s: Series, bucket: number): Split & { changed: boolean } {
  const runsBefore = sum(s.runs, 0, bucket);
  const failedBefore = sum(s.failed, 0, bucket);
  const runsAfter = sum(s.runs, bucket);
  const failedAfter = sum(s.failed, bucket);
  const pValue = runsAfter ? fisherGreater(failedBefore, runsBefore, failedAfter, runsAfter) : 1;
  const changed =
    runsAfter >= STEP.sliceMinRunsAfter && failedAfter >= STEP.sliceMinFailedAfter && rose(failedBefore, runsBefore, failedAfter, runsAfter) && pValue < STEP.slicePValue;
  return { bucket, runsBefore, failedBefore, runsAfter, failedAfter, pValue, changed };
}

/** The chance of `cleanRuns` runs in a row without a failure at the rate seen before them. */
export function chanceOfCleanRuns(failedBefore: number, runsBefore: number, cleanRuns: number): number {
  const rate = runsBefore ? failedBefore / runsBefore : 0;
  return Math.pow(1 - rate, cleanRuns);
}
