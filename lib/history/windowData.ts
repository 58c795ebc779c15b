// Loads what every answer about a time window needs, in three queries: the jobs, the runs of the
// window and the one before it, and their non-passing outcomes; plus the executed-test sets.
import { jobVariants } from '../parse/variants';
import type { Database } from '../store/db';
import { loadTestSets } from '../store/testSets';
import { copyRow, emptyColumns, firstAtOrAfter, recentData, sliceColumns, type OutcomeColumns } from './recentData';
import type { JobInfo, RunInfo } from './types';
import type { WindowSpan } from './window';
import { compileRegex } from '../patterns';

export interface JobFilter {
  /** regex over job names (a user's) */
  job?: string;
  /** exactly this job (a job page's; a name may be longer than any pattern) */
  jobName?: string;
  release?: string;
  platform?: string;
  upgrade?: boolean;
}

export interface LoadedWindow {
  span: WindowSpan;
  jobs: Map<number, JobInfo>;
  /** runs of [prevFrom, to) that pass the job filter, in start order */
  runs: RunInfo[];
  /** indexed by run id (a sparse array: faster than a Map on the hot path) */
  runById: RunInfo[];
  /** their non-passing outcomes */
  outcomes: OutcomeColumns;
  sets: Map<number, Int32Array>;
}

export async function loadJobs(db: Database): Promise<JobInfo[]> {
  const rows = await db.all<{ id: number; name: string }>('SELECT id, name FROM job ORDER BY name');
  return rows.map((r) => {
    const v = jobVariants(r.name);
    return { id: r.id, name: r.name, release: v.release, platform: v.platform, upgrade: v.upgrade, kind: v.kind };
  });
}

/** The ids of the jobs the filter keeps, or null when it keeps all. */
export function filterJobs(jobs: JobInfo[], f: JobFilter): Set<number> | null {
  if (!f.job && f.jobName === undefined && !f.release && !f.platform && f.upgrade === undefined) return null;
  const re = f.job ? compileRegex(f.job, 'job') : undefined;
  return new Set(
    jobs
      .filter((j) => (!re || re.test(j.name)) && (f.jobName === undefined || j.name === f.jobName) && (!f.release || j.release === f.release) && (!f.platform || j.platform === f.platform) && (f.upgrade === undefined || j.upgrade === f.upgrade))
      .map((j) => j.id),
  );
}

/** Loads a window; with `testId`, only that test's outcomes (a test page needs no others). */
export async function loadWindow(db: Database, span: WindowSpan, filter: JobFilter, testId?: number): Promise<LoadedWindow> {
  const jobList = await loadJobs(db);
  const allowed = filterJobs(jobList, filter);
  const data = await recentData(db, span.prevFrom, span.to);
  const between = data.runsBetween(span.prevFrom, span.to);
  const runs = allowed ? between.filter((r) => allowed.has(r.jobId)) : between;
  const runById: RunInfo[] = [];
  for (const r of runs) runById[r.id] = r;
  const setIds = new Set<number>();
  for (const r of runs) if (r.testSetId !== null) setIds.add(r.testSetId);
  // The window's outcomes are a contiguous range of the start-ordered columns: views when nothing
  // else narrows them, else one copying pass (a job filter, or a single test's page).
  const src = data.outcomes;
  const lo = firstAtOrAfter(src, span.prevFrom);
  const hi = firstAtOrAfter(src, span.to);
  let outcomes: OutcomeColumns;
  if (!allowed && testId === undefined) outcomes = sliceColumns(src, lo, hi);
  else {
    outcomes = emptyColumns(hi - lo);
    let n = 0;
    for (let i = lo; i < hi; i++) {
      if ((testId !== undefined && src.testId[i] !== testId) || (allowed && !allowed.has(src.jobId[i]))) continue;
      copyRow(src, i, outcomes, n++);
    }
    outcomes.length = n;
  }
  const sets = await loadTestSets(db, setIds);
  return { span, jobs: new Map(jobList.map((j) => [j.id, j])), runs, runById, outcomes, sets };
}
