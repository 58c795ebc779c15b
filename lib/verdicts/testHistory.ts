// What a verdict is judged on, read from the rollups (lib/store/rollups.ts) and, for the few runs the
// evidence names, from the runs themselves: per test, per job and day of the lookback, the healthy
// runs that executed it (from the shared test sets), its failures and flakes there, its failures in
// broken runs, the test's outcome in each job's latest runs, its last failure and the runs since.
import { loadJobs } from '../history/jobs';
import type { JobInfo } from '../history/types';
import { runCells, runsPerJobSet, testJobDays, type JobSetRuns, type RunCell } from '../history/rollupWindow';
import { forEachQuery, rowsPerKey } from '../store/bulk';
import type { Database } from '../store/db';
import { TestSetHolders } from '../store/testSetBlocks';
import { byTime } from '../store/sql';
import { BROKEN_RUN, dataVersion } from '../store/rollups';
import { bucketStart, GRID_SECONDS, lookback, type Lookback } from './lookback';
import { latestOutcomes, type StreakAsk } from './recentRuns';
import { type JobSeries, type TestHistory } from './rules';
import { RUN_ROW, toRunRow, type RecentRun, type RunRow } from './runRows';
import { zeros } from '../history/series';

/**
 * A job's latest outcomes where none were read (most of a test's 800 jobs): one array, never changed.
 * Shared arrays here are not frozen: a frozen array among the rules' plain ones makes V8's reads of
 * them polymorphic; readonly keeps them unwritten.
 */
const NO_LATEST: readonly number[] = [];

/** The lookback at one `at` on one version of the data: what every test's history there shares. */
export interface LookbackContext {
  db: Database;
  lookback: Lookback;
  version: string;
  jobs: Map<number, JobInfo>;
  /** runs per job, test set and day of the lookback */
  cells: RunCell[];
  /** which of the tests judged the sets of those runs hold (each call loads its tests) */
  holders: TestSetHolders;
}

const contexts = new Map<string, Promise<LookbackContext>>();

export async function lookbackContext(db: Database, at: number): Promise<LookbackContext> {
  const version = await dataVersion(db);
  const key = `${db.url}|${at}|${version}`;
  let p = contexts.get(key);
  if (!p) {
    if (contexts.size >= 4) contexts.delete(contexts.keys().next().value!);
    p = (async () => {
      const lb = lookback(at);
      const [jobList, cells] = await Promise.all([loadJobs(db), runCells(db, lb.from, at)]);
      return { db, lookback: lb, version, jobs: new Map(jobList.map((j) => [j.id, j])), cells, holders: new TestSetHolders(db, new Set(cells.map((c) => c.setId))) };
    })();
    contexts.set(key, p);
    p.catch(() => contexts.delete(key));
  }
  return p;
}

/** A job's healthy runs per day: per test set, and of all its sets (shared, never changed: see NO_LATEST). */
interface JobRuns {
  sets: JobSetRuns[];
  all: readonly number[];
}

/** The lookback's healthy runs per job, made once per lookback. */
const healthyByContext = new WeakMap<LookbackContext, Map<number, JobRuns>>();

function healthyRunsPerJob(ctx: LookbackContext): Map<number, JobRuns> {
  let out = healthyByContext.get(ctx);
  if (out) return out;
  const sets = new Map<number, JobSetRuns[]>();
  for (const g of runsPerJobSet(ctx.cells, ctx.lookback.from, GRID_SECONDS, ctx.lookback.buckets, 'healthy')) {
    let list = sets.get(g.jobId);
    if (!list) sets.set(g.jobId, (list = []));
    list.push(g);
  }
  out = new Map();
  for (const [jobId, list] of sets) out.set(jobId, { sets: list, all: sumRuns(list, ctx.lookback.buckets) });
  healthyByContext.set(ctx, out);
  return out;
}

function sumRuns(groups: JobSetRuns[], n: number): number[] {
  const out = zeros(n);
  for (let i = 0; i < groups.length; i++) addGroupRuns(out, groups[i]);
  return out;
}

/** Adds a job and set's runs into `into`, on the buckets that have some. */
function addGroupRuns(into: number[], g: JobSetRuns): void {
  for (let k = 0; k < g.buckets.length; k++) into[g.buckets[k]] += g.runs[g.buckets[k]];
}

/**
 * Slots for the lookback's job ids (arrays indexed by job id; ids are small and dense), and the slots
 * in the order of the name a history lists each job under (a job without one by its id): made once
 * per lookback, not sorted per test.
 */
const jobSlotsOf = new WeakMap<LookbackContext, { slots: number; byName: number[] }>();
function jobSlots(ctx: LookbackContext): { slots: number; byName: number[] } {
  let out = jobSlotsOf.get(ctx);
  if (!out) {
    let slots = 1;
    for (const id of ctx.jobs.keys()) slots = Math.max(slots, id + 1);
    const name = (jobId: number) => ctx.jobs.get(jobId)?.name ?? String(jobId);
    out = { slots, byName: Array.from({ length: slots }, (_, i) => i).sort((x, y) => (name(x) < name(y) ? -1 : name(x) > name(y) ? 1 : x - y)) };
    jobSlotsOf.set(ctx, out);
  }
  return out;
}

/** A job's series in a test's history (a literal of one shape: 80,000 of these a hot list, most of them shared). */
function jobSeries(ctx: LookbackContext, jobId: number, runs: readonly number[], failed: ArrayLike<number>, flaked: ArrayLike<number>, latest: readonly number[]): JobSeries {
  const info = ctx.jobs.get(jobId);
  return { job: info?.name ?? String(jobId), release: info?.release, platform: info?.platform, upgrade: info?.upgrade ?? false, runs, failed, flaked, latest };
}

/**
 * The series of each job where a test neither failed nor flaked and that ran it in every run (most of
 * a hot list's 100 tests on 800 jobs): the same for every such test, made once per lookback and
 * shared. Kept out of the 80,000 objects each scavenge copied until the verdicts were judged; the
 * rules never change a series.
 */
const quietSeriesOf = new WeakMap<LookbackContext, (JobSeries | undefined)[]>();
function quietSeries(ctx: LookbackContext): (JobSeries | undefined)[] {
  let out = quietSeriesOf.get(ctx);
  if (!out) quietSeriesOf.set(ctx, (out = []));
  return out;
}

/** What the evidence fills in later needs of a test's history. */
export interface HistoryExtras {
  /** the test's outcome in the recent runs looked at (run id -> 1 failed, 2 flaked) */
  recentOutcomes: Map<number, number>;
  /** the recent runs of the jobs looked at, newest first per job, since recentFrom */
  recentRuns: Map<number, RecentRun[]>;
  recentFrom: number;
  lastFailure?: RunRow;
}

/** Whether a run of the lookback with this test set executed the test (one of those testHistories was asked for). */
export const executedIn = (ctx: Pick<LookbackContext, 'holders'>, setId: number | null, testId: number): boolean => ctx.holders.has(setId, testId);

/**
 * The histories of the given tests. `firstSeen`: each test's first failure or flake in all stored
 * history; `names`: test names by id.
 */
export async function testHistories(ctx: LookbackContext, testIds: number[], names: Map<number, string>, firstSeen: Map<number, number>): Promise<Map<number, { history: TestHistory; extras: HistoryExtras }>> {
  const { db, lookback: lb } = ctx;
  const n = lb.buckets;
  // per job id, in arrays filled to the highest (job ids are small and dense): hundreds of thousands of
  // rows are added up here.
  // failures: per job, its failures per day and then its flakes per day, in one typed array per test
  // (45 KB at 400 jobs): off the JS heap, where a hot list's 100 tests made 80,000 small arrays that
  // every garbage collection copied; a job's series are views of it (`has`: 1 failed there, 2 flaked).
  // runs: per job, the healthy runs that executed the test (arrays shared between tests).
  // lastJobs: the jobs of its failures and flakes on lastDay, in the order met (onLastDay[job] is
  // lastDay + 1 for those: no Set grown per test and day)
  type PerTest = { failures: Int32Array; has: Uint8Array; runs: (readonly number[] | undefined)[]; broken: number; rows: number; lastDay: number; lastJobs: number[]; onLastDay: Int32Array; lastFailureDay: number[] };
  const { slots, byName } = jobSlots(ctx);
  const stride = 2 * n;
  const perTest = new Map<number, PerTest>();
  for (const id of testIds) {
    perTest.set(id, { failures: new Int32Array(slots * stride), has: new Uint8Array(slots), runs: new Array(slots).fill(undefined), broken: 0, rows: 0, lastDay: -1, lastJobs: [], onLastDay: new Int32Array(slots), lastFailureDay: new Array(slots).fill(0) });
  }
  // runs, failures or flakes of none share one array (never written)
  const none = zeros(n);

  // failures per job and day, healthy runs apart from broken ones (rows come a test at a time)
  let cur: PerTest | undefined;
  let curId = -1;
  // (and which of the lookback's test sets hold these tests, read meanwhile)
  const [jobDays] = await Promise.all([testJobDays(db, testIds, lb.from, lb.at), ctx.holders.load(testIds)]);
  jobDays.each((testId, jobId, _start, failed, flaked, failedBroken, flakedBroken, dayNumber) => {
    if (testId !== curId) {
      cur = perTest.get(testId)!;
      curId = testId;
    }
    const t = cur!;
    t.broken += failedBroken + flakedBroken;
    t.rows += failed + flaked;
    const f = failed - failedBroken;
    const fl = flaked - flakedBroken;
    if (f + fl <= 0) return;
    // the lookback's buckets are UTC days: no division per row (430,000 rows; a new process runs
    // this unoptimized at first, where each quotient was a number object made)
    const b = dayNumber - lb.firstCell;
    if (f > 0) {
      const day = dayNumber * GRID_SECONDS;
      if (!(t.lastFailureDay[jobId] >= day)) t.lastFailureDay[jobId] = day;
    }
    if (f > 0) {
      t.failures[jobId * stride + b] += f;
      t.has[jobId] |= 1;
    }
    if (fl > 0) {
      t.failures[jobId * stride + n + b] += fl;
      t.has[jobId] |= 2;
    }
    if (b > t.lastDay) {
      t.lastDay = b;
      t.lastJobs = [];
    }
    if (b === t.lastDay && t.onLastDay[jobId] !== b + 1) {
      t.onLastDay[jobId] = b + 1;
      t.lastJobs.push(jobId);
    }
  });
  // healthy runs that executed each test, from the cells and the sets: each job and set's runs per
  // day, which every test of the set takes whole. A test in every set of a job (most are) shares the
  // job's runs: a hot list's 100 tests run on 800 jobs.
  // Tests by index, and counters per index: 500,000 steps of tests over the jobs' sets, where a map
  // keyed by test made a hash lookup of each. (forEach and indexed loops, not for-of: a new process
  // runs this once, unoptimized, where each step of an iterator or a destructured entry is an object.)
  const tests = [...perTest.values()];
  const indexOf = new Map([...perTest.keys()].map((id, i) => [id, i]));
  // (sets holding the same tests share a list: each list's indexes are made once)
  const indexesOf = new Map<readonly number[], number[]>();
  const inSet = new Map<number, number[]>();
  ctx.holders.wanted(testIds).forEach((ids, set) => {
    let indexes = indexesOf.get(ids);
    if (!indexes) indexesOf.set(ids, (indexes = ids.map((id) => indexOf.get(id)!)));
    inSet.set(set, indexes);
  });
  const held = new Int32Array(tests.length); // the job's sets holding each test
  const some: (number[] | undefined)[] = new Array(tests.length).fill(undefined); // a test in some of the job's sets only: their runs
  const touched: number[] = [];
  const healthy = healthyRunsPerJob(ctx);
  healthy.forEach((job, jobId) => {
    touched.length = 0;
    for (let i = 0; i < job.sets.length; i++) {
      const holding = inSet.get(job.sets[i].setId);
      for (let k = 0; holding && k < holding.length; k++) if (held[holding[k]]++ === 0) touched.push(holding[k]);
    }
    // a test in some of the job's sets only: the runs of those, summed set by set
    for (let i = 0; i < job.sets.length; i++) {
      const g = job.sets[i];
      const holding = inSet.get(g.setId);
      for (let k = 0; holding && k < holding.length; k++) {
        const x = holding[k];
        if (held[x] === job.sets.length) continue;
        addGroupRuns((some[x] ??= zeros(n)), g);
      }
    }
    // a test in every set of the job (most of the 800) takes the job's runs
    for (let i = 0; i < touched.length; i++) {
      const x = touched[i];
      tests[x].runs[jobId] = held[x] === job.sets.length ? job.all : some[x]!;
      held[x] = 0;
      some[x] = undefined;
    }
  });

  // streaks: on the jobs where the test failed or flaked on the last day it did, those it failed on
  const asks = new Map<number, StreakAsk>();
  for (const [id, t] of perTest) {
    const lastFailureDay = new Map<number, number>();
    for (let i = 0; i < t.lastJobs.length; i++) if (t.lastFailureDay[t.lastJobs[i]] > 0) lastFailureDay.set(t.lastJobs[i], t.lastFailureDay[t.lastJobs[i]]);
    if (lastFailureDay.size) asks.set(id, { lastFailureDay, rowsPerSecond: t.rows / (lb.at - lb.from) });
  }
  // the days of the tests' last failures are read whole: the runs since each are counted there
  const failedLast = [...perTest].filter(([, t]) => t.lastDay >= 0).map(([id, t]) => ({ id, day: t.lastDay }));
  const lastDays = new Set(failedLast.map((t) => lb.firstCell + t.day));
  const { recentOutcomes, recentRuns, recentFrom, days, latest } = await latestOutcomes(db, lb, asks, (set, test) => executedIn(ctx, set, test), lastDays);
  // the healthy runs that executed a test on the days after `day`: its runs per job summed above
  const runsAfter = (id: number, day: number): number => {
    const runs = perTest.get(id)!.runs;
    let total = 0;
    for (let jobId = 0; jobId < runs.length; jobId++) {
      const r = runs[jobId];
      for (let b = day + 1; r && b < r.length; b++) total += r[b];
    }
    return total;
  };
  const lastFailures = await lastHealthyFailures(ctx, failedLast, days, runsAfter);

  const out = new Map<number, { history: TestHistory; extras: HistoryExtras }>();
  const quiet = quietSeries(ctx);
  for (const [testId, t] of perTest) {
    const latestOf = latest.get(testId);
    // in the order of the jobs' names, without a sort per test
    const jobs: JobSeries[] = [];
    for (let k = 0; k < byName.length; k++) {
      const jobId = byName[k];
      const has = t.has[jobId];
      const runs = t.runs[jobId];
      if (!has && !runs) continue;
      const jobLatest = latestOf?.get(jobId);
      // a job where the test passed every run, in every set of the job: the job's one series
      if (!has && !jobLatest && runs && runs === healthy.get(jobId)?.all) {
        jobs.push((quiet[jobId] ??= jobSeries(ctx, jobId, runs, none, none, NO_LATEST)));
        continue;
      }
      const at = jobId * stride;
      jobs.push(jobSeries(ctx, jobId, runs ?? none, has & 1 ? t.failures.subarray(at, at + n) : none, has & 2 ? t.failures.subarray(at + n, at + stride) : none, jobLatest ?? NO_LATEST));
    }
    const last = lastFailures.get(testId);
    out.set(testId, {
      history: {
        test: names.get(testId) ?? '',
        lookback: lb,
        jobs,
        // install and mass failures apart are told by the evidence (judge.ts): the rule needs the sum
        broken: { install: 0, mass: t.broken, failedTestsPerRun: [] },
        lastFailure: last && { started: last.run.started, runsSince: last.runsSince },
        firstSeen: firstSeen.get(testId),
        sameConditionPairs: [],
      },
      extras: { recentOutcomes: recentOutcomes.get(testId) ?? new Map(), recentRuns, recentFrom, lastFailure: last?.run },
    });
  }
  return out;
}

/**
 * Each test's latest failure or flake in a healthy run (in the day its last one fell on) and the
 * healthy runs that executed it since: the whole days after from its runs per job (`runsAfter`),
 * that day's rest from its runs (in memory where the streaks read that day, else counted per test set).
 */
async function lastHealthyFailures(ctx: LookbackContext, tests: { id: number; day: number }[], daysRead: Map<number, RecentRun[]>, runsAfter: (id: number, day: number) => number): Promise<Map<number, { run: RunRow; runsSince: number }>> {
  const out = new Map<number, { run: RunRow; runsSince: number }>();
  const { lookback: lb } = ctx;
  const bounds = (day: number) => [Math.max(lb.from, bucketStart(lb, day)), Math.min(lb.at, bucketStart(lb, day + 1))];
  const dayOf = new Map(tests.map((t) => [t.id, t.day]));
  // the tests of each day in one statement (PostgreSQL plans only that day's partitions)
  const last = new Map<number, RunRow>();
  for (const day of new Set(tests.map((t) => t.day))) {
    const ids = tests.filter((t) => t.day === day).map((t) => [t.id]);
    const rows = await rowsPerKey(
      ctx.db,
      ids,
      ([test]) => `SELECT ${RUN_ROW} FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.test_id = ${test} AND o.started >= ? AND o.started < ? AND NOT ${BROKEN_RUN} ORDER BY o.started DESC, o.run_id DESC LIMIT 1`,
      bounds(day),
    );
    for (const [id, ...row] of rows) last.set(Number(id), toRunRow(row));
  }
  await forEachQuery(ctx.db, [...last], async ([id, run]) => {
    const day = dayOf.get(id)!;
    const dayEnd = bounds(day)[1];
    let runsSince = runsAfter(id, day);
    const read = daysRead.get(lb.firstCell + day);
    if (read) {
      for (let i = firstAfter(read, run.started); i < read.length && read[i].started < dayEnd; i++) {
        const r = read[i];
        if (!r.broken && executedIn(ctx, r.testSetId, id)) runsSince++;
      }
    } else {
      const rest = await ctx.db.rows(`SELECT r.test_set_id, COUNT(*) FROM ${byTime(ctx.db, 'run', 'r')} WHERE r.started > ? AND r.started < ? AND NOT ${BROKEN_RUN} GROUP BY r.test_set_id`, [run.started, dayEnd]);
      for (const [set, count] of rest) if (executedIn(ctx, set === null ? null : Number(set), id)) runsSince += Number(count);
    }
    out.set(id, { run, runsSince });
  });
  return out;
}

/** The first of runs (in start order) that started after `t`. */
function firstAfter(runs: RecentRun[], t: number): number {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (runs[mid].started <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
