// A test's bug comment: what lib/bugs/comment.ts formats, filled from the test's answer. The test page
// and `buildcop test NAME --comment TRACKER` call this.
import type { CommentInput } from '../bugs/comment';
import type { TestDetailResult } from './testDetail';

/** The dashboard's permanent link to a test's numbers (readable in a bug: an ISO time needs no escaping). */
export function testPermalink(origin: string, d: { id: string; window: string; to: string }, job?: string): string {
  const q = [`at=${d.to}`];
  if (d.window !== '7d') q.push(`window=${d.window}`);
  if (job) q.push(`job=${encodeURIComponent(job)}`);
  return `${origin}/tests/${d.id}?${q.join('&')}`;
}

/** Where links printed outside a page point: BUILDCOP_PUBLIC_URL, else the default `npm start` address. */
export function publicOrigin(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.BUILDCOP_PUBLIC_URL;
  return configured && /^https?:\/\//.test(configured) ? configured.replace(/\/+$/, '') : `http://localhost:${env.PORT ?? 3000}`;
}

type Run = TestDetailResult['runs'][number];

/**
 * The example failure: a stored raw message (never the signature's normalised text) of the newest
 * failed run with the test's most common signature in the window, else of any failed, else flaked, run.
 */
export function exampleRun(d: Pick<TestDetailResult, 'runs' | 'signatures'>): Run | undefined {
  const top = d.signatures.find((s) => s.count > 0);
  const withText = d.runs.filter((r) => r.message.trim());
  const failed = withText.filter((r) => r.outcome === 'failed');
  return failed.find((r) => top && r.signature === top.id) ?? failed[0] ?? withText[0];
}

export function testCommentInput(d: TestDetailResult, permalink: string): CommentInput {
  const rate = d.runsCount ? ` (${((100 * d.failedRuns) / d.runsCount).toFixed(1)}% failed)` : '';
  const example = exampleRun(d);
  const run = (r: Run) => ({ job: r.job, buildId: r.buildId, url: r.url, started: r.started });
  return {
    kind: 'test',
    subject: d.test,
    classification: d.classification,
    evidence: String(d.evidence.summary ?? ''),
    counts: `${d.failedRuns} failed and ${d.flakedRuns} flaked of ${d.runsCount} runs${rate} in the ${d.window} to ${d.to}; ${d.previousFailedRuns} failed of ${d.previousRuns} in the ${d.window} before`,
    example: example ? { message: example.message, run: run(example) } : undefined,
    runs: d.runs.filter((r) => r.outcome === 'failed').map(run),
    permalink,
  };
}
