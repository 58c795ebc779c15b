// Jobs: the list with pass rates, and one job's daily pass rate, recent runs and most failing tests.
import type { Database } from '../store/db';
import { pendingRunsOf } from '../store/pending';
import { hotlist, type HotlistItem } from './hotlist';
import { loadJobs } from '../history/jobs';
import { day, iso, parseAt, parseWindow, WINDOWS, type WindowName } from '../history/window';
import { NotFoundError } from '../errors';
import type { Config } from '../config';
import { ignoreMatcher } from '../parse/variants';
import { GRID_COLUMNS, jobGrid, outcomesOfRuns, wrapperTallies } from './jobGrid';

export interface JobsQuery {
  window: WindowName;
  at: number;
}

export function parseJobsQuery(p: Record<string, string | undefined>, now = Date.now()): JobsQuery {
  return { window: parseWindow(p.window), at: parseAt(p.at, now) };
}

export interface JobSummary {
  name: string;
  release?: string;
  platform?: string;
  upgrade: boolean;
  kind: string;
  runs: number;
  byState: Record<string, number>;
  passRate: number | null;
  lastRun: { buildId: string; state: string; started: string; url: string } | null;
}

export async function listJobs(db: Database, q: JobsQuery): Promise<{ window: WindowName; from: string; to: string; jobs: JobSummary[] }> {
  const from = q.at - WINDOWS[q.window];
  const jobs = await loadJobs(db);
  const counts = await db.all<{ job_id: number; state: string; n: number }>(
    'SELECT job_id, state, COUNT(*) AS n FROM run WHERE started >= ? AND started < ? GROUP BY job_id, state',
    [from, q.at],
  );
  const last = await db.all<{ job_id: number; build_id: string; state: string; started: number; url: string }>(
    `SELECT r.job_id, r.build_id, r.state, r.started, r.url FROM run r
     JOIN (SELECT job_id, MAX(started) AS m FROM run WHERE started < ? GROUP BY job_id) x ON x.job_id = r.job_id AND x.m = r.started`,
    [q.at],
  );
  const lastBy = new Map(last.map((r) => [r.job_id, r]));
  const out: JobSummary[] = jobs.map((j) => {
    const byState: Record<string, number> = {};
    for (const c of counts) if (c.job_id === j.id) byState[c.state] = c.n;
    const runs = Object.values(byState).reduce((s, n) => s + n, 0);
    const l = lastBy.get(j.id);
    return {
      name: j.name, release: j.release, platform: j.platform, upgrade: j.upgrade, kind: j.kind, runs, byState,
      passRate: runs ? Math.round(((byState.success ?? 0) / runs) * 10000) / 10000 : null,
      lastRun: l ? { buildId: l.build_id, state: l.state, started: iso(l.started), url: l.url } : null,
    };
  });
  out.sort((a, b) => (a.passRate ?? 2) - (b.passRate ?? 2) || b.runs - a.runs || (a.name < b.name ? -1 : 1));
  return { window: q.window, from: iso(from), to: iso(q.at), jobs: out };
}

/** One job. ci-operator's wrapper tests (`ignoreTests`) are left out of its runs' counts and its grid. */
export async function jobDetail(db: Database, name: string, q: JobsQuery, config?: Pick<Config, 'ignoreTests'>) {
  const job = await db.get<{ id: number; name: string; type: string }>('SELECT id, name, type FROM job WHERE name = ?', [name]);
  if (!job) throw new NotFoundError(`no job ${JSON.stringify(name)}`);
  const from = q.at - WINDOWS[q.window];
  const runs = await db.all<{
    id: number; build_id: string; state: string; started: number; finished: number | null; url: string; pull: number | null; test_set_id: number | null;
    commit_sha: string; payload: string; passed: number; failed: number; flaked: number; skipped: number; install_failed: number; parse_errors: number;
  }>(
    `SELECT id, build_id, state, started, finished, url, pull, test_set_id, commit_sha, payload, passed, failed, flaked, skipped, install_failed, parse_errors
     FROM run WHERE job_id = ? AND started >= ? AND started < ? ORDER BY started DESC, build_id DESC`,
    [job.id, from, q.at],
  );
  const daily = new Map<string, { day: string; runs: number; success: number; failure: number; error: number; aborted: number }>();
  for (const r of runs) {
    const d = day(r.started);
    let e = daily.get(d);
    if (!e) daily.set(d, (e = { day: d, runs: 0, success: 0, failure: 0, error: 0, aborted: 0 }));
    e.runs++;
    if (r.state in e) (e as unknown as Record<string, number>)[r.state]++;
  }
  const top = await hotlist(db, { window: q.window, at: q.at, jobName: name, limit: 20 }, { ignoreTests: config?.ignoreTests });
  const shown = runs.slice(0, 100).map((r) => ({ ...r, buildId: r.build_id, testSetId: r.test_set_id }));
  const isWrapper = ignoreMatcher(config?.ignoreTests);
  const outcomes = await outcomesOfRuns(db, shown.map((r) => r.id));
  const wrappers = await wrapperTallies(db, shown, outcomes, isWrapper);
  const grid = await jobGrid(db, shown.slice(0, GRID_COLUMNS), outcomes, isWrapper);
  const pending = await pendingRunsOf(db, name);
  const success = runs.filter((r) => r.state === 'success').length;
  return {
    name: job.name,
    type: job.type,
    window: q.window,
    from: iso(from),
    to: iso(q.at),
    runsCount: runs.length,
    passRate: runs.length ? Math.round((success / runs.length) * 10000) / 10000 : null,
    daily: [...daily.values()].sort((a, b) => (a.day < b.day ? -1 : 1)).map((d) => ({ ...d, passRate: d.runs ? Math.round((d.success / d.runs) * 10000) / 10000 : null })),
    runs: shown.map((r) => {
      const w = wrappers.get(r.id)!;
      return {
        buildId: r.build_id, state: r.state, started: iso(r.started), finished: r.finished ? iso(r.finished) : null,
        durationSeconds: r.finished ? r.finished - r.started : null, url: r.url, pull: r.pull, commit: r.commit_sha, payload: r.payload,
        passed: Math.max(0, r.passed - w.passed), failed: Math.max(0, r.failed - w.failed), flaked: Math.max(0, r.flaked - w.flaked), skipped: r.skipped,
        installFailed: r.install_failed === 1, parseErrors: r.parse_errors, wrapperFailed: w.failed, wrapperFlaked: w.flaked,
      };
    }),
    pending: pending.map((p) => ({ buildId: p.buildId, state: p.state, started: iso(p.started), url: p.url, lastError: p.lastError, listed: p.listed, lastListed: iso(p.lastListed) })),
    topTests: top.items.map((i: HotlistItem) => ({ test: i.test, id: i.id, failedRuns: i.failedRuns, flakedRuns: i.flakedRuns, runs: i.runs, classification: i.classification })),
    /** TestGrid's view of the latest runs (at most GRID_COLUMNS) */
    grid,
  };
}

export type JobDetail = Awaited<ReturnType<typeof jobDetail>>;
