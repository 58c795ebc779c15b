// What a verdict is judged on, gathered from the lookback's runs and non-passing outcomes held in
// memory (lib/history): per test, per job and bucket, the healthy runs that executed it (from the
// shared test sets), its failures and flakes there, its failures in broken runs, the latest runs of
// each job, its last failure and what followed, and same-job same-payload pairs.
import { setHas } from '../store/testSets';
import { recentData, firstAtOrAfter, sliceColumns, type OutcomeColumns } from '../history/recentData';
import { loadJobs } from '../history/windowData';
import type { JobInfo, RunInfo } from '../history/types';
import type { Database } from '../store/db';
import { loadTestSets } from '../store/testSets';
import { bucketIn, lookback, type Lookback } from './lookback';
import { RULES, type JobSeries, type SameConditionPair, type TestHistory } from './rules';

/** The test's outcome in this many of each job's latest runs is kept (for streaks). */
export const LATEST_RUNS = 10;
/** Hard failures examined for a same-job, same-payload/commit pass. */
export const SAME_CONDITION_EXAMINED = 60;

export interface LookbackData {
  lookback: Lookback;
  jobs: Map<number, JobInfo>;
  /** runs started in [from, at), all jobs, in start order */
  runs: RunInfo[];
  runById: RunInfo[];
  outcomes: OutcomeColumns;
  sets: Map<number, Int32Array>;
  /** a version of the data: equal versions hold equal runs */
  version: string;
}

/** A run whose failures say nothing about any one test: its install or setup failed, or many tests failed together. */
export const isBrokenRun = (r: RunInfo): boolean => r.installFailed || r.failed >= RULES.massFailureTests;

export async function loadLookback(db: Database, at: number): Promise<LookbackData> {
  const lb = lookback(at);
  const [jobList, data] = await Promise.all([loadJobs(db), recentData(db, lb.from, at)]);
  const runs = data.runsBetween(lb.from, at);
  const runById: RunInfo[] = [];
  const setIds = new Set<number>();
  for (const r of runs) {
    runById[r.id] = r;
    if (r.testSetId !== null) setIds.add(r.testSetId);
  }
  const outcomes = sliceColumns(data.outcomes, firstAtOrAfter(data.outcomes, lb.from), firstAtOrAfter(data.outcomes, at));
  return { lookback: lb, jobs: new Map(jobList.map((j) => [j.id, j])), runs, runById, outcomes, sets: await loadTestSets(db, setIds), version: `${data.version}|${runs.length}` };
}

/** A healthy failure (failed or flaked) of a test, in start order. */
export interface FailureRun {
  run: RunInfo;
  outcome: 1 | 2;
}

/** The runs behind a history: what the caller needs to name runs in the evidence. */
export interface TestRuns {
  testId: number;
  /** healthy failures and flakes, in start order */
  failures: FailureRun[];
  /** outcome by run id (healthy and broken runs alike) */
  outcomeOf: Map<number, number>;
}

const runsByJobOf = new WeakMap<LookbackData, Map<number, RunInfo[]>>();
/** The lookback's runs of one job, in start order. */
export function runsOfJob(d: LookbackData, jobId: number): RunInfo[] {
  let byJob = runsByJobOf.get(d);
  if (!byJob) {
    byJob = new Map();
    for (const r of d.runs) {
      let list = byJob.get(r.jobId);
      if (!list) byJob.set(r.jobId, (list = []));
      list.push(r);
    }
    runsByJobOf.set(d, byJob);
  }
  return byJob.get(jobId) ?? [];
}

export const executed = (d: LookbackData, r: RunInfo, testId: number): boolean => r.testSetId !== null && setHas(d.sets.get(r.testSetId) ?? EMPTY, testId);
const EMPTY = new Int32Array();

/** Healthy runs per (test set, job, bucket), counted once per lookback: the cost of run counts is then the distinct sets, not runs x tests. */
interface SetCells {
  setId: number;
  jobs: number[];
  buckets: number[];
  counts: number[];
}
const cellsOf = new WeakMap<LookbackData, SetCells[]>();
function setCells(d: LookbackData): SetCells[] {
  const cached = cellsOf.get(d);
  if (cached) return cached;
  const bySet = new Map<number, SetCells & { last: string }>();
  for (const r of d.runs) {
    if (r.testSetId === null || isBrokenRun(r)) continue;
    let c = bySet.get(r.testSetId);
    if (!c) bySet.set(r.testSetId, (c = { setId: r.testSetId, jobs: [], buckets: [], counts: [], last: '' }));
    const b = bucketIn(d.lookback, r.started);
    const key = `${r.jobId}|${b}`;
    if (key === c.last) c.counts[c.counts.length - 1]++;
    else {
      c.jobs.push(r.jobId);
      c.buckets.push(b);
      c.counts.push(1);
      c.last = key;
    }
  }
  const cells = [...bySet.values()];
  cellsOf.set(d, cells);
  return cells;
}

/**
 * The histories of the given tests. `firstSeen`: each test's first failure or flake in all stored
 * history; `names`: test names by id.
 */
export function testHistories(d: LookbackData, testIds: number[], names: Map<number, string>, firstSeen: Map<number, number>): Map<number, { history: TestHistory; runs: TestRuns }> {
  const n = d.lookback.buckets;
  type Acc = { perJob: Map<number, { runs: Float64Array; failed: Float64Array; flaked: Float64Array }>; broken: TestHistory['broken']; runs: TestRuns };
  const acc = new Map<number, Acc>();
  let maxId = 0;
  for (const id of testIds) {
    acc.set(id, { perJob: new Map(), broken: { install: 0, mass: 0, failedTestsPerRun: [] }, runs: { testId: id, failures: [], outcomeOf: new Map() } });
    if (id > maxId) maxId = id;
  }
  const slot: (Acc | undefined)[] = new Array(maxId + 1);
  for (const [id, a] of acc) slot[id] = a;
  const series = (a: Acc, jobId: number) => {
    let s = a.perJob.get(jobId);
    if (!s) a.perJob.set(jobId, (s = { runs: new Float64Array(n), failed: new Float64Array(n), flaked: new Float64Array(n) }));
    return s;
  };

  const o = d.outcomes;
  for (let i = 0; i < o.length; i++) {
    const t = o.testId[i];
    const a = t <= maxId ? slot[t] : undefined;
    if (!a) continue;
    const run = d.runById[o.runId[i]];
    if (!run) continue;
    const outcome = o.outcome[i] as 1 | 2;
    a.runs.outcomeOf.set(run.id, outcome);
    if (isBrokenRun(run)) {
      if (run.installFailed) a.broken.install++;
      else a.broken.mass++;
      a.broken.failedTestsPerRun.push(run.failed);
      continue;
    }
    const s = series(a, run.jobId);
    (outcome === 1 ? s.failed : s.flaked)[bucketIn(d.lookback, run.started)]++;
    a.runs.failures.push({ run, outcome });
  }

  // runs that executed each test, from the sets' cells
  const wanted = new Uint8Array(maxId + 1);
  for (const id of testIds) wanted[id] = 1;
  const add = (a: Acc, c: SetCells) => {
    for (let k = 0; k < c.counts.length; k++) series(a, c.jobs[k]).runs[c.buckets[k]] += c.counts[k];
  };
  for (const c of setCells(d)) {
    const members = d.sets.get(c.setId);
    if (!members) continue;
    if (testIds.length * 16 < members.length) {
      for (const t of testIds) if (setHas(members, t)) add(acc.get(t)!, c);
    } else {
      for (let k = 0; k < members.length; k++) {
        const t = members[k];
        if (t <= maxId && wanted[t]) add(slot[t]!, c);
      }
    }
  }

  const out = new Map<number, { history: TestHistory; runs: TestRuns }>();
  for (const [testId, a] of acc) {
    const jobs: JobSeries[] = [];
    for (const [jobId, s] of a.perJob) {
      const info = d.jobs.get(jobId);
      jobs.push({ job: info?.name ?? String(jobId), release: info?.release, platform: info?.platform, upgrade: info?.upgrade ?? false, ...s, latest: latestOutcomes(d, jobId, testId, a.runs.outcomeOf) });
    }
    jobs.sort((x, y) => (x.job < y.job ? -1 : 1));
    const last = a.runs.failures[a.runs.failures.length - 1];
    out.set(testId, {
      history: {
        test: names.get(testId) ?? '',
        lookback: d.lookback,
        jobs,
        broken: a.broken,
        lastFailure: last && { started: last.run.started, runsSince: healthyRunsAfter(d, testId, last.run) },
        firstSeen: firstSeen.get(testId),
        sameConditionPairs: sameConditionPairs(d, testId, a.runs),
      },
      runs: a.runs,
    });
  }
  return out;
}

/** The test's outcome in the job's latest healthy runs that executed it, newest first. */
function latestOutcomes(d: LookbackData, jobId: number, testId: number, outcomeOf: Map<number, number>): number[] {
  const list = runsOfJob(d, jobId);
  const out: number[] = [];
  for (let i = list.length - 1; i >= 0 && out.length < LATEST_RUNS; i--) {
    const r = list[i];
    if (isBrokenRun(r) || !executed(d, r, testId)) continue;
    out.push(outcomeOf.get(r.id) ?? 0);
  }
  return out;
}

/** Healthy runs that executed the test and started after `run`. */
function healthyRunsAfter(d: LookbackData, testId: number, run: RunInfo): number {
  let n = 0;
  for (let i = d.runs.length - 1; i >= 0; i--) {
    const r = d.runs[i];
    if (r.started < run.started || (r.started === run.started && r.id <= run.id)) break;
    if (!isBrokenRun(r) && executed(d, r, testId)) n++;
  }
  return n;
}

/** Hard failures paired with a healthy run of the same job and payload (else commit) where the test passed. */
function sameConditionPairs(d: LookbackData, testId: number, runs: TestRuns, limit = 20): SameConditionPair[] {
  const out: SameConditionPair[] = [];
  const failed = runs.failures.filter((f) => f.outcome === 1).slice(-SAME_CONDITION_EXAMINED);
  const groups = new Map<string, RunInfo[]>();
  for (const { run: f } of failed) {
    const on = f.payload ? 'payload' : 'commit';
    const value = f.payload || f.commit;
    if (!value) continue;
    const key = `${f.jobId}|${on}|${value}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = runsOfJob(d, f.jobId).filter((r) => (on === 'payload' ? r.payload : r.commit) === value)));
    const passed = g.find((r) => !runs.outcomeOf.has(r.id) && !isBrokenRun(r) && executed(d, r, testId));
    if (passed) {
      out.push({ job: d.jobs.get(f.jobId)?.name ?? '', on, value, failed: f.buildId, passed: passed.buildId });
      if (out.length >= limit) break;
    }
  }
  return out;
}
