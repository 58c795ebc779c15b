// Alerts after an ingest pass: the events that stand now (gates blocked, streams rejecting payloads,
// regressions, causes), recorded once per configured receiver that wants them, then sent within a
// short deadline. `buildcop ingest` and the demo call this after each pass; it never throws.
import type { Config } from '../config';
import type { Database } from '../store/db';
import { promotionStatus } from '../answers/promotion';
import { hotlist } from '../answers/hotlist';
import { publicOrigin } from '../answers/testComment';
import { iso } from '../history/window';
import { currentCauses, type CauseSource } from './causes';
import { ALERT_DEADLINE_MS, deliverEvents, recordEvents, type DeliverySummary } from './deliver';
import { causeEvents, gateEvents, regressionEvents, streamEvents, type AlertDraft } from './events';

export interface AlertOptions {
  config: Config;
  db: Database;
  /** Unix seconds the events are judged at (default now) */
  at?: number;
  /** the longest the pass waits for the receivers (default ALERT_DEADLINE_MS) */
  deadlineMs?: number;
  /** the dashboard's address in the alerts' links (default BUILDCOP_PUBLIC_URL) */
  origin?: string;
  causes?: CauseSource;
}

export interface AlertSummary extends DeliverySummary {
  /** events recorded this pass (for any receiver) */
  recorded: number;
}

const NONE: AlertSummary = { recorded: 0, sent: 0, failed: 0, waiting: 0, errors: [] };

/** The events that stand at `at`, of the kinds some receiver wants. */
export async function currentEvents(db: Database, config: Config, wanted: Set<string>, at: number, origin: string, causes: CauseSource): Promise<AlertDraft[]> {
  const drafts: AlertDraft[] = [];
  const promotionUrl = `${origin}/promotion?at=${iso(at)}`;
  if ((wanted.has('gate-blocked') && config.promotion?.length) || (wanted.has('stream-rejected') && config.releaseController?.streams.length)) {
    const status = await promotionStatus(db, config, { at, verdicts: false });
    if (wanted.has('gate-blocked')) drafts.push(...gateEvents(status, promotionUrl));
    if (wanted.has('stream-rejected')) drafts.push(...streamEvents(status, promotionUrl));
  }
  if (wanted.has('new-regression')) {
    const hot = await hotlist(db, { window: '7d', at, classification: 'regression', limit: 200 }, { ignoreTests: config.ignoreTests });
    drafts.push(...regressionEvents(hot.items, (id) => `${origin}/tests/${id}?at=${iso(at)}`));
  }
  if (wanted.has('new-cause')) drafts.push(...causeEvents((await causes(db, at, config.ignoreTests)).map((c) => ({ ...c, url: c.url && `${origin}${c.url}?at=${iso(at)}` }))));
  return drafts;
}

export async function alertAfterPass(opts: AlertOptions): Promise<AlertSummary> {
  const receivers = opts.config.alerts ?? [];
  if (!receivers.length) return NONE;
  const at = opts.at ?? Math.floor(Date.now() / 1000);
  const now = Math.floor(Date.now() / 1000);
  try {
    const wanted = new Set(receivers.flatMap((r) => r.on));
    const drafts = await currentEvents(opts.db, opts.config, wanted, at, opts.origin ?? publicOrigin(), opts.causes ?? currentCauses);
    const recorded = await recordEvents(opts.db, receivers, drafts, now);
    const sent = await deliverEvents(opts.db, receivers, { now, deadlineMs: opts.deadlineMs ?? ALERT_DEADLINE_MS });
    return { recorded, ...sent };
  } catch (e) {
    return { ...NONE, errors: [`alerts: ${(e as Error).message}`] };
  }
}

export function formatAlertSummary(s: AlertSummary): string {
  return `alerts: ${s.recorded} new events, ${s.sent} sent, ${s.failed} failed, ${s.waiting} waiting${s.errors.length ? `; ${s.errors.slice(0, 3).join('; ')}` : ''}`;
}
