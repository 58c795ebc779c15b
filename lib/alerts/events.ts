// The events a buildcop is told of, from the answers as they stand after an ingest pass: a promotion
// gate blocked, a release stream rejecting payloads, a new regression, a new cause. Pure: each event
// has a key that stays the same while the event lasts (it is sent once per receiver), and the text
// of Slack's {"text": ...} shape.
import type { AlertEvent } from '../config';
import type { PromotionStatus } from '../promotion/types';
import { rejectionText } from '../promotion/text';

export interface AlertDraft {
  kind: AlertEvent;
  /** stable while the event lasts: a gate blocked since its jobs' last success, a stream since its last accepted payload */
  key: string;
  text: string;
}

/** A regression verdict as the hot list gives it (its `classification` is 'regression'). */
export interface RegressionLike {
  id: string;
  test: string;
  evidence: { summary?: unknown };
}

/**
 * A cause as the causes answer will give it (GET /api/causes, `causes()` in lib; issue 20): its
 * stable id, a one-line title, how many runs it took down, and its page.
 */
export interface CauseLike {
  id: string;
  title: string;
  runs?: number;
  summary?: string;
  url?: string;
}

/** Slack reads &, < and > as markup in "text": escaped, test names and failure text stay literal. */
export function slackEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const link = (url: string) => (url ? `\n${url}` : '');

export function gateEvents(status: Pick<PromotionStatus, 'gates'>, promotionUrl: string): AlertDraft[] {
  return status.gates
    .filter((g) => g.blocked)
    .map((g) => {
      // the blocking jobs failing now, each since its last success: the same until one succeeds again
      const since = g.jobs
        .filter((j) => j.kind === 'blocking' && j.latest && j.latest.state !== 'success')
        .map((j) => `${j.job}@${j.lastSuccess ?? 'never'}`)
        .sort();
      return { kind: 'gate-blocked' as const, key: `gate-blocked|${g.name}|${since.join(',') || g.reason}`, text: `Promotion blocked: ${slackEscape(g.summary)}${link(promotionUrl)}` };
    });
}

export function streamEvents(status: Pick<PromotionStatus, 'releaseStreams'>, promotionUrl: string): AlertDraft[] {
  return status.releaseStreams
    .filter((s) => s.rejectedInARow > 0)
    .map((s) => ({
      kind: 'stream-rejected' as const,
      // since the last accepted payload: a new streak after the next accepted one is a new event
      key: `stream-rejected|${s.name}|after ${s.lastAccepted?.tag ?? 'none'}`,
      text: `Release stream ${slackEscape(s.name)} is rejecting payloads: ${slackEscape(rejectionText(s))}.${link(promotionUrl)}`,
    }));
}

export function regressionEvents(items: RegressionLike[], testUrl: (id: string) => string): AlertDraft[] {
  return items.map((t) => ({
    kind: 'new-regression' as const,
    key: `new-regression|${t.id}`,
    text: `New regression: ${slackEscape(t.test)}: ${slackEscape(String(t.evidence.summary ?? ''))}${link(testUrl(t.id))}`,
  }));
}

export function causeEvents(causes: CauseLike[]): AlertDraft[] {
  return causes.map((c) => ({
    kind: 'new-cause' as const,
    key: `new-cause|${c.id}`,
    text: `New cause: ${slackEscape(c.title)}${c.runs !== undefined ? ` (${c.runs} runs)` : ''}${c.summary ? `: ${slackEscape(c.summary)}` : ''}${link(c.url ?? '')}`,
  }));
}
