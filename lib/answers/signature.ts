// One failure signature: its normalised text and a real example of it, every test failing with it,
// runs per day against all runs, jobs and slices, bugs, example runs, and its verdict as a cause.
// Shared by `buildcop signature ID`, GET /api/signatures/[id] and /signatures/[id].
import { NotFoundError } from '../errors';
import { loadJobs } from '../history/jobs';
import { causeExamples, causeJobDays, causeTests, causeTotals } from '../history/causeWindow';
import { runCells } from '../history/rollupWindow';
import { DAY } from '../history/spans';
import { day, iso, parseAt, parseWindow, windowSpan, type WindowName } from '../history/window';
import { ignoreMatcher } from '../parse/variants';
import type { Database } from '../store/db';
import { testNames } from '../store/names';
import { causeVerdictsAt } from '../verdicts/causeHistory';
import { sliceLabel } from '../verdicts/slices';
import type { CommentInput } from '../bugs/comment';
import { headline, signatureBugs } from './causes';

export interface SignatureQuery {
  window: WindowName;
  at: number;
}

export function parseSignatureQuery(p: Record<string, string | undefined>, now = Date.now()): SignatureQuery {
  return { window: parseWindow(p.window), at: parseAt(p.at, now) };
}

export async function signatureDetail(db: Database, id: string, q: SignatureQuery, opts: { ignoreTests?: string[] } = {}) {
  const sig = /^[0-9a-z-]{8,64}$/.test(id) ? await db.get<{ id: number; hash: string; text: string }>('SELECT id, hash, text FROM signature WHERE hash = ?', [id]) : undefined;
  if (!sig) throw new NotFoundError(`no signature ${JSON.stringify(id)} (signature ids are the hex digests the pages show)`);
  const span = windowSpan(q.window, q.at);
  const ignored = ignoreMatcher(opts.ignoreTests);
  const [jobList, totals, tests, jobDays, cells] = await Promise.all([
    loadJobs(db),
    causeTotals(db, span.from, span.to, null),
    causeTests(db, [sig.id], span.from, span.to),
    causeJobDays(db, [sig.id], span.from, span.to),
    runCells(db, span.from, span.to, DAY),
  ]);
  const jobInfo = new Map(jobList.map((j) => [j.id, j]));
  const testCounts = tests.get(sig.id) ?? new Map<number, number>();
  const names = await testNames(db, [...testCounts.keys()]);
  // runs per day, job and slice: the runs it appeared in against all runs that ran tests
  const days = new Map<number, { runs: number; withIt: number }>();
  const jobs = new Map<number, { runs: number; withIt: number }>();
  const at = <K>(m: Map<K, { runs: number; withIt: number }>, k: K) => {
    let e = m.get(k);
    if (!e) m.set(k, (e = { runs: 0, withIt: 0 }));
    return e;
  };
  for (const c of cells) {
    if (c.setId <= 0) continue;
    at(days, Math.floor(c.at / DAY) * DAY).runs += c.runs;
    at(jobs, c.jobId).runs += c.runs;
  }
  for (const [, jobId, d, r, f] of jobDays) {
    at(days, Math.floor(d / DAY) * DAY).withIt += r + f;
    at(jobs, jobId).withIt += r + f;
  }
  const slices = new Map<string, { runs: number; withIt: number }>();
  for (const [jobId, e] of jobs) {
    const j = jobInfo.get(jobId);
    const s = at(slices, sliceLabel({ release: j?.release ?? '', platform: j?.platform ?? '', upgrade: j?.upgrade ?? false }));
    s.runs += e.runs;
    s.withIt += e.withIt;
  }
  const total = totals.get(sig.id) ?? { runs: 0, flakedRuns: 0, outcomes: 0 };

  const [examples, span_, bugs, verdicts, allTime] = await Promise.all([
    causeExamples(db, sig.id, span.from, span.to, 10),
    db.get<{ first: number | null; last: number | null }>('SELECT MIN(started) AS first, MAX(started) AS last FROM test_outcome WHERE signature_id = ? AND started < ?', [sig.id, q.at]),
    signatureBugs(db, [sig.hash]),
    causeVerdictsAt(db, q.at, [sig.id]),
    // from its per-test days, not its outcomes: a mass failure's are millions
    db.get<{ tests: number; occurrences: number }>('SELECT COUNT(DISTINCT test_id) AS tests, SUM(failed + flaked) AS occurrences FROM rollup_sig_test_day WHERE signature_id = ?', [sig.id]),
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
    runs: total.runs,
    flakedRuns: total.flakedRuns,
    allTime: { tests: Number(allTime?.tests ?? 0), occurrences: Number(allTime?.occurrences ?? 0) },
    classification: v?.classification ?? ('passing' as const),
    evidence: v?.evidence ?? { summary: `did not occur in the 14 days before ${iso(q.at)}` },
    tests: [...testCounts]
      .filter(([tid]) => !ignored(names.get(tid)?.name ?? ''))
      .map(([tid, n]) => ({ test: names.get(tid)?.name ?? '', id: names.get(tid)?.hash ?? '', runs: n }))
      .sort((a, b) => b.runs - a.runs || (a.test < b.test ? -1 : 1)),
    perDay: [...days].sort((a, b) => a[0] - b[0]).map(([d, e]) => ({ day: day(d), runs: e.runs, runsWithIt: e.withIt })),
    jobs: [...jobs].filter(([, e]) => e.withIt > 0).sort((a, b) => byRuns(a[1], b[1])).map(([j, e]) => ({ job: jobInfo.get(j)?.name ?? '', runs: e.runs, runsWithIt: e.withIt })),
    slices: [...slices].sort((a, b) => byRuns(a[1], b[1])).map(([slice, e]) => ({ slice, runs: e.runs, runsWithIt: e.withIt })),
    bugs: bugs.get(sig.hash) ?? [],
    exampleRuns: examples.map((r) => ({ job: r.job, buildId: r.build_id, url: r.url, started: iso(Number(r.started)), test: r.test, outcome: r.outcome === 1 ? 'failed' : 'flaked', message: r.message })),
  };
}

export type SignatureDetail = Awaited<ReturnType<typeof signatureDetail>>;

/** The permanent link of a signature's page at its `to`. */
export function signaturePermalink(origin: string, d: Pick<SignatureDetail, 'id' | 'window' | 'to'>): string {
  return `${origin}/signatures/${d.id}?at=${d.to}${d.window === '7d' ? '' : `&window=${d.window}`}`;
}

/** What a paste-ready bug comment says of a signature (a cause): its headline, verdict, a real example, its newest runs. */
export function signatureCommentInput(d: SignatureDetail, permalink: string): CommentInput {
  const run = (r: SignatureDetail['exampleRuns'][number]) => ({ job: r.job, buildId: r.buildId, url: r.url, started: r.started, test: r.test });
  const failed = d.exampleRuns.filter((r) => r.outcome === 'failed');
  return {
    kind: d.tests.length > 1 ? 'cause' : 'signature',
    subject: headline(d.text),
    classification: d.classification,
    evidence: String(d.evidence.summary ?? ''),
    counts: `${d.runs} runs taken down (and ${d.flakedRuns} where a retry passed), ${d.tests.length} tests, in the ${d.window} to ${d.to}`,
    example: failed[0] ? { message: failed[0].message, run: run(failed[0]) } : undefined,
    runs: failed.map(run),
    permalink,
  };
}
