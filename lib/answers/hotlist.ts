// The hot list: the tests failing most in a window, each with its verdict, evidence, signatures
// and bugs. The CLI (`buildcop hotlist`), /api/hotlist and the home page all call hotlist().
import type { Database } from '../store/db';
import { ignoreMatcher, testOwner } from '../parse/variants';
import { signatureInfo, testNames } from '../store/names';
import { bugsForTests, markRecurrence, type BugRef } from '../bugs/refs';
import { addRunCounts, aggregateTests, countFailures, SameConditionIndex, type TestAggregate } from '../verdicts/testStats';
import type { Classification } from '../verdicts/verdict';
import { sparkline, verdictFor, type SparkPoint } from '../verdicts/judge';
import { loadWindow, type JobFilter } from '../history/windowData';
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
  /** exactly these tests (the promotion page's; no pattern is built from names) */
  testNames?: string[];
  limit: number;
}

export const CLASSIFICATIONS: Classification[] = ['regression', 'broken', 'flaky', 'infra', 'failing'];

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
  const w = await loadWindow(db, span, q);
  const counts = countFailures(w);
  const names = await testNames(db, counts.testIds);
  const ignored = ignoreMatcher(opts.ignoreTests);
  const testRe = q.test ? compileRegex(q.test, 'test') : undefined;
  const exact = q.testNames ? new Set(q.testNames) : undefined;
  const same = new SameConditionIndex(w);

  // Rank every failing test on cheap counts; look closely only at the ones shown.
  const nameOf = (id: number) => names.get(id)?.name ?? '';
  let ranked = counts.testIds.filter((id) => {
    const n = nameOf(id);
    return !ignored(n) && (!testRe || testRe.test(n)) && (!exact || exact.has(n)) && (!q.owner || testOwner(n) === q.owner);
  });
  ranked.sort((x, y) => counts.windowFailed[y] - counts.windowFailed[x] || counts.jobs[y] - counts.jobs[x] || (nameOf(x) < nameOf(y) ? -1 : nameOf(x) > nameOf(y) ? 1 : 0));
  const bugs = await bugsForTests(db, ranked.map((id) => names.get(id)!.hash));
  const hasBug = (id: number) => !!bugs.get(names.get(id)!.hash)?.length;
  const withoutBug = ranked.filter((id) => !hasBug(id)).length;
  if (q.noBug) ranked = ranked.filter((id) => !hasBug(id));

  let total = ranked.length;
  let page: TestAggregate[];
  if (budget.check()) {
    page = [];
  } else if (q.classification) {
    // filtering by verdict needs every candidate's verdict
    const aggs = aggregateTests(w, new Set(ranked));
    const all = ranked.map((id) => aggs.get(id)!);
    addRunCounts(w, all);
    const kept = all.filter((a) => !budget.spent() && verdictFor(w, nameOf(a.testId), a, same).classification === q.classification);
    total = kept.length;
    page = kept.slice(0, q.limit);
  } else {
    const aggs = aggregateTests(w, new Set(ranked.slice(0, q.limit)));
    page = ranked.slice(0, q.limit).map((id) => aggs.get(id)!);
    addRunCounts(w, page);
  }
  const jobsOf = (a: TestAggregate) => [...a.perJob].filter(([, c]) => c.failed + c.flaked > 0).map(([id]) => w.jobs.get(id)?.name ?? '').sort();

  const items: HotlistItem[] = [];
  const sigIds = new Set<number>();
  const pending: { a: TestAggregate; item: Omit<HotlistItem, 'signatures'> }[] = [];
  for (const a of page) {
    if (budget.spent()) break;
    const { name, hash } = names.get(a.testId)!;
    const v = verdictFor(w, name, a, same);
    const fails = [...a.failedRuns, ...a.flakedRuns].map((r) => r.started);
    const last = fails.length ? Math.max(...fails) : null;
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
        firstFailure: fails.length ? iso(Math.min(...fails)) : null,
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
    items.push({ ...item, signatures });
  }
  const filters: Record<string, string | boolean> = {};
  for (const k of ['job', 'release', 'platform', 'upgrade', 'owner', 'classification', 'noBug', 'test'] as const) {
    if (q[k] !== undefined && q[k] !== '' && q[k] !== false) filters[k] = q[k] as string | boolean;
  }
  const partial = budget.partial(`${items.length} of the ${Math.min(total, q.limit)} tests to show were judged`);
  return { window: q.window, from: iso(span.from), to: iso(span.to), filters, totalItems: total, withoutBug, items, ...(partial ? { partial } : {}) };
}
