// Search failures by regex over failure text and test names, grouped by test, with matches per day
// against all runs (what ci-search's /chart shows). Bounded in time (the window) and in size.
import type { Database } from '../store/db';
import { testNames } from '../store/names';
import { filterJobs, loadJobs } from '../history/jobs';
import { compileRegex } from '../patterns';
import { day, iso, parseAt, parseWindow, WINDOWS, type WindowName } from '../history/window';
import { InvalidQueryError } from '../errors';

export interface SearchQuery {
  q: string;
  window: WindowName;
  at: number;
  job?: string;
  limit: number;
}

/** Failure rows examined at most per search; the answer says when it stopped there. */
export const SEARCH_ROW_CAP = 200_000;

export function parseSearchQuery(p: Record<string, string | undefined>, now = Date.now()): SearchQuery {
  if (!p.q) throw new InvalidQueryError('missing q: give a regular expression to search failure text and test names for');
  if (p.q.length > 500) throw new InvalidQueryError('q is too long (500 characters at most)');
  compileRegex(p.q, 'search');
  const limit = p.limit ? Number(p.limit) : 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidQueryError(`invalid limit ${JSON.stringify(p.limit)}: use 1 to 1000`);
  if (p.job) compileRegex(p.job, 'job');
  return { q: p.q, window: parseWindow(p.window ?? '14d'), at: parseAt(p.at, now), job: p.job || undefined, limit };
}

export async function search(db: Database, s: SearchQuery) {
  const re = compileRegex(s.q, 'search');
  const from = s.at - WINDOWS[s.window];
  const jobs = await loadJobs(db);
  const allowed = filterJobs(jobs, { job: s.job });
  const jobName = new Map(jobs.map((j) => [j.id, j.name]));

  const runs = await db.all<{ id: number; job_id: number; started: number }>('SELECT id, job_id, started FROM run WHERE started >= ? AND started < ?', [from, s.at]);
  const perDay = new Map<string, { day: string; runs: number; matchingRuns: number }>();
  const dayOf = (t: number) => {
    const d = day(t);
    let e = perDay.get(d);
    if (!e) perDay.set(d, (e = { day: d, runs: 0, matchingRuns: 0 }));
    return e;
  };
  for (const r of runs) if (!allowed || allowed.has(r.job_id)) dayOf(r.started).runs++;

  const rows = await db.all<{ run_id: number; test_id: number; job_id: number; started: number; outcome: number; message: string; build_id: string; url: string }>(
    `SELECT o.run_id, o.test_id, o.job_id, o.started, o.outcome, o.message, r.build_id, r.url
     FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.started >= ? AND o.started < ? ORDER BY o.started DESC LIMIT ?`,
    [from, s.at, SEARCH_ROW_CAP + 1],
  );
  const truncated = rows.length > SEARCH_ROW_CAP;
  const names = await testNames(db, rows.map((r) => r.test_id));
  const byTest = new Map<number, { test: string; id: string; matches: number; runs: { job: string; buildId: string; url: string; started: string; outcome: string; excerpt: string }[] }>();
  const matchingRuns = new Set<number>();
  for (const row of rows.slice(0, SEARCH_ROW_CAP)) {
    if (allowed && !allowed.has(row.job_id)) continue;
    const t = names.get(row.test_id);
    if (!t) continue;
    const m = re.exec(row.message);
    if (!m && !re.test(t.name)) continue;
    let g = byTest.get(row.test_id);
    if (!g) byTest.set(row.test_id, (g = { test: t.name, id: t.hash, matches: 0, runs: [] }));
    g.matches++;
    if (g.runs.length < 20) {
      const at = m ? m.index : 0;
      g.runs.push({
        job: jobName.get(row.job_id) ?? '', buildId: row.build_id, url: row.url, started: iso(row.started),
        outcome: row.outcome === 1 ? 'failed' : 'flaked', excerpt: row.message.slice(Math.max(0, at - 200), at + 300),
      });
    }
    if (!matchingRuns.has(row.run_id)) {
      matchingRuns.add(row.run_id);
      dayOf(row.started).matchingRuns++;
    }
  }
  const groups = [...byTest.values()].sort((a, b) => b.matches - a.matches || (a.test < b.test ? -1 : 1));
  return {
    q: s.q,
    window: s.window,
    from: iso(from),
    to: iso(s.at),
    truncated,
    matchingRuns: matchingRuns.size,
    totalRuns: [...perDay.values()].reduce((n, d) => n + d.runs, 0),
    tests: groups.length,
    results: groups.slice(0, s.limit),
    perDay: [...perDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
  };
}

export type SearchResult = Awaited<ReturnType<typeof search>>;
