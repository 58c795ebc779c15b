// Search as ci-search does: a regex over the build logs of the window's runs (the job's build-log.txt
// and its failed steps'), their junit failure texts and test names, and bug texts; matches grouped by
// job (logs) and by test (failures), with context lines, and runs matching per day against all runs
// (the chart). Candidates come from the trigram index (lib/search/candidates.ts), RE2 confirms on the
// stored texts, newest runs first, within the time budget: an answer that stops early says how far
// it got (`partial`), never silently less.
import { Budget, type PartialAnswer } from '../budget';
import { InvalidQueryError } from '../errors';
import { filterJobs, loadJobs } from '../history/jobs';
import { day, iso, parseAt, parseWindow, WINDOWS, type WindowName } from '../history/window';
import { compileRegex } from '../patterns';
import { candidates } from '../search/candidates';
import { requiredLiterals } from '../search/literals';
import { MAX_CONTEXT } from '../search/matchLines';
import { SearchCollector, type SearchGroups } from '../search/collect';
import type { Database } from '../store/db';
import { SEARCH_KINDS, type SearchKind } from '../store/searchIndex';

export type SearchIn = SearchKind;

export interface SearchQuery {
  q: string;
  window: WindowName;
  at: number;
  job?: string;
  limit: number;
  /** what to search: build logs, junit failure texts (and test names), bug texts */
  in: SearchIn[];
  /** lines of context around each matching line */
  context: number;
}

export const DEFAULT_CONTEXT = 2;

export function parseSearchQuery(p: Record<string, string | undefined>, now = Date.now()): SearchQuery {
  if (!p.q) throw new InvalidQueryError('missing q: give a regular expression to search build logs, failure texts, test names and bugs for');
  if (p.q.length > 500) throw new InvalidQueryError('q is too long (500 characters at most)');
  compileRegex(p.q, 'search');
  const limit = p.limit ? Number(p.limit) : 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidQueryError(`invalid limit ${JSON.stringify(p.limit)}: use 1 to 1000`);
  if (p.job) compileRegex(p.job, 'job');
  const where = p.in ? [...new Set(p.in.split(',').map((s) => s.trim()).filter(Boolean))] : SEARCH_KINDS;
  const unknown = where.filter((w) => !SEARCH_KINDS.includes(w as SearchIn));
  if (unknown.length || !where.length) throw new InvalidQueryError(`invalid in ${JSON.stringify(p.in)}: use one or more of ${SEARCH_KINDS.join(', ')}, separated by commas`);
  const context = p.context === undefined || p.context === '' ? DEFAULT_CONTEXT : Number(p.context);
  if (!Number.isInteger(context) || context < 0 || context > MAX_CONTEXT) throw new InvalidQueryError(`invalid context ${JSON.stringify(p.context)}: use 0 to ${MAX_CONTEXT} lines`);
  return {
    q: p.q, window: parseWindow(p.window ?? '14d'), at: parseAt(p.at, now), job: p.job || undefined, limit,
    in: SEARCH_KINDS.filter((k) => where.includes(k)), context,
  };
}

/** Runs (or bugs) read and matched together: one query each for their texts. */
const BATCH = 40;

export interface SearchResult extends SearchGroups {
  q: string;
  window: WindowName;
  from: string;
  to: string;
  in: SearchIn[];
  context: number;
  /** the answer stopped before searching everything (partial says where) */
  truncated: boolean;
  /** runs of the window (job filter applied) */
  totalRuns: number;
  /** candidates the index gave, per kind searched (RE2 read each) */
  candidates: Partial<Record<SearchIn, number>>;
  perDay: { day: string; runs: number; matchingRuns: number; logRuns: number; failureRuns: number }[];
  partial?: PartialAnswer;
}

export async function search(db: Database, s: SearchQuery, opts: { budget?: Budget } = {}): Promise<SearchResult> {
  const budget = opts.budget ?? Budget.unlimited();
  const re = compileRegex(s.q, 'search', 'g');
  const literals = requiredLiterals(s.q);
  const from = s.at - WINDOWS[s.window];
  const jobs = await loadJobs(db);
  const allowed = filterJobs(jobs, { job: s.job });
  const jobName = new Map(jobs.map((j) => [j.id, j.name]));

  const perDay = new Map<string, SearchResult['perDay'][number]>();
  const dayOf = (t: number) => {
    const d = day(t);
    let e = perDay.get(d);
    if (!e) perDay.set(d, (e = { day: d, runs: 0, matchingRuns: 0, logRuns: 0, failureRuns: 0 }));
    return e;
  };
  let totalRuns = 0;
  for (const [jobId, started] of await db.rows('SELECT job_id, started FROM run WHERE started >= ? AND started < ?', [from, s.at])) {
    if (allowed && !allowed.has(Number(jobId))) continue;
    dayOf(Number(started)).runs++;
    totalRuns++;
  }

  // the runs to read, newest first, each with the kinds it is a candidate for
  const counts: SearchResult['candidates'] = {};
  const runKinds = new Map<number, { started: number; logs: boolean; failures: boolean }>();
  for (const kind of s.in.filter((k) => k !== 'bugs')) {
    const found = await candidates(db, literals, { kind, from, to: s.at, jobs: allowed });
    counts[kind] = found.length;
    for (const c of found) {
      let e = runKinds.get(c.id);
      if (!e) runKinds.set(c.id, (e = { started: c.started, logs: false, failures: false }));
      e[kind as 'logs' | 'failures'] = true;
    }
  }
  const order = [...runKinds].sort((a, b) => b[1].started - a[1].started || b[0] - a[0]);
  const collect = new SearchCollector(db, re, s.context, s.limit, jobName);
  let read = 0;
  for (let i = 0; i < order.length && !budget.check(); i += BATCH) {
    const batch = order.slice(i, i + BATCH);
    const matched = await collect.runs(batch.map(([id, k]) => ({ id, ...k })), budget);
    read += matched.read;
    for (const m of matched.runs) {
      const d = dayOf(m.started);
      d.matchingRuns++;
      if (m.logs) d.logRuns++;
      if (m.failures) d.failureRuns++;
    }
  }
  let bugsRead = 0;
  let bugCount = 0;
  if (s.in.includes('bugs') && !budget.check()) {
    const found = await candidates(db, literals, { kind: 'bugs', from, to: s.at, jobs: null });
    counts.bugs = bugCount = found.length;
    for (let i = 0; i < found.length && !budget.check(); i += BATCH) bugsRead += await collect.bugs(found.slice(i, i + BATCH).map((c) => c.id), budget);
  }

  const covered = () => {
    const parts: string[] = [];
    if (order.length) parts.push(read < order.length ? `${read} of ${order.length} candidate runs, those started since ${read ? iso(order[read - 1][1].started) : iso(s.at)}` : `all ${order.length} candidate runs`);
    if (s.in.includes('bugs')) parts.push(counts.bugs === undefined ? 'no bugs' : `${bugsRead} of ${bugCount} candidate bugs`);
    return parts.join('; ');
  };
  const partial = budget.partial(budget.stopped ? covered() : undefined);
  return {
    q: s.q,
    window: s.window,
    from: iso(from),
    to: iso(s.at),
    in: s.in,
    context: s.context,
    truncated: !!partial,
    ...collect.groups(),
    totalRuns,
    candidates: counts,
    perDay: [...perDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
    ...(partial ? { partial } : {}),
  };
}
