// The hot list: the tests failing most in a window, each with its verdict, evidence, signatures
// and bugs. The CLI (`buildcop hotlist`), /api/hotlist and the home page all call hotlist().
import type { Database } from '../store/db';
import { ignoreMatcher, testOwner } from '../parse/variants';
import { signatureInfo, testNames } from '../store/names';
import { bugsForTests, markRecurrence, type BugRef } from '../bugs/refs';
import { testTotals } from '../history/rollupWindow';
import { testWindows, type SparkPoint } from '../history/testWindow';
import { CLASSIFICATIONS, type Classification } from '../verdicts/verdict';
import { verdictsAt, type JudgedVerdict } from '../verdicts/judge';
import { isUnchangedJobSlice, type SliceEvidence } from '../verdicts/rules';
import { filterJobs, loadJobs, type JobFilter } from '../history/jobs';
import { compileRegex } from '../patterns';
import { iso, parseAt, parseWindow, windowSpan, type WindowName } from '../history/window';
import { InvalidQueryError } from '../errors';
import { Budget, type PartialAnswer } from '../budget';


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
  /** present when the time budget ran out or the asker left: the items judged by then */
  partial?: PartialAnswer;
}


export async function hotlist(db: Database, q: HotlistQuery, opts: { ignoreTests?: string[]; budget?: Budget } = {}): Promise<Hotlist> {
  const budget = opts.budget ?? Budget.unlimited();
  const span = windowSpan(q.window, q.at);
  const jobList = await loadJobs(db);
  const allowed = filterJobs(jobList, q);
  const jobName = new Map(jobList.map((j) => [j.id, j.name]));
  const totals = await testTotals(db, span.from, span.to, allowed);
  const names = await testNames(db, [...totals.keys()]);
  const ignored = ignoreMatcher(opts.ignoreTests);
  const testRe = q.test ? compileRegex(q.test, 'test') : undefined;

  // Rank every failing test on its counts; look closely only at the ones shown.
  const nameOf = (id: number) => names.get(id)?.name ?? '';
  const counts = (id: number) => totals.get(id)!;
  let ranked = [...totals.keys()].filter((id) => {
    const n = nameOf(id);
    return counts(id).failed + counts(id).flaked > 0 && !ignored(n) && (!testRe || testRe.test(n)) && (!q.owner || testOwner(n) === q.owner);
  });
  ranked.sort((x, y) => counts(y).failed - counts(x).failed || counts(y).flaked - counts(x).flaked || (nameOf(x) < nameOf(y) ? -1 : nameOf(x) > nameOf(y) ? 1 : 0));
  const bugs = await bugsForTests(db, ranked.map((id) => names.get(id)!.hash));
  const hasBug = (id: number) => !!bugs.get(names.get(id)!.hash)?.length;
  const withoutBug = ranked.filter((id) => !hasBug(id)).length;
  if (q.noBug) ranked = ranked.filter((id) => !hasBug(id));

  // Verdicts are judged on the 14 days before `at`, whatever the window: the same test has the same
  // verdict on every tab. Filtering or sorting by them needs every candidate's; else the page's.
  const needAll = !!q.classification || q.sort === 'severity';
  const toJudge = needAll ? ranked : ranked.slice(0, q.limit);
  // the page is known before its verdicts unless they filter or sort it: its windows are read meanwhile
  // (on PostgreSQL the two overlap; the page's later changes, if any, are read after)
  const early = needAll ? undefined : testWindows(db, span, toJudge, allowed);
  early?.catch(() => undefined); // awaited below; a failure there is the answer's
  const verdicts = await verdictsWithin(db, q.at, toJudge, budget);
  // out of time: only the tests judged by then are listed
  if (verdicts.size < toJudge.length) ranked = ranked.filter((id) => verdicts.has(id));
  const verdictOf = (id: number): JudgedVerdict => verdicts.get(id) ?? NO_RECENT_FAILURE;
  if (q.classification) ranked = ranked.filter((id) => verdictOf(id).classification === q.classification);
  if (q.sort === 'severity') {
    const score = (id: number) => severityScore(verdictOf(id));
    ranked = ranked.map((id, i) => ({ id, i, s: score(id) })).sort((x, y) => y.s - x.s || x.i - y.i).map((x) => x.id);
  }
  const total = ranked.length;
  const page = ranked.slice(0, q.limit);
  const windows = (early && (await early)) || new Map();
  const unread = page.filter((id) => !windows.has(id));
  if (unread.length) for (const [id, w] of await testWindows(db, span, unread, allowed)) windows.set(id, w);
  const sigIds = new Set<number>();
  for (const w of windows.values()) for (const id of w.signatures.keys()) sigIds.add(id);
  const sigs = await signatureInfo(db, [...sigIds]);

  const items: HotlistItem[] = page.map((id) => {
    const w = windows.get(id)!;
    const { name, hash } = names.get(id)!;
    const v = verdictOf(id);
    const bySig = [...w.signatures].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    return {
      test: name,
      id: hash,
      failedRuns: w.windowFailed,
      flakedRuns: w.windowFlaked,
      runs: w.windowRuns,
      failureRate: w.windowRuns ? Math.round((w.windowFailed / w.windowRuns) * 10000) / 10000 : 0,
      jobs: failingJobNames(w.perJob, jobName),
      firstFailure: w.first === null ? null : iso(w.first),
      lastFailure: w.last === null ? null : iso(w.last),
      previousFailedRuns: w.prevFailed,
      previousFlakedRuns: w.prevFlaked,
      previousRuns: w.prevRuns,
      isNew: w.prevFailed + w.prevFlaked === 0,
      classification: v.classification,
      evidence: listedEvidence(v.evidence),
      signatures: bySig.slice(0, 5).map(([sid, count]) => ({ id: sigs.get(sid)?.hash ?? String(sid), text: sigs.get(sid)?.text ?? '', count })),
      signaturesCount: bySig.length,
      causes: bySig.map(([sid, runs]) => ({ id: sigs.get(sid)?.hash ?? String(sid), runs })),
      bugs: markRecurrence(bugs.get(hash) ?? [], w.last),
      owner: testOwner(name),
      sparkline: w.sparkline,
    };
  });
  const filters: Record<string, string | boolean> = {};
  for (const k of ['job', 'release', 'platform', 'upgrade', 'owner', 'classification', 'noBug', 'test', 'sort'] as const) {
    if (q[k] !== undefined && q[k] !== '' && q[k] !== false) filters[k] = q[k] as string | boolean;
  }
  const partial = budget.partial(`the verdicts of ${verdicts.size} of ${toJudge.length} tests`);
  return { window: q.window, from: iso(span.from), to: iso(span.to), filters, totalItems: total, withoutBug, items, ...(partial ? { partial } : {}) };
}

/** The names of the jobs where a test failed or flaked in the window, sorted (400 of them a test at scale: no entry arrays made). */
function failingJobNames(perJob: Map<number, { failed: number; flaked: number }>, jobName: Map<number, string>): string[] {
  const out: string[] = [];
  perJob.forEach((c, j) => {
    if (c.failed + c.flaked > 0) out.push(jobName.get(j) ?? '');
  });
  return out.sort();
}

/**
 * A verdict's evidence as the hot list carries it: a regression's slices where it rose and the release
 * and platform slices, with the jobs where it did not rise counted (`unchangedJobSlices`), not listed.
 * At OpenShift's scale those are 400-odd rows a test, two thirds of a hot list's 9 MB; the test's
 * own answer (/api/tests/[id]) keeps every slice.
 */
export function listedEvidence(evidence: Record<string, unknown>): Record<string, unknown> {
  const slices = evidence.slices as SliceEvidence[] | undefined;
  if (!Array.isArray(slices)) return evidence;
  const kept = slices.filter((s) => !isUnchangedJobSlice(s));
  return kept.length === slices.length ? evidence : { ...evidence, slices: kept, unchangedJobSlices: slices.length - kept.length };
}

/** Verdicts in chunks, stopping between them once the budget is spent (a test without one is not listed). */
async function verdictsWithin(db: Database, at: number, ids: number[], budget: Budget): Promise<Map<number, JudgedVerdict>> {
  const out = new Map<number, JudgedVerdict>();
  for (let i = 0; i < ids.length; i += VERDICT_CHUNK) {
    if (budget.check()) break;
    for (const [id, v] of await verdictsAt(db, at, ids.slice(i, i + VERDICT_CHUNK))) out.set(id, v);
    for (const id of ids.slice(i, i + VERDICT_CHUNK)) if (!out.has(id)) out.set(id, NO_RECENT_FAILURE);
  }
  return out;
}
const VERDICT_CHUNK = 250;

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
