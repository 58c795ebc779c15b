// One test: verdict and evidence, daily history per job, signatures with example runs, the failed
// and flaked runs of the window. Shared by `buildcop test`, /api/tests/[id] and /tests/[id].
import { isTestId, testId as testHash } from '../ids';
import { testOwner } from '../parse/variants';
import type { Database } from '../store/db';
import { selectIn } from '../store/bulk';
import { setHas } from '../store/testSets';
import { bugsForTests, markRecurrence } from '../bugs/refs';
import { verdictsAt } from '../verdicts/judge';
import { sparkline } from './sparkline';
import { addRunCounts, aggregateTests } from '../history/testCounts';
import { loadWindow, type JobFilter } from '../history/windowData';
import { day, iso, parseAt, parseWindow, windowSpan, type WindowName } from '../history/window';
import { NotFoundError } from '../errors';

export interface TestDetailQuery extends JobFilter {
  window: WindowName;
  at: number;
}

export function parseTestQuery(p: Record<string, string | undefined>, now = Date.now()): TestDetailQuery {
  return { window: parseWindow(p.window), at: parseAt(p.at, now), job: p.job || undefined };
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
  const w = await loadWindow(db, span, q, t.id);
  const a = aggregateTests(w, new Set([t.id])).get(t.id)!;
  addRunCounts(w, [a]);
  const active = a.windowFailed + a.windowFlaked > 0;
  // the verdict at `at`, judged on the 14 days before it whatever the window (as the hot list's)
  const v = (await verdictsAt(db, q.at, [t.id])).get(t.id);

  // Daily history per job over the window: runs that executed the test, failures, flakes.
  const outcomeOf = new Map<number, number>();
  for (let i = 0; i < w.outcomes.length; i++) outcomeOf.set(w.outcomes.runId[i], w.outcomes.outcome[i]);
  const hist = new Map<string, { day: string; job: string; runs: number; failed: number; flaked: number }>();
  for (const r of w.runs) {
    if (r.started < span.from || r.testSetId === null || !setHas(w.sets.get(r.testSetId)!, t.id)) continue;
    const job = w.jobs.get(r.jobId)!.name;
    const k = `${day(r.started)}|${job}`;
    let h = hist.get(k);
    if (!h) hist.set(k, (h = { day: day(r.started), job, runs: 0, failed: 0, flaked: 0 }));
    h.runs++;
    const o = outcomeOf.get(r.id);
    if (o === 1) h.failed++;
    else if (o === 2) h.flaked++;
  }

  const runs = await db.all<{ job: string; build_id: string; url: string; gcs_path: string; started: number; outcome: number; message: string; hash: string | null }>(
    `SELECT j.name AS job, r.build_id, r.url, r.gcs_path, o.started, o.outcome, o.message, s.hash
     FROM test_outcome o JOIN run r ON r.id = o.run_id JOIN job j ON j.id = r.job_id LEFT JOIN signature s ON s.id = o.signature_id
     WHERE o.test_id = ? AND o.started >= ? AND o.started < ? ORDER BY o.started DESC, r.build_id DESC`,
    [t.id, span.from, span.to],
  );
  const allowed = new Set(w.runs.map((r) => `${w.jobs.get(r.jobId)!.name}/${r.buildId}`));
  const windowRuns = runs.filter((r) => allowed.has(`${r.job}/${r.build_id}`));

  const sigRows = await db.all<{ id: number; hash: string; text: string; total: number; first: number; last: number }>(
    `SELECT s.id, s.hash, s.text, COUNT(*) AS total, MIN(o.started) AS first, MAX(o.started) AS last
     FROM test_outcome o JOIN signature s ON s.id = o.signature_id WHERE o.test_id = ? GROUP BY s.id, s.hash, s.text`,
    [t.id],
  );
  // how many tests share each signature (a cross-test cause), in one query for the top ones
  sigRows.sort((x, y) => (a.signatures.get(y.id) ?? 0) - (a.signatures.get(x.id) ?? 0) || y.total - x.total);
  const shown = sigRows.slice(0, 50);
  const testsPerSig = new Map(
    (
      await selectIn<{ signature_id: number; n: number }>(
        db,
        (p) => `SELECT signature_id, COUNT(DISTINCT test_id) AS n FROM test_outcome WHERE signature_id IN (${p}) GROUP BY signature_id`,
        shown.map((s) => s.id),
      )
    ).map((r) => [r.signature_id, r.n]),
  );
  const signatures = shown.map((s) => ({
    id: s.hash, text: s.text, count: a.signatures.get(s.id) ?? 0, total: s.total, tests: testsPerSig.get(s.id) ?? 1,
    firstSeen: iso(s.first), lastSeen: iso(s.last), exampleRuns: windowRuns.filter((r) => r.hash === s.hash).slice(0, 3).map((r) => r.url),
  }));
  signatures.sort((x, y) => y.count - x.count || y.total - x.total);

  const last = windowRuns.length ? windowRuns[0].started : null;
  const bugs = (await bugsForTests(db, [t.hash])).get(t.hash) ?? [];
  return {
    test: t.name,
    id: t.hash,
    window: q.window,
    from: iso(span.from),
    to: iso(span.to),
    owner: testOwner(t.name),
    classification: v?.classification ?? ('passing' as const),
    evidence: v?.evidence ?? { summary: a.windowRuns ? `passed all ${a.windowRuns} runs in the window, and did not fail in the 14 days before ${iso(q.at)}` : 'did not run in the window' },
    failedRuns: a.windowFailed,
    flakedRuns: a.windowFlaked,
    runsCount: a.windowRuns,
    failureRate: a.windowRuns ? Math.round((a.windowFailed / a.windowRuns) * 10000) / 10000 : 0,
    previousFailedRuns: a.prevFailed,
    previousFlakedRuns: a.prevFlaked,
    previousRuns: a.prevRuns,
    isNew: active && a.prevFailed + a.prevFlaked === 0,
    history: [...hist.values()].sort((x, y) => (x.day < y.day ? -1 : x.day > y.day ? 1 : x.job < y.job ? -1 : 1)),
    sparkline: sparkline(w, a),
    signatures,
    runs: windowRuns.map((r) => ({
      job: r.job,
      buildId: r.build_id,
      url: r.url,
      artifacts: r.gcs_path,
      started: iso(r.started),
      outcome: r.outcome === 1 ? 'failed' : 'flaked',
      signature: r.hash,
      message: r.message,
    })),
    bugs: markRecurrence(bugs, last),
  };
}

export type TestDetailResult = Awaited<ReturnType<typeof testDetail>>;
