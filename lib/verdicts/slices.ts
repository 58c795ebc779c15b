// A history's slices, what the regression rule searches for a rise and lists as its evidence: each
// variant (release, platform, upgrade) with the runs and failures of all its jobs, and each job with
// enough runs of its own; and each job's sums over the lookback, which the rules read instead of
// adding up every job's buckets again. Made once per history's jobs (a verdict is judged again once
// the evidence's pairs or broken runs are read). Pure, like the rules.
import { addInto, sum, zeros } from '../history/series';
import type { JobSeries, TestHistory } from './rules';
import { STEP, type Series } from './stepChange';

export interface Slice {
  release: string;
  platform: string;
  upgrade: boolean;
  job?: string;
  /** sliceLabel's, made once */
  label: string;
  series: Series;
  jobs: string[];
}

export const sliceLabel = (s: { release: string; platform: string; upgrade: boolean; job?: string }): string =>
  s.job ?? [s.release || 'unversioned', s.platform || 'any platform', ...(s.upgrade ? ['upgrade'] : [])].join(' ');

/**
 * A history's slices: the variant slices (release, platform, upgrade), then each job with enough runs
 * of its own. A job is searched for a rise as it is (`searchedJobs`, in the slices' order), and only
 * where the test failed or flaked often enough for one to start (bestRise needs STEP.minFailedAfter
 * failures; most of a test's 800 jobs have none). `all()` makes every job's slice when a regression's
 * evidence lists them. Kept per history's jobs: a verdict is judged again once the evidence's pairs or
 * broken runs are read.
 */
export interface Slices {
  variants: Slice[];
  searchedJobs: JobSeries[];
  all(): Slice[];
}
const slicesByJobs = new WeakMap<JobSeries[], Slices>();
/** `jobSliceMinRuns`: the runs a job needs in the lookback for a slice of its own (the rules' threshold). */
export function slicesOf(h: TestHistory, jobSliceMinRuns: number): Slices {
  let out = slicesByJobs.get(h.jobs);
  if (!out) slicesByJobs.set(h.jobs, (out = slicesOfJobs(h, jobSliceMinRuns)));
  return out;
}

/** Newest release first, then by label (a job's slices: by job name). */
const sliceOrder = (a: Slice, b: Slice) => (a.release < b.release ? 1 : a.release > b.release ? -1 : a.label < b.label ? -1 : 1);
const byRelease = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
const byJobName = (a: JobSeries, b: JobSeries) => (a.job < b.job ? -1 : 1);

function slicesOfJobs(h: TestHistory, jobSliceMinRuns: number): Slices {
  const n = h.lookback.buckets;
  const variantList: Slice[] = [];
  const searchedByRelease = new Map<string, JobSeries[]>();
  const otherJobs: JobSeries[] = [];
  addJobSlices(h, jobSliceMinRuns, variantList, searchedByRelease, otherJobs);
  // the job slices' order without a slice made: by release, then by name (a history's jobs come by
  // name already, from testHistories, where each release's sort is a pass over them)
  const searchedJobs: JobSeries[] = [];
  for (const release of [...searchedByRelease.keys()].sort(byRelease)) {
    const jobs = searchedByRelease.get(release)!.sort(byJobName);
    for (let i = 0; i < jobs.length; i++) searchedJobs.push(jobs[i]);
  }
  const variants = variantList.sort(sliceOrder);
  let all: Slice[] | undefined;
  return {
    variants,
    searchedJobs,
    all: () => (all ??= [...variants, ...[...searchedJobs, ...otherJobs].map((j) => jobSlice(j, n)).sort(sliceOrder)]),
  };
}

/**
 * Adds each job to its variant's slice and, if it has enough runs for a slice of its own, to the
 * jobs searched for a rise (it failed or flaked often enough for one) of its release, or `other`.
 * (The loop alone in a function, ending where it ends: V8 optimizes it while it runs, and code after
 * it that had not run yet sent it back twice.)
 */
function addJobSlices(h: TestHistory, jobSliceMinRuns: number, variantList: Slice[], searched: Map<string, JobSeries[]>, other: JobSeries[]): void {
  const n = h.lookback.buckets;
  const sums = jobSums(h);
  // variants by release, platform and upgrade in nested maps: no key string made per test and job
  const variants = new Map<string, Map<string, Slice[]>>();
  for (let i = 0; i < h.jobs.length; i++) {
    const j = h.jobs[i];
    const release = j.release ?? '';
    const platform = j.platform ?? '';
    let byPlatform = variants.get(release);
    if (!byPlatform) variants.set(release, (byPlatform = new Map()));
    let byUpgrade = byPlatform.get(platform);
    if (!byUpgrade) byPlatform.set(platform, (byUpgrade = []));
    let v = byUpgrade[j.upgrade ? 1 : 0];
    if (!v) {
      const key = { release, platform, upgrade: j.upgrade };
      byUpgrade[j.upgrade ? 1 : 0] = v = { ...key, label: sliceLabel(key), series: { runs: zeros(n), failed: zeros(n) }, jobs: [] };
      variantList.push(v);
    }
    addInto(v.series.runs as number[], j.runs);
    // (most jobs have neither failures nor flakes of the test: nothing to add)
    if (sums.failed[i]) addInto(v.series.failed as number[], j.failed);
    if (sums.flaked[i]) addInto(v.series.failed as number[], j.flaked);
    v.jobs.push(j.job);
    if (sums.runs[i] < jobSliceMinRuns) continue;
    if (sums.failed[i] + sums.flaked[i] >= STEP.minFailedAfter) {
      let list = searched.get(release);
      if (!list) searched.set(release, (list = []));
      list.push(j);
    } else other.push(j);
  }
}

/** Zeros of each length, read only: the failures of every job slice where the test never failed. */
const noFailures: number[][] = [];

/** A job's slice: its runs, and its failures and flakes as one series. */
function jobSlice(j: JobSeries, n: number): Slice {
  let failures: number[];
  if (sum(j.failed) + sum(j.flaked) > 0) {
    failures = zeros(n);
    addInto(failures, j.failed);
    addInto(failures, j.flaked);
  } else failures = noFailures[n] ??= zeros(n);
  return { release: j.release ?? '', platform: j.platform ?? '', upgrade: j.upgrade, job: j.job, label: j.job, series: { runs: j.runs, failed: failures }, jobs: [j.job] };
}

/** Each job's runs, failures and flakes over the lookback (in the history's order of jobs), summed once per history. */
export interface JobSums {
  runs: Int32Array;
  failed: Int32Array;
  flaked: Int32Array;
}
const sumsByJobs = new WeakMap<JobSeries[], JobSums>();
export function jobSums(h: TestHistory): JobSums {
  let out = sumsByJobs.get(h.jobs);
  if (out) return out;
  const n = h.jobs.length;
  out = { runs: new Int32Array(n), failed: new Int32Array(n), flaked: new Int32Array(n) };
  for (let i = 0; i < n; i++) {
    const j = h.jobs[i];
    out.runs[i] = sum(j.runs);
    out.failed[i] = sum(j.failed);
    out.flaked[i] = sum(j.flaked);
  }
  sumsByJobs.set(h.jobs, out);
  return out;
}
