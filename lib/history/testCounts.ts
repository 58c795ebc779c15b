// Per-test numbers over a loaded window: runs that executed the test (from the shared test sets),
// failures and flakes (from outcome rows), per bucket and per job: the counts a window shows.
import { setHas } from '../store/testSets';
import { bucketOf } from './window';
import type { LoadedWindow } from './windowData';
import type { RunInfo } from './types';

export interface JobCounts {
  runs: number;
  failed: number;
  flaked: number;
}

export interface TestAggregate {
  testId: number;
  runsPerBucket: Float64Array;
  failedPerBucket: Float64Array;
  flakedPerBucket: Float64Array;
  /** window only */
  perJob: Map<number, JobCounts>;
  windowRuns: number;
  windowFailed: number;
  windowFlaked: number;
  prevRuns: number;
  prevFailed: number;
  prevFlaked: number;
  /** window runs where it failed / flaked, in start order */
  failedRuns: RunInfo[];
  flakedRuns: RunInfo[];
  /** both windows: failed runs (for the change point's first failing run) */
  allFailedRuns: RunInfo[];
  /** window: signature id -> occurrences */
  signatures: Map<number, number>;
}

/** Per-test counts over the window for every test, in dense arrays indexed by test id: cheap enough
 * to rank thousands of failing tests before looking closely at the ones shown. */
export interface FailureCounts {
  testIds: number[];
  windowFailed: Int32Array;
  windowFlaked: Int32Array;
  prevFailed: Int32Array;
  prevFlaked: Int32Array;
  /** distinct jobs with a failure or flake in the window */
  jobs: Int32Array;
}

export function countFailures(w: LoadedWindow): FailureCounts {
  const { span, outcomes: o } = w;
  let maxTest = 0;
  for (let i = 0; i < o.length; i++) if (o.testId[i] > maxTest) maxTest = o.testId[i];
  const n = maxTest + 1;
  const c: FailureCounts = {
    testIds: [], windowFailed: new Int32Array(n), windowFlaked: new Int32Array(n), prevFailed: new Int32Array(n), prevFlaked: new Int32Array(n), jobs: new Int32Array(n),
  };
  let maxJob = 0;
  for (const id of w.jobs.keys()) if (id > maxJob) maxJob = id;
  const jobIndex = new Int32Array(maxJob + 1);
  let jobs = 0;
  for (const id of w.jobs.keys()) jobIndex[id] = jobs++;
  const seen = new Map<number, Set<number>>();
  const seenDense = n * jobs <= 64_000_000 ? new Uint8Array(n * jobs) : undefined;
  for (let i = 0; i < o.length; i++) {
    const t = o.testId[i];
    if (o.started[i] >= span.from) {
      if (c.windowFailed[t] + c.windowFlaked[t] === 0) c.testIds.push(t);
      if (o.outcome[i] === 1) c.windowFailed[t]++;
      else c.windowFlaked[t]++;
      const j = jobIndex[o.jobId[i]];
      if (seenDense) {
        const k = t * jobs + j;
        if (!seenDense[k]) {
          seenDense[k] = 1;
          c.jobs[t]++;
        }
      } else {
        let set = seen.get(t);
        if (!set) seen.set(t, (set = new Set()));
        if (!set.has(j)) {
          set.add(j);
          c.jobs[t]++;
        }
      }
    } else if (o.outcome[i] === 1) c.prevFailed[t]++;
    else c.prevFlaked[t]++;
  }
  return c;
}

/**
 * Aggregates for the given tests in detail: failures and flakes per bucket and job, the failed runs,
 * signatures. Runs that executed each test come from addRunCounts.
 */
export function aggregateTests(w: LoadedWindow, only: Set<number>): Map<number, TestAggregate> {
  const { span, outcomes: o } = w;
  const windowStart = Math.round((span.from - span.prevFrom) / span.bucketSeconds);
  const aggs = new Map<number, TestAggregate>();
  for (const testId of only) {
    aggs.set(testId, {
      testId,
      runsPerBucket: new Float64Array(span.buckets),
      failedPerBucket: new Float64Array(span.buckets),
      flakedPerBucket: new Float64Array(span.buckets),
      perJob: new Map(),
      windowRuns: 0, windowFailed: 0, windowFlaked: 0, prevRuns: 0, prevFailed: 0, prevFlaked: 0,
      failedRuns: [], flakedRuns: [], allFailedRuns: [],
      signatures: new Map(),
    });
  }
  // a dense slot per test id: the loop below visits every outcome of the window
  let maxTest = 0;
  for (const id of only) if (id > maxTest) maxTest = id;
  const slot: (TestAggregate | undefined)[] = new Array(maxTest + 1);
  for (const [id, a] of aggs) slot[id] = a;
  for (let i = 0; i < o.length; i++) {
    const t = o.testId[i];
    if (t > maxTest) continue;
    const a = slot[t];
    if (!a) continue;
    const run = w.runById[o.runId[i]];
    const b = bucketOf(span, run.started);
    const inWindow = b >= windowStart;
    if (o.outcome[i] === 1) {
      a.failedPerBucket[b]++;
      a.allFailedRuns.push(run);
      if (inWindow) {
        a.windowFailed++;
        a.failedRuns.push(run);
        jobCounts(a, run.jobId).failed++;
      } else a.prevFailed++;
    } else {
      a.flakedPerBucket[b]++;
      if (inWindow) {
        a.windowFlaked++;
        a.flakedRuns.push(run);
        jobCounts(a, run.jobId).flaked++;
      } else a.prevFlaked++;
    }
    const sig = o.signatureId[i];
    if (inWindow && sig >= 0) a.signatures.set(sig, (a.signatures.get(sig) ?? 0) + 1);
  }
  // (the outcome columns are in start order, so the run lists already are)
  return aggs;
}

function jobCounts(a: TestAggregate, jobId: number): JobCounts {
  let c = a.perJob.get(jobId);
  if (!c) a.perJob.set(jobId, (c = { runs: 0, failed: 0, flaked: 0 }));
  return c;
}

/**
 * Fills in the runs that executed each of the given tests (per bucket and per job), from the shared
 * test sets: runs are counted per (set, bucket, job) once, then each set's members are walked
 * once, so the cost is the size of the distinct sets, not runs x tests.
 */
/** Runs of the window per distinct test set, as (bucket, job, count) cells; computed once per window. */
interface SetCells {
  setId: number;
  buckets: number[];
  /** dense job index (see jobOrder) */
  jobs: number[];
  counts: number[];
  /** the last cell's key, so runs in start order mostly extend it instead of searching */
  lastKey: number;
}

const cellsOf = new WeakMap<LoadedWindow, { cells: SetCells[]; jobIds: number[] }>();

function setCells(w: LoadedWindow): { cells: SetCells[]; jobIds: number[] } {
  const cached = cellsOf.get(w);
  if (cached) return cached;
  const jobIndex = new Map<number, number>();
  for (const jobId of w.jobs.keys()) jobIndex.set(jobId, jobIndex.size);
  const bySet = new Map<number, SetCells>();
  const J = 1 << 16;
  for (const run of w.runs) {
    if (run.testSetId === null) continue;
    let c = bySet.get(run.testSetId);
    if (!c) bySet.set(run.testSetId, (c = { setId: run.testSetId, buckets: [], jobs: [], counts: [], lastKey: -1 }));
    const bucket = bucketOf(w.span, run.started);
    const job = jobIndex.get(run.jobId) ?? 0;
    const key = bucket * J + job;
    if (key === c.lastKey) c.counts[c.counts.length - 1]++;
    else {
      c.buckets.push(bucket);
      c.jobs.push(job);
      c.counts.push(1);
      c.lastKey = key;
    }
  }
  const result = { cells: [...bySet.values()], jobIds: [...jobIndex.keys()] };
  cellsOf.set(w, result);
  return result;
}

/**
 * Fills in the runs that executed each of the given tests (per bucket and per job), from the shared
 * test sets: runs are counted per (set, bucket, job) once, then each set is checked once per test,
 * so the cost is sets x tests, not runs x tests.
 */
export function addRunCounts(w: LoadedWindow, aggs: TestAggregate[]): void {
  if (!aggs.length) return;
  const { span } = w;
  const windowStart = Math.round((span.from - span.prevFrom) / span.bucketSeconds);
  const byId = new Map(aggs.map((a) => [a.testId, a]));
  let maxId = 0;
  for (const id of byId.keys()) if (id > maxId) maxId = id;
  const wanted = new Uint8Array(maxId + 1);
  for (const id of byId.keys()) wanted[id] = 1;
  const wantedIds = [...byId.keys()];
  // runs per job are summed in a dense array per test, turned into perJob entries at the end
  const { cells, jobIds } = setCells(w);
  const runsPerJob = new Map(wantedIds.map((t) => [t, new Float64Array(jobIds.length)]));
  const add = (t: number, c: SetCells) => {
    const a = byId.get(t)!;
    const perJob = runsPerJob.get(t)!;
    for (let i = 0; i < c.counts.length; i++) {
      a.runsPerBucket[c.buckets[i]] += c.counts[i];
      if (c.buckets[i] >= windowStart) {
        a.windowRuns += c.counts[i];
        perJob[c.jobs[i]] += c.counts[i];
      } else a.prevRuns += c.counts[i];
    }
  };
  for (const c of cells) {
    const members = w.sets.get(c.setId);
    if (!members) continue;
    if (wantedIds.length * 16 < members.length) {
      // few tests asked for: look each up in the (sorted) set
      for (const t of wantedIds) if (setHas(members, t)) add(t, c);
    } else {
      for (let i = 0; i < members.length; i++) {
        const t = members[i];
        if (t <= maxId && wanted[t]) add(t, c);
      }
    }
  }
  for (const [t, perJob] of runsPerJob) {
    const a = byId.get(t)!;
    for (let j = 0; j < perJob.length; j++) if (perJob[j] > 0) jobCounts(a, jobIds[j]).runs += perJob[j];
  }
}
