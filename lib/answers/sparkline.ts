// A test's window as a sparkline: runs, failures and flakes per slice of the window's buckets.
import type { LoadedWindow } from '../history/windowData';
import { iso } from '../history/window';
import type { TestAggregate } from '../history/testCounts';

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
