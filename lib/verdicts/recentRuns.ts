// A job's latest runs and a test's outcome in them, for streaks ("failed its last 4 runs") and the
// runs a streak's evidence names. Runs are looked for in the last LATEST_SECONDS before `at`, a day at
// a time from `at` back until every streak has its runs: their whole days come from memory while the
// day version stands (lib/history/dayCache.ts), only today's part from the database. Outcomes are
// read only for the runs a streak is counted on, each test's latest LATEST_RUNS healthy runs of the
// jobs where it may be failing now: at 24,000 runs a day those are the last few hours of most jobs,
// where the span's three days held 1.4 million outcomes of a hot list's 100 tests at four times the
// failure density.
import { cachedDay, currentDayVersions } from '../history/dayCache';
import { daysKept } from '../history/dayKeeping';
import { DAY } from '../history/spans';
import { outcomesOfTests, RECENT_RUN, recentRunsOfCells, toRecentRun, type RecentRun } from './runRows';
import type { Database } from '../store/db';
import { byTime } from '../store/sql';
import { int64Rows, int64RowsPerKey, smallInt } from '../store/intRows';
import type { Lookback } from './lookback';

/** How far back a job's latest runs are looked for (a streak is of what is happening now). */
export const LATEST_SECONDS = 3 * 86_400;
/** The test's outcome in this many of each job's latest runs is kept (for streaks). */
export const LATEST_RUNS = 10;

/** What a test's streaks are looked for on. */
export interface StreakAsk {
  /** job -> start of the UTC day of the test's last failure there in a healthy run */
  lastFailureDay: Map<number, number>;
  /** the test's non-passing outcomes a second in the lookback: what reading a span of them costs */
  rowsPerSecond: number;
}

export interface RecentRuns {
  /** job -> its runs since `recentFrom`, newest first */
  recentRuns: Map<number, RecentRun[]>;
  /** how far back recentRuns go: the span's start, or a later day's once every streak had its runs */
  recentFrom: number;
  /** every run of each day read (day number -> runs in start order; the day of `at` up to `at`) */
  days: Map<number, RecentRun[]>;
  /** test -> job -> its outcome in the job's latest healthy runs that executed it, newest first: 0 passed, 1 failed, 2 flaked */
  latest: Map<number, Map<number, number[]>>;
  /** test -> run -> 1 failed, 2 flaked, in the runs of `latest` (a run of those not there: passed) and any other run of the span read */
  recentOutcomes: Map<number, Map<number, number>>;
}

/** Every run started in [a, b) (of the given jobs only, if any), in start order (a day's 24,000 read flat). */
async function runsBetween(db: Database, a: number, b: number, jobs?: ReadonlySet<number>): Promise<RecentRun[]> {
  const ofJobs = jobs ? ` AND r.job_id IN (${[...jobs].map(Math.floor).join(', ')})` : '';
  return recentRunsOfCells(await int64Rows(db, `SELECT ${RECENT_RUN} FROM ${byTime(db, 'run', 'r')} WHERE r.started >= ? AND r.started < ?${ofJobs}`, [a, b], 5, [2, 0]));
}

/**
 * The recent runs of the given jobs, newest first per job, read a day at a time from the day of `at`
 * back until `waiting` (the jobs whose runs are still wanted) is empty or the span is read. The day of
 * `at` is read whole; a day before it whole through the day cache where the process keeps days
 * (daysKept) or `wholeDays` asks for it, else only the waiting jobs' runs of it: a CLI call wanted a
 * few dozen jobs' runs of the day before and read all 24,000. `from`: every job's runs are there from
 * that time on (a job waited on, back to the span's start).
 */
async function recentRunsOf(
  db: Database,
  lb: Lookback,
  jobs: Set<number>,
  waiting: (runs: Map<number, RecentRun[]>) => ReadonlySet<number>,
  wholeDays: ReadonlySet<number>,
): Promise<{ runs: Map<number, RecentRun[]>; from: number; days: Map<number, RecentRun[]> }> {
  const out = new Map<number, RecentRun[]>();
  const days = new Map<number, RecentRun[]>();
  const from = lb.at - LATEST_SECONDS;
  if (!jobs.size) return { runs: out, from, days };
  const today = Math.floor(lb.at / DAY);
  const versions = await currentDayVersions(db);
  let wanted: ReadonlySet<number> = jobs;
  let everyJobFrom = Infinity; // where the days read whole for every job, from today back, begin
  for (let d = today; d >= Math.floor(from / DAY); d--) {
    let day: RecentRun[];
    const whole = d === today || wholeDays.has(d) || daysKept();
    if (whole) {
      day = d === today ? await runsBetween(db, today * DAY, lb.at) : await cachedDay(db, 'runs', d, versions, (x) => runsBetween(db, x * DAY, (x + 1) * DAY));
      days.set(d, day);
      if (everyJobFrom === (d + 1) * DAY || d === today) everyJobFrom = d * DAY;
    } else day = await runsBetween(db, d * DAY, (d + 1) * DAY, wanted);
    // a whole day adds every job's runs (so `from` holds), another only the waiting jobs'
    const adding = whole ? jobs : wanted;
    for (let i = day.length - 1; i >= 0; i--) {
      const r = day[i];
      if (r.started < from || !adding.has(r.jobId)) continue;
      let list = out.get(r.jobId);
      if (!list) out.set(r.jobId, (list = []));
      list.push(r);
    }
    if (d * DAY > from) {
      wanted = waiting(out);
      if (!wanted.size) return { runs: out, from: everyJobFrom, days };
    }
  }
  return { runs: out, from: Math.max(from, everyJobFrom), days };
}

/** A probe of one run's outcome costs about as much as reading this many rows of a span. */
const PROBE_ROWS = 4;

/**
 * Where to read a test's outcomes in the runs given (their starts): a span [from, at) read whole, and
 * the runs before it probed one by one, whichever mix reads least.
 */
export function readPlan(starts: ArrayLike<number>, at: number, rowsPerSecond: number): { from: number; probed: number[] } {
  // ascending in a typed array, read from its end: a numeric sort without a comparator called (a hot
  // list's 100 tests have 3,000 latest runs each). Copied by the constructor, not Float64Array.from,
  // which goes through an iterator; the best so far in two numbers, not an object made at each better
  // one (a hot list made 11 MB of them).
  const asc = new Float64Array(starts).sort();
  const n = asc.length;
  let bestFrom = at;
  let bestCost = PROBE_ROWS * n;
  for (let i = n - 1; i >= 0; i--) {
    if (i > 0 && asc[i - 1] === asc[i]) continue; // a span takes every run of its first second
    const cost = rowsPerSecond * (at - asc[i]) + PROBE_ROWS * i;
    if (cost < bestCost) {
      bestFrom = asc[i];
      bestCost = cost;
    }
  }
  const probed: number[] = [];
  for (let i = n - 1; i >= 0; i--) if (asc[i] < bestFrom) probed.push(asc[i]);
  return { from: bestFrom, probed };
}

/**
 * For each test, the jobs of its `lastFailureDay`: the runs its streaks are counted on and its
 * outcomes there. A job whose latest run that executed the test came on a later day than the test's
 * last failure there has no streak, and nothing is read for it. `wholeDays`: days (UTC day numbers)
 * to read whole whatever the streaks need of them (the caller counts runs on them).
 */
export async function latestOutcomes(db: Database, lb: Lookback, asks: Map<number, StreakAsk>, executes: (setId: number | null, testId: number) => boolean, wholeDays: ReadonlySet<number>): Promise<RecentRuns> {
  const jobs = new Set<number>();
  for (const a of asks.values()) for (const j of a.lastFailureDay.keys()) jobs.add(j);
  // each test's latest LATEST_RUNS healthy runs on each job it asks about that executed it
  // (indexed loops: asked of every test and job, unoptimized in a new process, where a for-of makes
  // an object each step)
  const countedOn = (runs: RecentRun[] | undefined, testId: number): RecentRun[] => {
    const out: RecentRun[] = [];
    for (let i = 0; runs && i < runs.length; i++) {
      const r = runs[i];
      if (r.broken || !executes(r.testSetId, testId)) continue;
      out.push(r);
      if (out.length >= LATEST_RUNS) break;
    }
    return out;
  };
  // whether a test has its LATEST_RUNS on a job yet, asked of every test and job after each day read:
  // the runs counted then are kept (days read later only add older runs after them)
  const complete = new Map<number, Map<number, RecentRun[]>>();
  let waiting = [...asks].flatMap(([testId, ask]) => [...ask.lastFailureDay.keys()].map((jobId) => ({ testId, jobId })));
  const { runs: recentRuns, from, days } = await recentRunsOf(db, lb, jobs, (runs) => {
    waiting = waiting.filter(({ testId, jobId }) => {
      const counted = countedOn(runs.get(jobId), testId);
      if (counted.length < LATEST_RUNS) return true;
      let mine = complete.get(testId);
      if (!mine) complete.set(testId, (mine = new Map()));
      mine.set(jobId, counted);
      return false;
    });
    return new Set(waiting.map((w) => w.jobId));
  }, wholeDays);
  const latest = new Map<number, Map<number, number[]>>();
  const recentOutcomes = new Map<number, Map<number, number>>();
  const reads: { testId: number; counted: Map<number, RecentRun[]>; rowsPerSecond: number }[] = [];
  asks.forEach((ask, testId) => {
    const counted = new Map<number, RecentRun[]>();
    ask.lastFailureDay.forEach((lastFailureDay, jobId) => {
      const runs = complete.get(testId)?.get(jobId) ?? countedOn(recentRuns.get(jobId), testId);
      if (runs.length && Math.floor(runs[0].started / DAY) * DAY <= lastFailureDay) counted.set(jobId, runs);
    });
    if (counted.size) reads.push({ testId, counted, rowsPerSecond: ask.rowsPerSecond });
  });
  // (each test's 3,000-odd runs' starts in a typed array: no array of its runs made, then one of their starts)
  const plans = reads.map((read) => {
    let n = 0;
    read.counted.forEach((runs) => (n += runs.length));
    const starts = new Float64Array(n);
    let k = 0;
    read.counted.forEach((runs) => {
      for (let i = 0; i < runs.length; i++) starts[k++] = runs[i].started;
    });
    return { ...read, plan: readPlan(starts, lb.at, read.rowsPerSecond), outcomes: new Map<number, number>() };
  });
  const byTest = new Map(plans.map((p) => [p.testId, p]));
  // every outcome read is kept, those of the span's other runs too: a streak is named on the runs
  // counted (lib/verdicts/judge.ts), and sifting 29,000 rows through a set of 200,000 run ids cost more
  const keep = (p: (typeof plans)[number], run: unknown, o: unknown) => p.outcomes.set(Number(run), Number(o));
  // each test's span in one statement for all of them, then the runs before it probed
  const spans = plans.filter((p) => p.plan.from < lb.at).map((p) => [p.testId, p.plan.from]);
  // [test, from, run, outcome] each, read flat: 29,000 of them at OpenShift's scale
  const spanRows = await int64RowsPerKey(db, spans, ([test, from]) => `SELECT run_id, outcome FROM test_outcome WHERE test_id = ${test} AND started >= ${from} AND started < ?`, [lb.at], 2);
  for (let i = 0; i < spanRows.length; i += 4) keep(byTest.get(smallInt(spanRows[i]))!, smallInt(spanRows[i + 2]), smallInt(spanRows[i + 3]));
  const probed = new Map<number, RecentRun[]>();
  for (const p of plans) {
    const before: RecentRun[] = [];
    p.counted.forEach((runs) => {
      for (let i = 0; i < runs.length; i++) if (runs[i].started < p.plan.from) before.push(runs[i]);
    });
    probed.set(p.testId, before);
  }
  for (const [testId, run, o] of await outcomesOfTests(db, probed)) keep(byTest.get(Number(testId))!, run, o);
  for (const { testId, counted, outcomes } of plans) {
    recentOutcomes.set(testId, outcomes);
    latest.set(testId, new Map([...counted].map(([jobId, rs]) => [jobId, rs.map((r) => outcomes.get(r.id) ?? 0)])));
  }
  return { recentRuns, recentFrom: from, days, latest, recentOutcomes };
}

/** One job's runs of the whole span, newest first: for a streak longer than LATEST_RUNS when the recent runs read stop short of the span. */
export async function jobRunsOfSpan(db: Database, lb: Lookback, jobId: number): Promise<RecentRun[]> {
  return (await db.rows(`SELECT ${RECENT_RUN} FROM run r WHERE r.job_id = ? AND r.started >= ? AND r.started < ? ORDER BY r.started DESC, r.id DESC`, [jobId, lb.at - LATEST_SECONDS, lb.at])).map(toRecentRun);
}

/** The test's outcomes in one job's runs of the whole span (run id -> 1 failed, 2 flaked): for a streak longer than LATEST_RUNS. */
export async function outcomesOnJob(db: Database, lb: Lookback, testId: number, jobId: number): Promise<Map<number, number>> {
  const rows = await db.rows('SELECT run_id, outcome FROM test_outcome WHERE test_id = ? AND job_id = ? AND started >= ? AND started < ?', [testId, jobId, lb.at - LATEST_SECONDS, lb.at]);
  return new Map(rows.map(([run, o]) => [Number(run), Number(o)]));
}
