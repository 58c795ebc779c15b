// A test's verdict over a loaded window and its sparkline: what the hot list, the test page and the
// promotion view show for one aggregated test.
import { describeChange, classify } from './verdict';
import { previousRunOfJob, runRef, verdictInput, type SameConditionIndex, type TestAggregate } from './testStats';
import type { LoadedWindow } from '../history/windowData';
import { iso } from '../history/window';

export interface SparkPoint {
  start: string;
  runs: number;
  failed: number;
  flaked: number;
}

/** The window's buckets grouped into slices for a sparkline. */
export function sparkline(w: LoadedWindow, a: TestAggregate): SparkPoint[] {
  const { span } = w;
  const start = Math.round((span.from - span.prevFrom) / span.bucketSeconds);
  const perWindow = span.buckets - start;
  // A day per point for week-long windows; about 12 points for shorter ones.
  const perDay = 86_400 / span.bucketSeconds;
  const slice = perWindow >= 7 * perDay ? perDay : Math.max(1, Math.ceil(perWindow / 12));
  const out: SparkPoint[] = [];
  for (let b = start; b < span.buckets; b += slice) {
    let runs = 0, failed = 0, flaked = 0;
    for (let i = b; i < Math.min(span.buckets, b + slice); i++) {
      runs += a.runsPerBucket[i];
      failed += a.failedPerBucket[i];
      flaked += a.flakedPerBucket[i];
    }
    out.push({ start: iso(span.prevFrom + b * span.bucketSeconds), runs, failed, flaked });
  }
  return out;
}

/** Verdict and evidence of one aggregated test, with "what changed" for regressions. */
export function verdictFor(w: LoadedWindow, name: string, a: TestAggregate, same: SameConditionIndex) {
  const v = classify(verdictInput(w, name, a, same));
  if (v.classification === 'regression' && v.changeBucket !== undefined) {
    const changeAt = w.span.prevFrom + v.changeBucket * w.span.bucketSeconds;
    const first = a.allFailedRuns.find((r) => r.started >= changeAt);
    if (first) {
      const prev = previousRunOfJob(w, first, a.testId);
      Object.assign(v.evidence, describeChange(runRef(w, first), prev && runRef(w, prev)));
    }
  }
  return v;
}
