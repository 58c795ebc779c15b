// The day's distinct problems: causes, ranked by the runs they took down in the window. A cause is a
// failure signature across tests (as clustering makes them), or an install or setup step's failure
// (its signature on the install and setup step tests). `buildcop causes`, GET /api/causes and the
// home page's "Top causes" call causes(); the hot list uses massCauseOf() to fold a mass failure's
// tests into its cause's row.
import { INSTALL_OR_SETUP_TEST, ignoreMatcher } from '../parse/variants';
import { filterJobs, loadJobs, type JobFilter } from '../history/jobs';
import { causeExamples, causeJobDays, causeSeen, causeTests, causeTotals } from '../history/causeWindow';
import { iso, parseAt, parseWindow, windowSpan, type WindowName } from '../history/window';
import { InvalidQueryError } from '../errors';
import { compileRegex } from '../patterns';
import { selectIn } from '../store/bulk';
import type { Database } from '../store/db';
import { signatureInfo, testNames } from '../store/names';
import { isClosedStatus } from '../sources/trackerBug';
import { bugsForTests } from '../bugs/refs';
import { causeVerdictsAt } from '../verdicts/causeHistory';
import { RULES } from '../verdicts/rules';
import type { Classification } from '../verdicts/verdict';

export interface CausesQuery extends JobFilter {
  window: WindowName;
  at: number;
  limit: number;
}

export function parseCausesQuery(p: Record<string, string | undefined>, now = Date.now()): CausesQuery {
  const limit = p.limit === undefined || p.limit === '' ? 20 : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidQueryError(`invalid limit ${JSON.stringify(p.limit)}: use a whole number from 1 to 1000`);
  if (p.job) compileRegex(p.job, 'job');
  if (p.release && !/^\d+\.\d+$/.test(p.release)) throw new InvalidQueryError(`invalid release ${JSON.stringify(p.release)}: use e.g. 4.2`);
  return { window: parseWindow(p.window), at: parseAt(p.at, now), job: p.job || undefined, release: p.release || undefined, limit };
}

export type CauseKind = 'signature' | 'install' | 'setup';

export interface CauseExample {
  job: string;
  buildId: string;
  url: string;
  started: string;
  test: string;
  /** the raw failure text as stored (capped) */
  message: string;
}

export interface Cause {
  /** the signature's public id (/signatures/[id]) */
  id: string;
  /** the normalised failure text */
  text: string;
  kind: CauseKind;
  /** distinct runs of the window it took down (a test failed with it) */
  runs: number;
  /** distinct runs where it failed a test that then passed on retry, and nothing else */
  flakedRuns: number;
  /** distinct tests failing with it in the window */
  tests: number;
  jobs: string[];
  /** its first occurrence in all stored history, and its latest up to `at` */
  firstSeen: string;
  lastSeen: string;
  /** many tests fail with it in each of its runs (on average at least 20): a mass failure */
  mass: boolean;
  /** tests failing with it per run it appeared in, on average (every job) */
  testsPerRun: number;
  classification: Classification;
  evidence: Record<string, unknown>;
  examples: CauseExample[];
  bugs: { tracker: string; id: string; url: string; status: string; summary: string; closed: boolean }[];
  /** the tests failing with it, most runs first (at most 200) */
  testNames: { test: string; id: string; runs: number }[];
}

export interface Causes {
  window: WindowName;
  from: string;
  to: string;
  filters: Record<string, string>;
  totalCauses: number;
  causes: Cause[];
  /** every mass-failure cause of the window (shown or not): the tests failing only with these are folded */
  massCauses: string[];
}

/** Candidates looked at per cause shown: a cause whose tests are all wrapper tests is passed over. */
const OVERFETCH = 3;

export async function causes(db: Database, q: CausesQuery, opts: { ignoreTests?: string[] } = {}): Promise<Causes> {
  const span = windowSpan(q.window, q.at);
  const jobList = await loadJobs(db);
  const allowed = filterJobs(jobList, q);
  const jobName = new Map(jobList.map((j) => [j.id, j.name]));
  const ignored = ignoreMatcher(opts.ignoreTests);
  const [totals, all] = await Promise.all([causeTotals(db, span.from, span.to, allowed), allowed ? causeTotals(db, span.from, span.to, null) : undefined]);
  const everyJob = all ?? totals;
  // a mass failure: many tests fail with it in each run it takes down (a property of the cause, over every job)
  const perRun = (sig: number) => {
    const c = everyJob.get(sig);
    return c && c.runs + c.flakedRuns ? c.outcomes / (c.runs + c.flakedRuns) : 0;
  };
  const ranked = [...totals].filter(([, c]) => c.runs + c.flakedRuns > 0).sort((a, b) => b[1].runs - a[1].runs || b[1].flakedRuns - a[1].flakedRuns || a[0] - b[0]);
  const candidates = ranked.slice(0, q.limit * OVERFETCH).map(([sig]) => sig);
  const tests = await causeTests(db, candidates, span.from, span.to);
  const testIds = new Set<number>();
  for (const m of tests.values()) for (const t of m.keys()) testIds.add(t);
  const names = await testNames(db, [...testIds]);
  const nameOf = (t: number) => names.get(t)?.name ?? '';
  const kept = candidates.filter((sig) => [...(tests.get(sig)?.keys() ?? [])].some((t) => !ignored(nameOf(t)))).slice(0, q.limit);
  const massIds = ranked.filter(([sig]) => perRun(sig) >= RULES.massFailureTests).map(([sig]) => sig);
  const [sigs, verdicts, seen, jobDays] = await Promise.all([
    signatureInfo(db, [...new Set([...kept, ...massIds])]),
    causeVerdictsAt(db, q.at, kept),
    causeSeen(db, kept, span.to),
    causeJobDays(db, kept, span.from, span.to),
  ]);
  const examples = await examplesOf(db, kept, span.to);
  const bugs = await signatureBugs(db, kept.map((sig) => sigs.get(sig)!.hash));
  // a cause of one test: that test's bugs are the cause's too (a bug names the test more often than it quotes the text)
  const single = kept.filter((sig) => tests.get(sig)?.size === 1).map((sig) => ({ sig: sigs.get(sig)!.hash, test: names.get([...tests.get(sig)!.keys()][0])?.hash ?? '' }));
  const testBugs = await bugsForTests(db, single.map((x) => x.test));
  for (const { sig, test } of single) {
    const list = bugs.get(sig) ?? [];
    for (const b of testBugs.get(test) ?? []) if (!list.some((x) => x.tracker === b.tracker && x.id === b.id)) list.push({ tracker: b.tracker, id: b.id, url: b.url, status: b.status, summary: b.summary, closed: isClosedStatus(b.status) });
    bugs.set(sig, list);
  }

  const out: Cause[] = kept.map((sig) => {
    const info = sigs.get(sig)!;
    const c = totals.get(sig)!;
    const testList = [...(tests.get(sig) ?? [])].filter(([t]) => !ignored(nameOf(t))).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const kindOf = (): CauseKind => {
      const all = testList.map(([t]) => nameOf(t));
      if (all.every((n) => /^install should succeed|cluster install/i.test(n))) return 'install';
      if (all.every((n) => INSTALL_OR_SETUP_TEST.test(n))) return 'setup';
      return 'signature';
    };
    const v = verdicts.get(sig);
    const s = seen.get(sig);
    const jobs = new Set(jobDays.filter(([js, j, , r, f]) => js === sig && r + f > 0 && (!allowed || allowed.has(j))).map(([, j]) => jobName.get(j) ?? ''));
    return {
      id: info.hash,
      text: info.text,
      kind: kindOf(),
      runs: c.runs,
      flakedRuns: c.flakedRuns,
      tests: testList.length,
      jobs: [...jobs].sort(),
      firstSeen: iso(s?.first ?? span.from),
      lastSeen: iso(s?.last ?? span.from),
      mass: perRun(sig) >= RULES.massFailureTests,
      testsPerRun: Math.round(perRun(sig) * 10) / 10,
      classification: v?.classification ?? 'failing',
      evidence: v?.evidence ?? { summary: 'no occurrence in the 14 days before this time' },
      examples: examples.get(sig) ?? [],
      bugs: bugs.get(info.hash) ?? [],
      testNames: testList.slice(0, 200).map(([t, runs]) => ({ test: nameOf(t), id: names.get(t)?.hash ?? '', runs })),
    };
  });
  const filters: Record<string, string> = {};
  if (q.job) filters.job = q.job;
  if (q.release) filters.release = q.release;
  return { window: q.window, from: iso(span.from), to: iso(span.to), filters, totalCauses: ranked.length, causes: out, massCauses: massIds.map((id) => sigs.get(id)!.hash) };
}

/** The 3 newest failures of each cause before `to`, with their raw text. */
async function examplesOf(db: Database, sigIds: number[], to: number): Promise<Map<number, CauseExample[]>> {
  const out = new Map<number, CauseExample[]>();
  for (const sig of sigIds) {
    const rows = await causeExamples(db, sig, 0, to, 3);
    out.set(sig, rows.map((r) => ({ job: r.job, buildId: r.build_id, url: r.url, started: iso(Number(r.started)), test: r.test, message: r.message })));
  }
  return out;
}

/** Bugs linked to the signatures (by their key lines, or by hand). */
export async function signatureBugs(db: Database, hashes: string[]): Promise<Map<string, Cause['bugs']>> {
  const rows = await selectIn<{ signature_hash: string; tracker: string; bug_id: string; url: string; status: string; summary: string }>(
    db,
    (p) => `SELECT DISTINCT l.signature_hash, b.tracker, b.bug_id, b.url, b.status, b.summary FROM bug_link l JOIN bug b ON b.id = l.bug_pk
            WHERE l.removed = 0 AND l.signature_hash IN (${p}) ORDER BY b.tracker, b.bug_id`,
    hashes,
  );
  const out = new Map<string, Cause['bugs']>();
  for (const r of rows) {
    let list = out.get(r.signature_hash);
    if (!list) out.set(r.signature_hash, (list = []));
    list.push({ tracker: r.tracker, id: r.bug_id, url: r.url, status: r.status, summary: r.summary, closed: isClosedStatus(r.status) });
  }
  return out;
}

/**
 * The mass-failure cause a hot-list item stands under: when every failure of it in the window came
 * with mass failures, the shown one it failed with most.
 */
export function massCauseOf(item: { causes: { id: string; runs: number }[] }, answer: Pick<Causes, 'causes' | 'massCauses'>): Cause | undefined {
  const mass = new Set(answer.massCauses);
  if (!item.causes.length || !item.causes.every((c) => mass.has(c.id))) return undefined;
  const shown = new Map(answer.causes.map((c) => [c.id, c]));
  const best = [...item.causes].sort((a, b) => b.runs - a.runs).find((c) => shown.has(c.id));
  return best && shown.get(best.id);
}

/** A row of the home page's hot list: a test, or a mass failure's cause standing for its tests. */
export type HotlistRow<T> = { kind: 'test'; item: T } | { kind: 'cause'; cause: Cause; items: T[] };

/**
 * Folds the tests whose failures in the window all came with mass failures into their cause's row,
 * where its first test stood; the other tests keep their rows.
 */
export function collapseMassFailures<T extends { causes: { id: string; runs: number }[] }>(items: T[], answer: Pick<Causes, 'causes' | 'massCauses'>): HotlistRow<T>[] {
  const byCause = new Map<string, T[]>();
  for (const it of items) {
    const c = massCauseOf(it, answer);
    if (c) byCause.set(c.id, [...(byCause.get(c.id) ?? []), it]);
  }
  const rows: HotlistRow<T>[] = [];
  const placed = new Set<string>();
  for (const it of items) {
    const c = massCauseOf(it, answer);
    const group = c && byCause.get(c.id);
    if (!c || !group || group.length < 2) rows.push({ kind: 'test', item: it });
    else if (!placed.has(c.id)) {
      placed.add(c.id);
      rows.push({ kind: 'cause', cause: c, items: group });
    }
  }
  return rows;
}

/** "fail [k8s.io/.../service.go:1191]: message" says where in the test code: the message is what tells causes apart. */
const stripLocation = (line: string): string => line.replace(/^fail \[[^\]]*\]:\s*/, '');

/** The line of a signature a buildcop recognises it by: its `fail [...]` or error line, else the first. */
export function headline(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const fail = lines.find((l) => /^(fail \[|error|level=(fatal|error)|E\d{4} )/i.test(l)) ?? lines[0] ?? '';
  // "fail [...]: Unexpected error:" says nothing: the error it introduces is the last line before "occurred"
  if (/(Unexpected error:?|Expected)\s*$/.test(fail)) {
    const detail = [...lines].reverse().find((l) => !/^(occurred|to (be|equal)|[{}()<>\]\[,]+|.*: \{)$/.test(l) && l !== fail);
    if (detail) return `${stripLocation(fail)} ${detail}`.slice(0, 300);
  }
  return stripLocation(fail).slice(0, 300);
}
