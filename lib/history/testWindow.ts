// The numbers of a window for the tests an answer shows, from the rollups: failed, flaked and run
// counts in the window and the one before, per job, per point of a sparkline, the first and last
// failure, and the signatures. The hot list, a test's page and a job's page read them here.
import type { Database } from '../store/db';
import { failureSpans, membersWanted, runCells, runsPerJobSet, testJobDays, testSignatures, testTotals, type RunCell } from './rollupWindow';
import { loadTestSets } from '../store/testSets';
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
  /** the window, per job */
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

/** Runs of the given tests per job, in buckets from `base` (one number per bucket), from run cells and the sets. */
interface RunsOf {
  base: number;
  bucket: number;
  /** test -> job -> runs per bucket */
  byTest: Map<number, Map<number, number[]>>;
}

async function runsOf(db: Database, cells: RunCell[], testIds: number[], allowed: Set<number> | null, from: number, to: number, bucket: number): Promise<RunsOf> {
  const sets = await loadTestSets(db, new Set(cells.map((c) => c.setId)));
  const inSet = membersWanted(sets, testIds);
  const base = Math.floor(from / bucket) * bucket;
  const n = Math.max(1, Math.ceil((to - base) / bucket));
  const byTest = new Map<number, Map<number, number[]>>();
  for (const g of runsPerJobSet(cells, base, bucket, n, (c) => (allowedJob(allowed, c.jobId) ? c.runs : 0))) {
    for (const t of inSet.get(g.setId) ?? []) {
      let byJob = byTest.get(t);
      if (!byJob) byTest.set(t, (byJob = new Map()));
      const runs = byJob.get(g.jobId);
      if (!runs) byJob.set(g.jobId, g.runs.slice());
      else for (const b of g.buckets) runs[b] += g.runs[b];
    }
  }
  return { base, bucket, byTest };
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
  const [runsWindow, runsPrev] = await Promise.all([runsOf(db, cellsWindow, testIds, allowed, span.from, span.to, cellBucket), runsOf(db, cellsPrev, testIds, allowed, span.prevFrom, span.from, DAY)]);
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
  for (const [t, byJob] of runsWindow.byTest) {
    const w = out.get(t)!;
    for (const [jobId, runs] of byJob) {
      const j = w.perJob.get(jobId) ?? { runs: 0, failed: 0, flaked: 0 };
      w.perJob.set(jobId, j);
      for (let i = 0; i < runs.length; i++) {
        const n = runs[i];
        if (!n) continue;
        const at = Math.max(span.from, runsWindow.base + i * runsWindow.bucket);
        w.windowRuns += n;
        j.runs += n;
        if (opts.perDay) dayCell(t, Math.floor(at / DAY) * DAY, jobId).runs += n;
        point(t, at).runs += n;
      }
    }
  }
  for (const [t, byJob] of runsPrev.byTest) for (const runs of byJob.values()) for (let i = 0; i < runs.length; i++) out.get(t)!.prevRuns += runs[i];
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
