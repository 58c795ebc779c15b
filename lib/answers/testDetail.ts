// One test: verdict and evidence, daily history per job, signatures with example runs, the failed
// and flaked runs of the window. Shared by `buildcop test`, /api/tests/[id] and /tests/[id].
import { isTestId, testId as testHash } from '../ids';
import { testOwner } from '../parse/variants';
import type { Database } from '../store/db';
import { forEachQuery, selectRowsIn } from '../store/bulk';
import { signatureInfo } from '../store/names';
import { bugsForTests, markRecurrence } from '../bugs/refs';
import { verdictsAt } from '../verdicts/judge';
import { DAY } from '../history/spans';
import { testWindows } from '../history/testWindow';
import { filterJobs, loadJobs, type JobFilter } from '../history/jobs';
import { day, iso, parseAt, parseWindow, windowSpan, type WindowName } from '../history/window';
import { compileRegex } from '../patterns';
import { InvalidQueryError, NotFoundError } from '../errors';

export interface TestDetailQuery extends JobFilter {
  window: WindowName;
  at: number;
  /** failed and flaked runs listed at most (RUNS_PAGE when not given) */
  limit?: number;
  /** list only runs that started before this (Unix seconds): the next page */
  before?: number;
}

/** Failed and flaked runs a page lists by default (a test failing in every run has tens of thousands). */
export const RUNS_PAGE = 200;

export function parseTestQuery(p: Record<string, string | undefined>, now = Date.now()): TestDetailQuery {
  const limit = p.limit === undefined || p.limit === '' ? RUNS_PAGE : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new InvalidQueryError(`invalid limit ${JSON.stringify(p.limit)}: use a whole number from 1 to 10000`);
  if (p.job) compileRegex(p.job, 'job');
  return { window: parseWindow(p.window), at: parseAt(p.at, now), job: p.job || undefined, limit, before: p.before ? parseAt(p.before, now) : undefined };
}

export async function findTest(db: Database, nameOrId: string): Promise<{ id: number; name: string; hash: string }> {
  const hash = isTestId(nameOrId) ? nameOrId : testHash(nameOrId);
  let row = await db.get<{ id: number; name: string; hash: string }>('SELECT id, name, hash FROM test WHERE hash = ?', [hash]);
  if (!row && isTestId(nameOrId)) row = await db.get('SELECT id, name, hash FROM test WHERE hash = ?', [testHash(nameOrId)]);
  if (!row) throw new NotFoundError(`no test ${JSON.stringify(nameOrId)} (give the full test name or its 16-digit id)`);
  return row;
}

export async function testDetail(db: Database, nameOrId: string, q: TestDetailQuery) {
  const t = await findTest(db, nameOrId);
  const span = windowSpan(q.window, q.at);
  const jobList = await loadJobs(db);
  const allowed = filterJobs(jobList, q);
  const jobName = new Map(jobList.map((j) => [j.id, j.name]));
  const [w, verdicts, first] = await Promise.all([
    testWindows(db, span, [t.id], allowed, { perDay: true }).then((m) => m.get(t.id)!),
    // the verdict at `at`, judged on the 14 days before it whatever the window (as the hot list's)
    verdictsAt(db, q.at, [t.id]),
    db.get<{ first_seen: number }>('SELECT first_seen FROM test WHERE id = ?', [t.id]),
  ]);
  const v = verdicts.get(t.id);
  const active = w.windowFailed + w.windowFlaked > 0;
  const history = w.perDay
    .map((d) => ({ day: day(d.day), job: jobName.get(d.jobId) ?? '', ...d.counts }))
    .sort((x, y) => (x.day < y.day ? -1 : x.day > y.day ? 1 : x.job < y.job ? -1 : 1));

  // the window's failed and flaked runs, newest first, a page at a time
  const limit = q.limit ?? RUNS_PAGE;
  const upTo = Math.min(span.to, q.before ?? span.to);
  const jobWhere = allowed ? ` AND o.job_id IN (${[...allowed].join(', ') || '0'})` : '';
  type RunRow = { job: string; build_id: string; url: string; gcs_path: string; started: number; outcome: number; message: string; hash: string | null };
  // the page's keys first, from the test's index alone (sorting every failure of a hot test with its
  // text read 8 s on a cold 4x scale database), then those rows with their text and run
  const runsIn = (from: number, to: number, n?: number) =>
    db.all<RunRow>(
      `SELECT j.name AS job, r.build_id, r.url, r.gcs_path, o.started, o.outcome, o.message, s.hash
       FROM (SELECT o.run_id, o.started FROM test_outcome o WHERE o.test_id = ? AND o.started >= ? AND o.started < ?${jobWhere} ORDER BY o.started DESC, o.run_id DESC${n ? ' LIMIT ?' : ''}) k
       JOIN test_outcome o ON o.run_id = k.run_id AND o.test_id = ? AND o.started = k.started
       JOIN run r ON r.id = o.run_id JOIN job j ON j.id = r.job_id LEFT JOIN signature s ON s.id = o.signature_id
       ORDER BY o.started DESC, o.run_id DESC`,
      n ? [t.id, from, to, n, t.id] : [t.id, from, to, t.id],
    );
  const runRows = await runsIn(span.from, upTo, limit + 1);
  let windowRuns = runRows.slice(0, limit);
  let hasOlder = runRows.length > limit;
  // The next page starts before the last run's second, so a page never ends inside a second: when the
  // run after the page started in the same second as the last, the page takes all of that second.
  if (hasOlder && Number(runRows[limit].started) === Number(runRows[limit - 1].started)) {
    const second = Number(runRows[limit - 1].started);
    windowRuns = [...windowRuns.filter((r) => Number(r.started) > second), ...(await runsIn(second, second + 1))];
    hasOlder = (await runsIn(span.from, second, 1)).length > 0;
  }

  // signatures: in the window and all time, from the rollups; how many tests share each (a cross-test cause)
  const allTime = await db.rows('SELECT signature_id, SUM(failed + flaked), MIN(day), MAX(day) FROM rollup_sig_test_day WHERE test_id = ? GROUP BY signature_id', [t.id]);
  const sigIds = allTime.map(([id]) => Number(id)).sort((x, y) => (w.signatures.get(y) ?? 0) - (w.signatures.get(x) ?? 0)).slice(0, 50);
  const [info, testsPerSig, examples] = await Promise.all([
    signatureInfo(db, sigIds),
    selectRowsIn(db, (p) => `SELECT signature_id, COUNT(DISTINCT test_id) FROM rollup_sig_test_day WHERE signature_id IN (${p}) GROUP BY signature_id`, sigIds),
    exampleRuns(db, t.id, sigIds, span.from, span.to),
  ]);
  const sharing = new Map(testsPerSig.map(([id, n]) => [Number(id), Number(n)]));
  const allTimeOf = new Map(allTime.map(([id, n, d0, d1]) => [Number(id), { total: Number(n), first: Number(d0) * DAY, last: Number(d1) * DAY }]));
  const signatures = sigIds.map((id) => ({
    id: info.get(id)?.hash ?? String(id), text: info.get(id)?.text ?? '', count: w.signatures.get(id) ?? 0, total: allTimeOf.get(id)!.total, tests: sharing.get(id) ?? 1,
    firstSeen: iso(allTimeOf.get(id)!.first), lastSeen: iso(allTimeOf.get(id)!.last),
    exampleRuns: examples.get(id) ?? [],
  }));
  signatures.sort((x, y) => y.count - x.count || y.total - x.total);

  const bugs = (await bugsForTests(db, [t.hash])).get(t.hash) ?? [];
  return {
    test: t.name,
    id: t.hash,
    window: q.window,
    from: iso(span.from),
    to: iso(span.to),
    owner: testOwner(t.name),
    /** when the test first ran, in all stored history */
    firstSeen: first ? iso(Number(first.first_seen)) : null,
    classification: v?.classification ?? ('passing' as const),
    evidence: v?.evidence ?? { summary: w.windowRuns ? `passed all ${w.windowRuns} runs in the window, and did not fail in the 14 days before ${iso(q.at)}` : 'did not run in the window' },
    failedRuns: w.windowFailed,
    flakedRuns: w.windowFlaked,
    runsCount: w.windowRuns,
    failureRate: w.windowRuns ? Math.round((w.windowFailed / w.windowRuns) * 10000) / 10000 : 0,
    previousFailedRuns: w.prevFailed,
    previousFlakedRuns: w.prevFlaked,
    previousRuns: w.prevRuns,
    isNew: active && w.prevFailed + w.prevFlaked === 0,
    history,
    sparkline: w.sparkline,
    signatures,
    runs: windowRuns.map((r) => ({
      job: r.job,
      buildId: r.build_id,
      url: r.url,
      artifacts: r.gcs_path,
      started: iso(Number(r.started)),
      outcome: r.outcome === 1 ? 'failed' : 'flaked',
      signature: r.hash,
      message: r.message,
    })),
    /** the window's failed and flaked runs, of which `runs` lists the newest (from `before` on) */
    runsTotal: w.windowFailed + w.windowFlaked,
    /** `before` for the next page of runs, when there is one */
    runsNext: hasOlder ? iso(Number(windowRuns[windowRuns.length - 1].started)) : null,
    bugs: markRecurrence(bugs, w.last),
  };
}

export type TestDetailResult = Awaited<ReturnType<typeof testDetail>>;

/** The latest three runs in [from, to) where the test failed with each signature: a query each, newest first along the test's index. */
async function exampleRuns(db: Database, testId: number, sigIds: number[], from: number, to: number): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  await forEachQuery(db, sigIds, async (sig) => {
    const rows = await db.rows(
      'SELECT r.url FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.test_id = ? AND o.started >= ? AND o.started < ? AND o.signature_id = ? ORDER BY o.started DESC, o.run_id DESC LIMIT 3',
      [testId, from, to, sig],
    );
    out.set(sig, rows.map(([url]) => String(url)));
  });
  return out;
}
