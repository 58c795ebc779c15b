// The numbers of a window for the tests an answer shows, from the rollups: failed, flaked and run
// counts in the window and the one before, per job, per point of a sparkline, the first and last
// failure, and the signatures. The hot list, a test's page and a job's page read them here.
import type { Database } from '../store/db';
import { failureSpans, runCells, runsPerJobSet, testJobDays, testSignatures, testTotals, type JobSetRuns, type RunCell } from './rollupWindow';
import { zeros } from './series';
import { testSetHolders } from '../store/testSetBlocks';
import { DAY, HOUR, spansOf } from './spans';
import { iso, type WindowSpan } from './window';

export interface SparkPoint {
  start: string;
  runs: number;
  failed: number;
  flaked: number;
}

export interface JobCounts {
  runs: number;
  failed: number;
  flaked: number;
}

export interface TestWindow {
  testId: number;
  windowRuns: number;
  windowFailed: number;
  windowFlaked: number;
  prevRuns: number;
  prevFailed: number;
  prevFlaked: number;
  /** the window, per job where the test failed or flaked */
  perJob: Map<number, JobCounts>;
  /** the window, per UTC day: [day start, job, counts] (when asked for) */
  perDay: { day: number; jobId: number; counts: JobCounts }[];
  first: number | null;
  last: number | null;
  /** the window: signature id -> runs */
  signatures: Map<number, number>;
  sparkline: SparkPoint[];
}

/** Sparkline points: a UTC day each for week-long windows and longer, else 2 or 6 hours. */
export function sparkStep(span: WindowSpan): number {
  const len = span.to - span.from;
  return len >= 7 * DAY ? DAY : len > DAY ? 6 * HOUR : 2 * HOUR;
}

const allowedJob = (allowed: Set<number> | null, jobId: number) => !allowed || allowed.has(jobId);

/**
 * fn for each test and each job and test set whose runs in `cells` executed it (`inSet`: set id -> the
 * tests it holds): the group's runs per bucket of `bucket` seconds from `base` (n buckets).
 */
function eachTestGroup(cells: RunCell[], inSet: Map<number, readonly number[]>, allowed: Set<number> | null, base: number, bucket: number, n: number, fn: (testId: number, g: JobSetRuns) => void): void {
  // indexed loops: a new process runs them unoptimized, where each step of a for-of is an object made
  // (a hot list's 100 tests in 5,000 groups)
  const groups = runsPerJobSet(cells, base, bucket, n, { allowed });
  for (let i = 0; i < groups.length; i++) {
    const tests = inSet.get(groups[i].setId);
    if (tests) for (let k = 0; k < tests.length; k++) fn(tests[k], groups[i]);
  }
}

/** `perDay`: also each test's counts per job and UTC day (a test's page shows them; the hot list does not). */
export async function testWindows(db: Database, span: WindowSpan, testIds: number[], allowed: Set<number> | null, opts: { perDay?: boolean } = {}): Promise<Map<number, TestWindow>> {
  const out = new Map<number, TestWindow>();
  for (const id of testIds) {
    out.set(id, { testId: id, windowRuns: 0, windowFailed: 0, windowFlaked: 0, prevRuns: 0, prevFailed: 0, prevFlaked: 0, perJob: new Map(), perDay: [], first: null, last: null, signatures: new Map(), sparkline: [] });
  }
  if (!testIds.length) return out;
  const step = sparkStep(span);
  // the window before needs only each test's totals: per test and day (or hour), not per job
  const [failWindow, failPrev, cellsWindow, cellsPrev, spans, sigs] = await Promise.all([
    testJobDays(db, testIds, span.from, span.to),
    testTotals(db, span.prevFrom, span.from, allowed, testIds),
    runCells(db, span.from, span.to, step === DAY ? DAY : HOUR),
    runCells(db, span.prevFrom, span.from, DAY),
    failureSpans(db, testIds, span.from, span.to, allowed),
    testSignatures(db, testIds, span.from, span.to),
  ]);
  const cellBucket = step === DAY ? DAY : HOUR;
  const pointOf = (t: number) => Math.floor(t / step) * step;
  const spark = new Map<number, Map<number, JobCounts>>(); // test -> point -> counts
  const point = (t: number, at: number) => {
    let m = spark.get(t);
    if (!m) spark.set(t, (m = new Map()));
    const p = Math.max(span.from, pointOf(at));
    let c = m.get(p);
    if (!c) m.set(p, (c = { runs: 0, failed: 0, flaked: 0 }));
    return c;
  };
  const perDay = new Map<number, Map<string, { day: number; jobId: number; counts: JobCounts }>>();
  const dayCell = (t: number, day: number, jobId: number) => {
    let m = perDay.get(t);
    if (!m) perDay.set(t, (m = new Map()));
    const k = `${day}|${jobId}`;
    let e = m.get(k);
    if (!e) m.set(k, (e = { day, jobId, counts: { runs: 0, failed: 0, flaked: 0 } }));
    return e.counts;
  };
  failWindow.each((testId, jobId, start, failed, flaked) => {
    if (!allowedJob(allowed, jobId)) return;
    const w = out.get(testId)!;
    w.windowFailed += failed;
    w.windowFlaked += flaked;
    let j = w.perJob.get(jobId);
    if (!j) w.perJob.set(jobId, (j = { runs: 0, failed: 0, flaked: 0 }));
    j.failed += failed;
    j.flaked += flaked;
    if (opts.perDay) {
      const d = dayCell(testId, Math.floor(start / DAY) * DAY, jobId);
      d.failed += failed;
      d.flaked += flaked;
    }
    if (step === DAY) {
      const p = point(testId, start);
      p.failed += failed;
      p.flaked += flaked;
    }
  });
  for (const [t, c] of failPrev) {
    const w = out.get(t);
    if (!w) continue;
    w.prevFailed += c.failed;
    w.prevFlaked += c.flaked;
  }
  // runs: per test and bucket, never per test and job (a hot list's 100 tests run on 800 jobs); a
  // job's runs only where the test failed or flaked there
  const base = Math.floor(span.from / cellBucket) * cellBucket;
  const n = Math.max(1, Math.ceil((span.to - base) / cellBucket));
  // which of the tests each set of either window's runs holds, read once for both
  const inSet = (await testSetHolders(db, new Set([...cellsWindow, ...cellsPrev].map((c) => c.setId)), testIds)).wanted(testIds);
  const runsByTest = new Map<number, number[]>();
  eachTestGroup(cellsWindow, inSet, allowed, base, cellBucket, n, (t, g) => {
    let runs = runsByTest.get(t);
    if (!runs) runsByTest.set(t, (runs = zeros(n)));
    let total = 0;
    for (let i = 0; i < g.buckets.length; i++) {
      const b = g.buckets[i];
      runs[b] += g.runs[b];
      total += g.runs[b];
      if (opts.perDay) dayCell(t, Math.floor(Math.max(span.from, base + b * cellBucket) / DAY) * DAY, g.jobId).runs += g.runs[b];
    }
    const j = out.get(t)!.perJob.get(g.jobId);
    if (j) j.runs += total;
  });
  for (const [t, runs] of runsByTest) {
    const w = out.get(t)!;
    for (let b = 0; b < n; b++) {
      if (!runs[b]) continue;
      w.windowRuns += runs[b];
      point(t, Math.max(span.from, base + b * cellBucket)).runs += runs[b];
    }
  }
  const prevBase = Math.floor(span.prevFrom / DAY) * DAY;
  const prevN = Math.max(1, Math.ceil((span.from - prevBase) / DAY));
  eachTestGroup(cellsPrev, inSet, allowed, prevBase, DAY, prevN, (t, g) => {
    const w = out.get(t)!;
    for (let i = 0; i < g.buckets.length; i++) w.prevRuns += g.runs[g.buckets[i]];
  });
  if (step !== DAY) await addHourlyFailures(db, span, testIds, allowed, point);
  for (const [t, w] of out) {
    const s = spans.get(t);
    if (s) {
      w.first = s.first;
      w.last = s.last;
    }
    w.signatures = sigs.get(t) ?? new Map();
    w.perDay = [...(perDay.get(t)?.values() ?? [])];
    const points = spark.get(t) ?? new Map();
    for (let p = Math.max(span.from, pointOf(span.from)); p < span.to; p = pointOf(p) + step) if (!points.has(p)) points.set(p, { runs: 0, failed: 0, flaked: 0 });
    w.sparkline = [...points].sort((a, b) => a[0] - b[0]).map(([p, c]) => ({ start: iso(p), ...c }));
  }
  return out;
}

/** Failures per sparkline point of a short window: whole hours from the hourly rollup (all jobs), the rest from the runs. */
async function addHourlyFailures(db: Database, span: WindowSpan, testIds: number[], allowed: Set<number> | null, point: (t: number, at: number) => JobCounts): Promise<void> {
  const s = spansOf(span.from, span.to);
  const ids = testIds.join(', ');
  const raw: [number, number][] = [...s.raw];
  const hours: [number, number][] = [...s.hours];
  if (s.days) hours.push([(s.days[0] * DAY) / HOUR, (s.days[1] * DAY) / HOUR]);
  const add = (rows: unknown[][], unit: number) => {
    for (const [t, at, f, fl] of rows) {
      const c = point(Number(t), Number(at) * unit);
      c.failed += Number(f);
      c.flaked += Number(fl);
    }
  };
  if (allowed) raw.push(...hours.map(([a, b]) => [a * HOUR, b * HOUR] as [number, number]));
  else for (const [a, b] of hours) add(await db.rows(`SELECT test_id, hour, failed, flaked FROM rollup_test_hour WHERE test_id IN (${ids}) AND hour >= ? AND hour < ?`, [a, b]), HOUR);
  const jobWhere = allowed ? ` AND job_id IN (${[...allowed].join(', ') || '0'})` : '';
  for (const [a, b] of raw) {
    add(await db.rows(`SELECT test_id, started / ${HOUR}, SUM(CASE WHEN outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 2 THEN 1 ELSE 0 END) FROM test_outcome WHERE test_id IN (${ids}) AND started >= ? AND started < ?${jobWhere} GROUP BY test_id, started / ${HOUR}`, [a, b]), HOUR);
  }
}
