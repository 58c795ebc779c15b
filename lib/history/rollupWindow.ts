// Counts over any time range from the rollups (lib/store/rollups.ts): whole days and hours from their
// tables, the part of an hour at each edge from the runs themselves (spans.ts), so a window is a few
// thousand rows however many runs it holds, and exact for any `at`.
import type { Database } from '../store/db';
import { selectRowsIn } from '../store/bulk';
import { int32Rows, int32RowsIn } from '../store/intRows';
import { byTime } from '../store/sql';
import { BROKEN_RUN } from '../store/rollups';
import { cachedDays, currentDayVersions, readWholeDays, type WholeDays } from './dayCache';
import { TEST_DAYS_BY_JOB, TEST_JOB_DAYS } from '../store/dayPacks';
import { dayRollupChunks, forEachRow, type RowChunk } from './dayRollup';
import { DAY, HOUR, hoursAsDays, spansOf } from './spans';
import { zeros } from './series';

export interface Counts {
  failed: number;
  flaked: number;
}

const idList = (ids: Iterable<number>) => [...ids].join(', ');

/** A table read for a range of time (byTime for every test's rows, as is for a few tests'). */
type TimeTable = (table: 'rollup_test_hour' | 'test_outcome') => string;

/**
 * Reads a query of every test, through the time index, or of `only` a few (a page's window before)
 * through the tests' own index; `query` is given the tests' condition and the table to read, and
 * selects `width` integers a row.
 */
function testsReader(db: Database, only: number[] | undefined): (width: number, query: (testWhere: string, from: TimeTable) => string) => Promise<Int32Array> {
  if (only) return (width, query) => int32RowsIn(db, (p) => query(` AND test_id IN (${p})`, (t) => t), only, width);
  return (width, query) => int32Rows(db, query('', (t) => byTime(db, t)), [], width);
}

/**
 * A count added (sign 1) or taken away (-1) without -0: -1 * 0 is a number object, not a small
 * integer, and one in a field boxes that field in every object of its shape (a lookback's 20,000 cells).
 */
const signed = (sign: number, n: number): number => (sign < 0 ? 0 - n : n);

function bump<K>(m: Map<K, Counts>, k: K, failed: number, flaked: number): void {
  const c = m.get(k);
  if (c) {
    c.failed += failed;
    c.flaked += flaked;
  } else m.set(k, { failed, flaked });
}

/**
 * Failed and flaked runs per test (every test, or `only` those) over [from, to), of every job or only
 * of `jobs`. Without a job filter from the all-jobs rollups, partial days from the hourly one; with
 * one, per job and day (jobTestTotals).
 */
export async function testTotals(db: Database, from: number, to: number, jobs: Set<number> | null, only?: number[]): Promise<Map<number, Counts>> {
  if (jobs) return jobTestTotals(db, from, to, jobs, only);
  const out = new Map<number, Counts>();
  const s = spansOf(from, to);
  const read = testsReader(db, only);
  const add = (rows: Int32Array, sign: number) => {
    for (let i = 0; i < rows.length; i += 3) bump(out, rows[i], signed(sign, rows[i + 1]), signed(sign, rows[i + 2]));
  };
  const days = (d0: number, d1: number) => read(3, (w) => `SELECT test_id, SUM(failed), SUM(flaked) FROM rollup_test_total WHERE day >= ${d0} AND day < ${d1}${w} GROUP BY test_id`);
  const hours = (a: number, b: number) => read(3, (w, t) => `SELECT test_id, SUM(failed), SUM(flaked) FROM ${t('rollup_test_hour')} WHERE hour >= ${a} AND hour < ${b}${w} GROUP BY test_id`);
  // [rows, +1 or -1]: most of a day's hours as the day less its other hours (a twentieth of the rows)
  const reads: Promise<[Int32Array, number]>[] = [];
  const plus = (rows: Promise<Int32Array>, sign = 1) => reads.push(rows.then((r) => [r, sign]));
  if (s.days) plus(days(s.days[0], s.days[1]));
  const h = hoursAsDays(s.hours);
  for (const [a, b] of h.hours) plus(hours(a, b));
  for (const d of h.days) plus(days(d, d + 1));
  for (const [a, b] of h.less) plus(hours(a, b), -1);
  for (const [a, b] of s.raw) {
    plus(read(3, (w, t) => `SELECT test_id, SUM(CASE WHEN outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 2 THEN 1 ELSE 0 END) FROM ${t('test_outcome')} WHERE started >= ${a} AND started < ${b}${w} GROUP BY test_id`));
  }
  for (const [rows, sign] of await Promise.all(reads)) add(rows, sign);
  for (const [t, c] of out) if (!c.failed && !c.flaked) out.delete(t);
  return out;
}

/**
 * testTotals of some jobs (a filtered hot list: a release, a platform, a job pattern), per test summed
 * over the jobs and days: whole days from the jobs' day packs (each job's tests of a day in one row) or
 * else from rollup_test_day, partial days as dayRollup.ts reads them (for now, today's rows). A few
 * tests (`only`: a page's window before) are read through their own index instead.
 */
async function jobTestTotals(db: Database, from: number, to: number, jobs: Set<number>, only?: number[]): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>();
  if (!jobs.size) return out;
  const jobWhere = `job_id IN (${idList(jobs)})`;
  const read = testsReader(db, only);
  const chunks = await dayRollupChunks(db, from, to, {
    keyLength: 1,
    width: 4,
    // rows [test, d0, failed, flaked]: the days summed (what is asked of them is each test's sum)
    whole: async (d0, d1) => {
      if (only) return [await read(4, (w) => `SELECT test_id, ${d0}, SUM(failed), SUM(flaked) FROM rollup_test_day WHERE day >= ${d0} AND day < ${d1} AND ${jobWhere}${w} GROUP BY test_id`)];
      // the days no pack stands for come summed over the jobs already ([0, test, day, failed, flaked])
      const unpacked: WholeDays = (_, a, b, orderBy) => int32Rows(db, `SELECT 0, test_id, day, SUM(failed), SUM(flaked) FROM rollup_test_day WHERE day >= ${a} AND day < ${b} AND ${jobWhere} GROUP BY test_id, day`, [], 5, orderBy);
      const perJob = await readWholeDays(db, 5, 2, [...jobs], d0, d1, await currentDayVersions(db), unpacked, TEST_DAYS_BY_JOB);
      const sums = new Map<number, number[]>();
      for (const c of perJob.values()) {
        for (let i = 0; i < c.length; i += 5) {
          const sum = sums.get(c[i + 1]);
          if (sum) [sum[2], sum[3]] = [sum[2] + c[i + 3], sum[3] + c[i + 4]];
          else sums.set(c[i + 1], [c[i + 1], d0, c[i + 3], c[i + 4]]);
        }
      }
      return [Int32Array.from([...sums.values()].flat())];
    },
    // every test's part of a day through the jobs' runs and each run's outcomes by its start: the time
    // index alone is every job's (a release's 67 jobs of 400 ran 580 runs in 3.5 hours, where the
    // range held 210,000 outcomes: 40 against 124 ms on PostgreSQL, 14-21 against 22-95 ms on SQLite)
    part: (a, b) =>
      only
        ? read(4, (w, t) => `SELECT test_id, ${Math.floor(a / DAY)}, SUM(CASE WHEN outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 2 THEN 1 ELSE 0 END) FROM ${t('test_outcome')} WHERE started >= ${a} AND started < ${b} AND ${jobWhere}${w} GROUP BY test_id`)
        : int32Rows(
            db,
            `SELECT o.test_id, ${Math.floor(a / DAY)}, SUM(CASE WHEN o.outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN o.outcome = 2 THEN 1 ELSE 0 END)
             FROM run r JOIN ${byTime(db, 'test_outcome', 'o')} ON o.run_id = r.id AND o.started = r.started
             WHERE r.${jobWhere} AND r.started >= ${a} AND r.started < ${b} AND o.started >= ${a} AND o.started < ${b} GROUP BY o.test_id`,
            [],
            4,
          ),
  });
  forEachRow(chunks, 4, 1, (c, i) => bump(out, c[i], c[i + 2], c[i + 3]));
  return out;
}

/**
 * The given tests' failures per job and bucket (a UTC day, or the part of one the range covers): all
 * of them, and those in broken runs. Hundreds of thousands at scale, so read through `each`.
 */
export class JobCells {
  constructor(private readonly chunks: RowChunk[]) {}

  /** `day`: the UTC day number of the row's bucket (`start` is in it). */
  each(fn: (testId: number, jobId: number, start: number, failed: number, flaked: number, failedBroken: number, flakedBroken: number, day: number) => void): void {
    forEachRow(this.chunks, 7, 2, (c, i, start) => fn(c[i], c[i + 1], start, c[i + 3], c[i + 4], c[i + 5], c[i + 6], c[i + 2]));
  }
}

/**
 * The given tests' failures per job and UTC day over [from, to): whole days from rollup_test_day, the
 * partial days at the ends from the runs or as their day less the rest (dayRollup.ts).
 */
export async function testJobDays(db: Database, testIds: number[], from: number, to: number): Promise<JobCells> {
  if (!testIds.length) return new JobCells([]);
  return new JobCells(await dayRollupChunks(db, from, to, {
    keyLength: 2,
    width: 7,
    memo: `test job days ${testIds.join(',')}`,
    whole: (d0, d1) => cachedDays(db, TEST_JOB_DAYS.name, 7, 2, testIds, d0, d1, (ids, a, b, orderBy) => int32RowsIn(db, (p) => `SELECT test_id, job_id, day, failed, flaked, failed_broken, flaked_broken FROM rollup_test_day WHERE test_id IN (${p}) AND day >= ${a} AND day < ${b}`, ids, 7, orderBy), TEST_JOB_DAYS),
    // the broken runs of the part, a few, looked up as a set: not a join of every outcome to its run
    part: (a, b) => {
      const broken = `o.run_id IN (SELECT r.id FROM ${byTime(db, 'run', 'r')} WHERE r.started >= ${a} AND r.started < ${b} AND ${BROKEN_RUN})`;
      return int32RowsIn(
        db,
        (p) => `SELECT o.test_id, o.job_id, o.started / ${DAY}, SUM(CASE WHEN o.outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN o.outcome = 2 THEN 1 ELSE 0 END),
                       SUM(CASE WHEN o.outcome = 1 AND ${broken} THEN 1 ELSE 0 END), SUM(CASE WHEN o.outcome = 2 AND ${broken} THEN 1 ELSE 0 END)
                FROM test_outcome o WHERE o.test_id IN (${p}) AND o.started >= ${a} AND o.started < ${b} GROUP BY o.test_id, o.job_id, o.started / ${DAY}`,
        testIds,
        7,
      );
    },
  }));
}

/** Runs of one job with one executed-test set in one bucket. */
export interface RunCell {
  jobId: number;
  setId: number;
  /** start of the bucket: a UTC day, or an hour when asked for hours */
  at: number;
  runs: number;
  broken: number;
}

/**
 * Runs per job, test set and bucket over [from, to), buckets of `bucket` seconds (a day or an hour):
 * whole days and hours from the run rollups, the edges from the run table.
 */
export async function runCells(db: Database, from: number, to: number, bucket: typeof DAY | typeof HOUR = DAY): Promise<RunCell[]> {
  const out: RunCell[] = [];
  const s = spansOf(from, to);
  const push = (rows: Int32Array, unit: number, sign: number) => {
    for (let i = 0; i < rows.length; i += 5) {
      out.push({ jobId: rows[i], setId: rows[i + 1], at: Math.floor((rows[i + 2] * unit) / bucket) * bucket, runs: signed(sign, rows[i + 3]), broken: signed(sign, rows[i + 4]) });
    }
  };
  // [rows [job, set, bucket, runs, broken] flattened, seconds in their bucket column's unit, +1 or -1], read at once
  const reads: Promise<[Int32Array, number, number]>[] = [];
  const read = (unit: number, sql: string, params: number[], sign = 1) => reads.push(int32Rows(db, sql, params, 5).then((rows) => [rows, unit, sign]));
  const days = (d0: number, d1: number) => read(DAY, 'SELECT job_id, test_set_id, day, runs, broken FROM rollup_run_day WHERE day >= ? AND day < ?', [d0, d1]);
  const hours = (a: number, b: number, sign = 1) => read(HOUR, 'SELECT job_id, test_set_id, hour, runs, broken FROM rollup_run_hour WHERE hour >= ? AND hour < ?', [a, b], sign);
  if (s.days) {
    if (bucket === DAY) days(s.days[0], s.days[1]);
    else hours((s.days[0] * DAY) / HOUR, (s.days[1] * DAY) / HOUR);
  }
  // in day buckets, most of a day's hours as the day less its other hours (a window's first day at an
  // `at` of 02:30 is 21 hours of 1,400 jobs and test sets)
  const h = bucket === DAY ? hoursAsDays(s.hours) : { hours: s.hours, days: [], less: [] };
  for (const [a, b] of h.hours) hours(a, b);
  for (const d of h.days) days(d, d + 1);
  for (const [a, b] of h.less) hours(a, b, -1);
  const less = h.less.length > 0;
  for (const [a, b] of s.raw) {
    read(HOUR, `SELECT r.job_id, COALESCE(r.test_set_id, 0), r.started / ${HOUR}, COUNT(*), SUM(CASE WHEN ${BROKEN_RUN} THEN 1 ELSE 0 END) FROM ${byTime(db, 'run', 'r')} WHERE r.started >= ? AND r.started < ? GROUP BY r.job_id, COALESCE(r.test_set_id, 0), r.started / ${HOUR}`, [a, b]);
  }
  for (const [rows, unit, sign] of await Promise.all(reads)) push(rows, unit, sign);
  return less ? netCells(out) : out;
}

/**
 * Cells of the same job, test set and bucket summed, those left at nothing dropped; keyed in maps of
 * numbers (a lookback's 20,000 cells made a string each).
 */
function netCells(cells: RunCell[]): RunCell[] {
  const byKey = new Map<number, Map<number, Map<number, RunCell>>>();
  const out: RunCell[] = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    let bySet = byKey.get(c.jobId);
    if (!bySet) byKey.set(c.jobId, (bySet = new Map()));
    let byAt = bySet.get(c.setId);
    if (!byAt) bySet.set(c.setId, (byAt = new Map()));
    const got = byAt.get(c.at);
    if (got) {
      got.runs += c.runs;
      got.broken += c.broken;
    } else {
      const copy = { ...c };
      byAt.set(c.at, copy);
      out.push(copy);
    }
  }
  return out.filter((c) => c.runs || c.broken);
}

/** A job and test set's runs per bucket. */
export interface JobSetRuns {
  jobId: number;
  setId: number;
  runs: number[];
  /** the buckets of `runs` that are not zero, ascending (a set is often one job's for a day) */
  buckets: number[];
}

/**
 * What runsPerJobSet counts of a cell: its healthy runs (a verdict's), or every run of the allowed
 * jobs (a window's; null: of every job). Said, not a callback: two callbacks in one loop sent V8's
 * compiled loop back each time the other came (five compiles a call, now three).
 */
export type CellRuns = 'healthy' | { allowed: Set<number> | null };

/**
 * Run cells summed per job and test set, the runs `count` says of each (cells counting nothing are
 * left out) into `n` buckets of `bucket` seconds from `base`: what every test of the set then takes whole.
 */
export function runsPerJobSet(cells: RunCell[], base: number, bucket: number, n: number, count: CellRuns): JobSetRuns[] {
  const healthy = count === 'healthy';
  const allowed = count === 'healthy' ? null : count.allowed;
  // keyed in maps of numbers and read in indexed loops: a lookback's 20,000 cells, in a new process
  // unoptimized, made a string key and a for-of step object each
  const byJob = new Map<number, Map<number, JobSetRuns>>();
  const out: JobSetRuns[] = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    const v = healthy ? c.runs - c.broken : allowed && !allowed.has(c.jobId) ? 0 : c.runs;
    if (v <= 0) continue;
    let bySet = byJob.get(c.jobId);
    if (!bySet) byJob.set(c.jobId, (bySet = new Map()));
    let g = bySet.get(c.setId);
    if (!g) {
      bySet.set(c.setId, (g = { jobId: c.jobId, setId: c.setId, runs: zeros(n), buckets: [] }));
      out.push(g);
    }
    g.runs[Math.min(n - 1, Math.max(0, Math.floor((c.at - base) / bucket)))] += v;
  }
  for (let i = 0; i < out.length; i++) for (let b = 0; b < n; b++) if (out[i].runs[b]) out[i].buckets.push(b);
  return out;
}

/** The first and last failure or flake of each test in [from, to) (one index lookup each). */
export async function failureSpans(db: Database, testIds: number[], from: number, to: number, jobs: Set<number> | null = null): Promise<Map<number, { first: number; last: number }>> {
  const jobWhere = jobs ? ` AND o.job_id IN (${idList(jobs) || '0'})` : '';
  const rows = await selectRowsIn(
    db,
    (p) => `SELECT t.id, (SELECT MIN(o.started) FROM test_outcome o WHERE o.test_id = t.id AND o.started >= ${from} AND o.started < ${to}${jobWhere}),
                   (SELECT MAX(o.started) FROM test_outcome o WHERE o.test_id = t.id AND o.started >= ${from} AND o.started < ${to}${jobWhere})
            FROM test t WHERE t.id IN (${p})`,
    testIds,
  );
  const out = new Map<number, { first: number; last: number }>();
  for (const [id, first, last] of rows) if (first !== null) out.set(Number(id), { first: Number(first), last: Number(last) });
  return out;
}

/**
 * Failed and flaked runs per (test, signature) over [from, to), keyed by `by` and then by the other:
 * whole days from the rollup, the ends as dayRollup.ts reads them.
 */
export async function testSignaturePairs(db: Database, by: 'test_id' | 'signature_id', ids: number[], from: number, to: number): Promise<Map<number, Map<number, number>>> {
  const other = by === 'test_id' ? 'signature_id' : 'test_id';
  const out = new Map<number, Map<number, number>>();
  if (!ids.length) return out;
  const chunks = await dayRollupChunks(db, from, to, {
    keyLength: 2,
    width: 4,
    whole: (d0, d1) => cachedDays(db, `rollup_sig_test_day by ${by}`, 4, 2, ids, d0, d1, (some, a, b, orderBy) => int32RowsIn(db, (p) => `SELECT ${by}, ${other}, day, failed + flaked FROM rollup_sig_test_day WHERE ${by} IN (${p}) AND day >= ${a} AND day < ${b}`, some, 4, orderBy)),
    part: (a, b) => int32RowsIn(db, (p) => `SELECT ${by}, ${other}, started / ${DAY}, COUNT(*) FROM test_outcome WHERE ${by} IN (${p}) AND started >= ${a} AND started < ${b} AND signature_id IS NOT NULL GROUP BY ${by}, ${other}, started / ${DAY}`, ids, 4),
  });
  forEachRow(chunks, 4, 2, (c, i) => {
    let m = out.get(c[i]);
    if (!m) out.set(c[i], (m = new Map()));
    m.set(c[i + 1], (m.get(c[i + 1]) ?? 0) + c[i + 3]);
  });
  return out;
}

/** Each test's signatures in [from, to), with the runs of each. */
export const testSignatures = (db: Database, testIds: number[], from: number, to: number) => testSignaturePairs(db, 'test_id', testIds, from, to);

