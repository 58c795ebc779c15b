// The hot list: the tests failing most in a window, each with its verdict, evidence, signatures
// and bugs. The CLI (`buildcop hotlist`), /api/hotlist and the home page all call hotlist().
import type { Database } from '../store/db';
import { ignoreMatcher, testOwner } from '../parse/variants';
import { signatureInfo, testNames } from '../store/names';
import { bugsForTests, markRecurrence, type BugRef } from '../bugs/refs';
import { addRunCounts, aggregateTests, countFailures, type TestAggregate } from '../history/testCounts';
import { CLASSIFICATIONS, type Classification } from '../verdicts/verdict';
import { verdictsAt, type JudgedVerdict } from '../verdicts/judge';
import { sparkline, type SparkPoint } from './sparkline';
import { loadWindow, type JobFilter } from '../history/windowData';
import { compileRegex } from '../patterns';
import { iso, parseAt, parseWindow, windowSpan, type WindowName } from '../history/window';
import { InvalidQueryError } from '../errors';


export interface HotlistQuery extends JobFilter {
  window: WindowName;
  /** Unix seconds */
  at: number;
  owner?: string;
  classification?: Classification;
  noBug?: boolean;
  /** regex over test names */
  test?: string;
  /** failures (the window's failed runs, then jobs) or severity (how long and how much it fails) */
  sort?: HotlistSort;
  limit: number;
}

export const SORTS = ['failures', 'severity'] as const;
export type HotlistSort = (typeof SORTS)[number];

type Params = Record<string, string | undefined>;

/** Validates query parameters the same way for the CLI and the API. */
export function parseHotlistQuery(p: Params, now = Date.now()): HotlistQuery {
  const limit = p.limit === undefined || p.limit === '' ? 100 : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new InvalidQueryError(`invalid limit ${JSON.stringify(p.limit)}: use a whole number from 1 to 10000`);
  if (p.classification && !CLASSIFICATIONS.includes(p.classification as Classification)) {
    throw new InvalidQueryError(`invalid classification ${JSON.stringify(p.classification)}: use one of ${CLASSIFICATIONS.join(', ')}`);
  }
  if (p.upgrade && !['true', 'false', '1', '0', 'yes', 'no'].includes(p.upgrade)) throw new InvalidQueryError(`invalid upgrade ${JSON.stringify(p.upgrade)}: use true or false`);
  if (p.job) compileRegex(p.job, 'job');
  if (p.test) compileRegex(p.test, 'test');
  if (p.sort && !(SORTS as readonly string[]).includes(p.sort)) throw new InvalidQueryError(`invalid sort ${JSON.stringify(p.sort)}: use one of ${SORTS.join(', ')}`);
  if (p.release && !/^\d+\.\d+$/.test(p.release)) throw new InvalidQueryError(`invalid release ${JSON.stringify(p.release)}: use e.g. 4.2`);
  return {
    window: parseWindow(p.window),
    at: parseAt(p.at, now),
    job: p.job || undefined,
    release: p.release || undefined,
    platform: p.platform || undefined,
    upgrade: p.upgrade ? ['true', '1', 'yes'].includes(p.upgrade) : undefined,
    owner: p.owner || undefined,
    classification: (p.classification as Classification) || undefined,
    noBug: p.noBug === 'true' || p.noBug === '1' || p.nobug === 'true' || p.nobug === '1',
    test: p.test || undefined,
    sort: (p.sort as HotlistSort) || undefined,
    limit,
  };
}

export interface HotlistItem {
  test: string;
  id: string;
  failedRuns: number;
  flakedRuns: number;
  runs: number;
  failureRate: number;
  jobs: string[];
  firstFailure: string | null;
  lastFailure: string | null;
  previousFailedRuns: number;
  previousFlakedRuns: number;
  previousRuns: number;
  /** no failure or flake in the window before */
  isNew: boolean;
  classification: Classification;
  evidence: Record<string, unknown>;
  signatures: { id: string; text: string; count: number }[];
  signaturesCount: number;
  /** the causes (signatures) of its failures and flakes in the window, with the runs of each */
  causes: { id: string; runs: number }[];
  bugs: BugRef[];
  owner: string;
  /** the window in slices: runs, failed, flaked per slice (a sparkline) */
  sparkline: SparkPoint[];
}

export interface Hotlist {
  window: WindowName;
  from: string;
  to: string;
  filters: Record<string, string | boolean>;
  totalItems: number;
  /** tests failing or flaking in the window (same filters) that have no linked bug */
  withoutBug: number;
  items: HotlistItem[];
}


export async function hotlist(db: Database, q: HotlistQuery, opts: { ignoreTests?: string[] } = {}): Promise<Hotlist> {
  const span = windowSpan(q.window, q.at);
  const w = await loadWindow(db, span, q);
  const counts = countFailures(w);
  const names = await testNames(db, counts.testIds);
  const ignored = ignoreMatcher(opts.ignoreTests);
  const testRe = q.test ? compileRegex(q.test, 'test') : undefined;

  // Rank every failing test on cheap counts; look closely only at the ones shown.
  const nameOf = (id: number) => names.get(id)?.name ?? '';
  let ranked = counts.testIds.filter((id) => {
    const n = nameOf(id);
    return !ignored(n) && (!testRe || testRe.test(n)) && (!q.owner || testOwner(n) === q.owner);
  });
  ranked.sort((x, y) => counts.windowFailed[y] - counts.windowFailed[x] || counts.jobs[y] - counts.jobs[x] || (nameOf(x) < nameOf(y) ? -1 : nameOf(x) > nameOf(y) ? 1 : 0));
  const bugs = await bugsForTests(db, ranked.map((id) => names.get(id)!.hash));
  const hasBug = (id: number) => !!bugs.get(names.get(id)!.hash)?.length;
  const withoutBug = ranked.filter((id) => !hasBug(id)).length;
  if (q.noBug) ranked = ranked.filter((id) => !hasBug(id));

  // Verdicts are judged on the 14 days before `at`, whatever the window: the same test has the same
  // verdict on every tab. Filtering or sorting by them needs every candidate's; else the page's.
  const needAll = !!q.classification || q.sort === 'severity';
  const verdicts = await verdictsAt(db, q.at, needAll ? ranked : ranked.slice(0, q.limit));
  const verdictOf = (id: number): JudgedVerdict => verdicts.get(id) ?? NO_RECENT_FAILURE;
  if (q.classification) ranked = ranked.filter((id) => verdictOf(id).classification === q.classification);
  if (q.sort === 'severity') {
    const score = (id: number) => severityScore(verdictOf(id));
    ranked = ranked.map((id, i) => ({ id, i, s: score(id) })).sort((x, y) => y.s - x.s || x.i - y.i).map((x) => x.id);
  }
  const total = ranked.length;
  const aggs = aggregateTests(w, new Set(ranked.slice(0, q.limit)));
  const page: TestAggregate[] = ranked.slice(0, q.limit).map((id) => aggs.get(id)!);
  addRunCounts(w, page);
  const jobsOf = (a: TestAggregate) => [...a.perJob].filter(([, c]) => c.failed + c.flaked > 0).map(([id]) => w.jobs.get(id)?.name ?? '').sort();

  const items: HotlistItem[] = [];
  const sigIds = new Set<number>();
  const pending: { a: TestAggregate; item: Omit<HotlistItem, 'signatures' | 'causes'> }[] = [];
  for (const a of page) {
    const { name, hash } = names.get(a.testId)!;
    const v = verdictOf(a.testId);
    const { first, last } = failureSpan(a);
    for (const id of a.signatures.keys()) sigIds.add(id);
    pending.push({
      a,
      item: {
        test: name,
        id: hash,
        failedRuns: a.windowFailed,
        flakedRuns: a.windowFlaked,
        runs: a.windowRuns,
        failureRate: a.windowRuns ? Math.round((a.windowFailed / a.windowRuns) * 10000) / 10000 : 0,
        jobs: jobsOf(a),
        firstFailure: first === null ? null : iso(first),
        lastFailure: last === null ? null : iso(last),
        previousFailedRuns: a.prevFailed,
        previousFlakedRuns: a.prevFlaked,
        previousRuns: a.prevRuns,
        isNew: a.prevFailed + a.prevFlaked === 0,
        classification: v.classification,
        evidence: v.evidence,
        signaturesCount: a.signatures.size,
        bugs: markRecurrence(bugs.get(hash) ?? [], last),
        owner: testOwner(name),
        sparkline: sparkline(w, a),
      },
    });
  }
  const sigs = await signatureInfo(db, [...sigIds]);
  for (const { a, item } of pending) {
    const signatures = [...a.signatures]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, 5)
      .map(([id, count]) => ({ id: sigs.get(id)?.hash ?? String(id), text: sigs.get(id)?.text ?? '', count }));
    const causes = [...a.signatures].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([id, runs]) => ({ id: sigs.get(id)?.hash ?? String(id), runs }));
    items.push({ ...item, signatures, causes });
  }
  const filters: Record<string, string | boolean> = {};
  for (const k of ['job', 'release', 'platform', 'upgrade', 'owner', 'classification', 'noBug', 'test', 'sort'] as const) {
    if (q[k] !== undefined && q[k] !== '' && q[k] !== false) filters[k] = q[k] as string | boolean;
  }
  return { window: q.window, from: iso(span.from), to: iso(span.to), filters, totalItems: total, withoutBug, items };
}

/** A test failing in the window but not in the 14 days before `at` (windows longer than the lookback). */
const NO_RECENT_FAILURE: JudgedVerdict = {
  classification: 'failing',
  evidence: { summary: 'no failure in the 14 days before this time: its failures in the window are older' },
};

/** How long and how much it fails: a flaky or failing verdict's score; the other verdicts rank first. */
function severityScore(v: JudgedVerdict): number {
  const s = (v.evidence.severity as { score?: number } | undefined)?.score;
  return s ?? (v.classification === 'regression' || v.classification === 'broken' ? Infinity : -1);
}

/** The first and last failure or flake of the window (without spreading arrays that can hold 100,000s of runs). */
function failureSpan(a: TestAggregate): { first: number | null; last: number | null } {
  let first: number | null = null;
  let last: number | null = null;
  for (const list of [a.failedRuns, a.flakedRuns]) {
    for (const r of list) {
      if (first === null || r.started < first) first = r.started;
      if (last === null || r.started > last) last = r.started;
    }
  }
  return { first, last };
}
