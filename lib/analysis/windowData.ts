// Loads what every answer about a time window needs, in three queries: the jobs, the runs of the
// window and the one before it, and their non-passing outcomes; plus the executed-test sets.
import { jobVariants } from '../parse/variants';
import type { Database } from '../store/db';
import { loadTestSets } from '../store/testSets';
import { InvalidQueryError, type WindowSpan } from './window';

export interface JobInfo {
  id: number;
  name: string;
  release?: string;
  platform?: string;
  upgrade: boolean;
  kind: string;
}

export interface RunInfo {
  id: number;
  jobId: number;
  buildId: string;
  started: number;
  state: string;
  testSetId: number | null;
  failed: number;
  flaked: number;
  installFailed: boolean;
  commit: string;
  payload: string;
  url: string;
}

export interface OutcomeRow {
  runId: number;
  testId: number;
  /** 1 failed, 2 flaked */
  outcome: number;
  signatureId: number | null;
}

export interface JobFilter {
  job?: string;
  release?: string;
  platform?: string;
  upgrade?: boolean;
}

export interface LoadedWindow {
  span: WindowSpan;
  jobs: Map<number, JobInfo>;
  runs: RunInfo[];
  runById: Map<number, RunInfo>;
  outcomes: OutcomeRow[];
  sets: Map<number, Int32Array>;
}

export async function loadJobs(db: Database): Promise<JobInfo[]> {
  const rows = await db.all<{ id: number; name: string }>('SELECT id, name FROM job ORDER BY name');
  return rows.map((r) => {
    const v = jobVariants(r.name);
    return { id: r.id, name: r.name, release: v.release, platform: v.platform, upgrade: v.upgrade, kind: v.kind };
  });
}

export function compileRegex(source: string, what: string): RegExp {
  try {
    return new RegExp(source);
  } catch (e) {
    throw new InvalidQueryError(`invalid ${what} regular expression: ${(e as Error).message}`);
  }
}

/** The ids of the jobs the filter keeps, or null when it keeps all. */
export function filterJobs(jobs: JobInfo[], f: JobFilter): Set<number> | null {
  if (!f.job && !f.release && !f.platform && f.upgrade === undefined) return null;
  const re = f.job ? compileRegex(f.job, 'job') : undefined;
  return new Set(
    jobs
      .filter((j) => (!re || re.test(j.name)) && (!f.release || j.release === f.release) && (!f.platform || j.platform === f.platform) && (f.upgrade === undefined || j.upgrade === f.upgrade))
      .map((j) => j.id),
  );
}

/** Loads a window; with `testId`, only that test's outcomes (a test page needs no others). */
export async function loadWindow(db: Database, span: WindowSpan, filter: JobFilter, testId?: number): Promise<LoadedWindow> {
  const jobList = await loadJobs(db);
  const allowed = filterJobs(jobList, filter);
  const rawRuns = await db.all<{
    id: number; job_id: number; build_id: string; started: number; state: string; test_set_id: number | null;
    failed: number; flaked: number; install_failed: number; commit_sha: string; payload: string; url: string;
  }>(
    `SELECT id, job_id, build_id, started, state, test_set_id, failed, flaked, install_failed, commit_sha, payload, url
     FROM run WHERE started >= ? AND started < ? ORDER BY started, id`,
    [span.prevFrom, span.to],
  );
  const runs: RunInfo[] = [];
  for (const r of rawRuns) {
    if (allowed && !allowed.has(r.job_id)) continue;
    runs.push({
      id: r.id, jobId: r.job_id, buildId: r.build_id, started: r.started, state: r.state, testSetId: r.test_set_id,
      failed: r.failed, flaked: r.flaked, installFailed: r.install_failed === 1, commit: r.commit_sha, payload: r.payload, url: r.url,
    });
  }
  const runById = new Map(runs.map((r) => [r.id, r]));
  const rawOutcomes = await db.all<{ run_id: number; test_id: number; outcome: number; signature_id: number | null }>(
    testId === undefined
      ? 'SELECT run_id, test_id, outcome, signature_id FROM test_outcome WHERE started >= ? AND started < ?'
      : 'SELECT run_id, test_id, outcome, signature_id FROM test_outcome WHERE test_id = ? AND started >= ? AND started < ?',
    testId === undefined ? [span.prevFrom, span.to] : [testId, span.prevFrom, span.to],
  );
  const outcomes: OutcomeRow[] = [];
  for (const o of rawOutcomes) {
    if (!runById.has(o.run_id)) continue;
    outcomes.push({ runId: o.run_id, testId: o.test_id, outcome: o.outcome, signatureId: o.signature_id });
  }
  const sets = await loadTestSets(db, runs.flatMap((r) => (r.testSetId === null ? [] : [r.testSetId])));
  return { span, jobs: new Map(jobList.map((j) => [j.id, j])), runs, runById, outcomes, sets };
}
