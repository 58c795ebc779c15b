// The numbers of a window for the tests an answer shows, from the rollups: failed, flaked and run
// counts in the window and the one before, per job, per point of a sparkline, the first and last
// failure, and the signatures. The hot list, a test's page and a job's page read them here.
import type { Database } from '../store/db';
import { failureSpans, membersWanted, runCells, testJobDays, testSets, testSignatures, type RunCell } from './rollupWindow';
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
  /** the window, per UTC day: [day start, job, counts] */
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

/** Runs of the given tests per job and bucket start, from run cells and the sets. */
async function runsOf(db: Database, cells: RunCell[], testIds: number[], allowed: Set<number> | null): Promise<Map<number, Map<number, Map<number, number>>>> {
  const sets = await testSets(db, new Set(cells.map((c) => c.setId)));
  const inSet = membersWanted(sets, testIds);
  // test -> job -> bucket -> runs
  const out = new Map<number, Map<number, Map<number, number>>>();
  for (const c of cells) {
    if (!allowedJob(allowed, c.jobId)) continue;
    for (const t of inSet.get(c.setId) ?? []) {
      let byJob = out.get(t);
      if (!byJob) out.set(t, (byJob = new Map()));
      let byAt = byJob.get(c.jobId);
      if (!byAt) byJob.set(c.jobId, (byAt = new Map()));
      byAt.set(c.at, (byAt.get(c.at) ?? 0) + c.runs);
    }
  }
  return out;
}

export async function testWindows(db: Database, span: WindowSpan, testIds: number[], allowed: Set<number> | null): Promise<Map<number, TestWindow>> {
  const out = new Map<number, TestWindow>();
  for (const id of testIds) {
    out.set(id, { testId: id, windowRuns: 0, windowFailed: 0, windowFlaked: 0, prevRuns: 0, prevFailed: 0, prevFlaked: 0, perJob: new Map(), perDay: [], first: null, last: null, signatures: new Map(), sparkline: [] });
  }
  if (!testIds.length) return out;
  const step = sparkStep(span);
  const [failWindow, failPrev, cellsWindow, cellsPrev, spans, sigs] = await Promise.all([
    testJobDays(db, testIds, span.from, span.to),
    testJobDays(db, testIds, span.prevFrom, span.from),
    runCells(db, span.from, span.to, step === DAY ? DAY : HOUR),
    runCells(db, span.prevFrom, span.from, DAY),
    failureSpans(db, testIds, span.from, span.to, allowed),
    testSignatures(db, testIds, span.from, span.to),
  ]);
  const [runsWindow, runsPrev] = await Promise.all([runsOf(db, cellsWindow, testIds, allowed), runsOf(db, cellsPrev, testIds, allowed)]);
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
  for (const c of failWindow) {
    if (!allowedJob(allowed, c.jobId)) continue;
    const w = out.get(c.testId)!;
    w.windowFailed += c.failed;
    w.windowFlaked += c.flaked;
    const j = w.perJob.get(c.jobId) ?? { runs: 0, failed: 0, flaked: 0 };
    w.perJob.set(c.jobId, j);
    j.failed += c.failed;
    j.flaked += c.flaked;
    const d = dayCell(c.testId, Math.floor(c.day / DAY) * DAY, c.jobId);
    d.failed += c.failed;
    d.flaked += c.flaked;
    if (step === DAY) {
      const p = point(c.testId, c.day);
      p.failed += c.failed;
      p.flaked += c.flaked;
    }
  }
  for (const c of failPrev) {
    if (!allowedJob(allowed, c.jobId)) continue;
    const w = out.get(c.testId)!;
    w.prevFailed += c.failed;
    w.prevFlaked += c.flaked;
  }
  for (const [t, byJob] of runsWindow) {
    const w = out.get(t)!;
    for (const [jobId, byAt] of byJob) {
      const j = w.perJob.get(jobId) ?? { runs: 0, failed: 0, flaked: 0 };
      w.perJob.set(jobId, j);
      for (const [at, n] of byAt) {
        w.windowRuns += n;
        j.runs += n;
        dayCell(t, Math.floor(at / DAY) * DAY, jobId).runs += n;
        point(t, at).runs += n;
      }
    }
  }
  for (const [t, byJob] of runsPrev) for (const byAt of byJob.values()) for (const n of byAt.values()) out.get(t)!.prevRuns += n;
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
