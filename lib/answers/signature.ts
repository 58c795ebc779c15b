// One failure signature: its normalised text and a real example of it, every test failing with it,
// runs per day against all runs, jobs and slices, bugs, example runs, and its verdict as a cause.
// Shared by `buildcop signature ID`, GET /api/signatures/[id] and /signatures/[id].
import { NotFoundError } from '../errors';
import { loadWindow } from '../history/windowData';
import { day, iso, parseAt, parseWindow, windowSpan, type WindowName } from '../history/window';
import { ignoreMatcher } from '../parse/variants';
import type { Database } from '../store/db';
import { testNames } from '../store/names';
import { causeVerdictsAt } from '../verdicts/causeHistory';
import { sliceLabel } from '../verdicts/rules';
import { signatureBugs } from './causes';

export interface SignatureQuery {
  window: WindowName;
  at: number;
}

export function parseSignatureQuery(p: Record<string, string | undefined>, now = Date.now()): SignatureQuery {
  return { window: parseWindow(p.window), at: parseAt(p.at, now) };
}

const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

export async function signatureDetail(db: Database, id: string, q: SignatureQuery, opts: { ignoreTests?: string[] } = {}) {
  const sig = /^[0-9a-f]{8,64}$/.test(id) ? await db.get<{ id: number; hash: string; text: string }>('SELECT id, hash, text FROM signature WHERE hash = ?', [id]) : undefined;
  if (!sig) throw new NotFoundError(`no signature ${JSON.stringify(id)} (signature ids are the hex digests the pages show)`);
  const span = windowSpan(q.window, q.at);
  const w = await loadWindow(db, span, {});
  const o = w.outcomes;
  const ignored = ignoreMatcher(opts.ignoreTests);
  const testIds = new Set<number>();
  for (let i = 0; i < o.length; i++) if (o.signatureId[i] === sig.id) testIds.add(o.testId[i]);
  const names = await testNames(db, [...testIds]);

  const perTest = new Map<number, { failed: number; flaked: number }>();
  const runsWith = new Map<number, number>(); // run id -> 1 took it down, 2 flaked only
  for (let i = 0; i < o.length; i++) {
    if (o.signatureId[i] !== sig.id || o.started[i] < span.from || ignored(names.get(o.testId[i])?.name ?? '')) continue;
    const t = perTest.get(o.testId[i]) ?? { failed: 0, flaked: 0 };
    perTest.set(o.testId[i], t);
    if (o.outcome[i] === 1) t.failed++;
    else t.flaked++;
    if (runsWith.get(o.runId[i]) !== 1) runsWith.set(o.runId[i], o.outcome[i]);
  }

  // per day, job and slice: the runs it appeared in against all runs that ran tests
  const days = new Map<string, { day: string; runs: number; withIt: number }>();
  const jobs = new Map<string, { job: string; runs: number; withIt: number }>();
  const slices = new Map<string, { slice: string; runs: number; withIt: number }>();
  for (const r of w.runs) {
    if (r.started < span.from || r.testSetId === null) continue;
    const job = w.jobs.get(r.jobId);
    const name = job?.name ?? '';
    const sl = sliceLabel({ release: job?.release ?? '', platform: job?.platform ?? '', upgrade: job?.upgrade ?? false });
    const hit = runsWith.has(r.id) ? 1 : 0;
    for (const [m, k, mk] of [[days, day(r.started), (k: string) => ({ day: k })], [jobs, name, (k: string) => ({ job: k })], [slices, sl, (k: string) => ({ slice: k })]] as const) {
      let e = (m as Map<string, { runs: number; withIt: number }>).get(k);
      if (!e) (m as Map<string, object>).set(k, (e = { ...mk(k), runs: 0, withIt: 0 }));
      e.runs++;
      e.withIt += hit;
    }
  }

  const [examples, span_, bugs, verdicts, totals] = await Promise.all([
    db.all<{ job: string; build_id: string; url: string; started: number; test: string; outcome: number; message: string }>(
      `SELECT j.name AS job, r.build_id, r.url, o.started, t.name AS test, o.outcome, o.message
       FROM test_outcome o JOIN run r ON r.id = o.run_id JOIN job j ON j.id = r.job_id JOIN test t ON t.id = o.test_id
       WHERE o.signature_id = ? AND o.started >= ? AND o.started < ? ORDER BY o.started DESC, o.run_id DESC LIMIT 10`,
      [sig.id, span.from, span.to],
    ),
    db.get<{ first: number | null; last: number | null }>('SELECT MIN(started) AS first, MAX(started) AS last FROM test_outcome WHERE signature_id = ? AND started < ?', [sig.id, q.at]),
    signatureBugs(db, [sig.hash]),
    causeVerdictsAt(db, q.at, [sig.id]),
    db.get<{ tests: number; occurrences: number }>('SELECT COUNT(DISTINCT test_id) AS tests, COUNT(*) AS occurrences FROM test_outcome WHERE signature_id = ?', [sig.id]),
  ]);
  const latest = examples[0];
  const v = verdicts.get(sig.id);
  const byRuns = <T extends { withIt: number; runs: number }>(a: T, b: T) => b.withIt - a.withIt || b.runs - a.runs;
  return {
    id: sig.hash,
    text: sig.text,
    /** a real failure message with this signature: the newest in the window, as stored */
    example: latest ? { message: latest.message, test: latest.test, job: latest.job, buildId: latest.build_id, url: latest.url, started: iso(Number(latest.started)) } : null,
    window: q.window,
    from: iso(span.from),
    to: iso(span.to),
    firstSeen: span_?.first != null ? iso(Number(span_.first)) : null,
    lastSeen: span_?.last != null ? iso(Number(span_.last)) : null,
    runs: [...runsWith.values()].filter((x) => x === 1).length,
    flakedRuns: [...runsWith.values()].filter((x) => x === 2).length,
    allTime: { tests: Number(totals?.tests ?? 0), occurrences: Number(totals?.occurrences ?? 0) },
    classification: v?.classification ?? ('passing' as const),
    evidence: v?.evidence ?? { summary: `did not occur in the 14 days before ${iso(q.at)}` },
    tests: [...perTest]
      .map(([tid, c]) => ({ test: names.get(tid)?.name ?? '', id: names.get(tid)?.hash ?? '', failedRuns: c.failed, flakedRuns: c.flaked }))
      .sort((a, b) => b.failedRuns + b.flakedRuns - (a.failedRuns + a.flakedRuns) || (a.test < b.test ? -1 : 1)),
    perDay: [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1)).map((d) => ({ day: d.day, runs: d.runs, runsWithIt: d.withIt })),
    jobs: [...jobs.values()].filter((j) => j.withIt > 0).sort(byRuns).map((j) => ({ job: j.job, runs: j.runs, runsWithIt: j.withIt })),
    slices: [...slices.values()].sort(byRuns).map((s) => ({ slice: s.slice, runs: s.runs, runsWithIt: s.withIt })),
    bugs: bugs.get(sig.hash) ?? [],
    exampleRuns: examples.map((r) => ({ job: r.job, buildId: r.build_id, url: r.url, started: iso(Number(r.started)), test: r.test, outcome: r.outcome === 1 ? 'failed' : 'flaked', message: r.message })),
  };
}

export type SignatureDetail = Awaited<ReturnType<typeof signatureDetail>>;
