// Alert events to webhooks: recorded once per receiver in alert_event (so a restart sends nothing
// twice), then POSTed as JSON within a deadline. A send that fails is tried again soon within the
// pass while the deadline allows, then at later passes after a backoff; it never holds a pass longer
// than its deadline. Only the configured receivers' hosts are contacted (undici's request follows no
// redirect).
import crypto from 'node:crypto';
import { request } from 'undici';
import type { Database } from '../store/db';
import type { AlertDraft } from './events';

/** The longest a pass waits for its alerts, all receivers together. */
export const ALERT_DEADLINE_MS = 5_000;
/** Events sent per receiver per pass, at most (the rest wait for the next pass, in order). */
export const MAX_PER_PASS = 20;
/** Tries of one event before it is given up (the last waits about a day after the first). */
export const MAX_ATTEMPTS = 12;
/** Tries within one pass, while its deadline allows: a receiver's passing 5xx should not wait a pass. */
const TRIES_PER_PASS = 3;
const RETRY_BASE_MS = 200;

export interface Receiver {
  url: string;
  /** the event kinds it wants */
  on: readonly string[];
}

/** A webhook URL holds its secret: only a digest names the receiver in the database. */
export function receiverId(url: string): string {
  return crypto.createHash('sha256').update(url).digest('hex').slice(0, 32);
}

/** Seconds before the next pass may try again: 1, 2, 4 ... minutes, at most an hour. */
export function retryAfterSeconds(attempts: number): number {
  return Math.min(3600, 60 * 2 ** Math.max(0, attempts - 1));
}

/** Records each receiver's new events (an event already recorded for it is left as it is). */
export async function recordEvents(db: Database, receivers: Receiver[], drafts: AlertDraft[], now: number): Promise<number> {
  let added = 0;
  for (const r of receivers) {
    const id = receiverId(r.url);
    for (const d of drafts.filter((e) => r.on.includes(e.kind))) {
      added += await db.run(
        'INSERT INTO alert_event (receiver, kind, event_key, body, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (receiver, event_key) DO NOTHING',
        [id, d.kind, d.key, JSON.stringify({ text: d.text }), now],
      );
    }
  }
  return added;
}

export class AlertSendError extends Error {
  constructor(
    message: string,
    /** worth another try: a 5xx, 429 or 408, a timeout, a connection that failed */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'AlertSendError';
  }
}

/** One POST of a JSON body, within `timeoutMs`; refused before connecting when the host is not allowed. */
export async function postJson(url: string, body: string, allowedHosts: Set<string>, timeoutMs: number): Promise<void> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AlertSendError('not a URL', false);
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || !allowedHosts.has(u.host)) throw new AlertSendError(`host ${u.host} is not a configured alert receiver`, false);
  const ms = Math.max(1, Math.ceil(timeoutMs)); // undici takes whole milliseconds
  const signal = AbortSignal.timeout(ms);
  let status: number;
  try {
    const res = await request(u, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'buildcop-alerts' },
      body,
      signal,
      headersTimeout: ms,
      bodyTimeout: ms,
    });
    status = res.statusCode;
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
  } catch (e) {
    const timedOut = signal.aborted || /timeout/i.test((e as Error).name);
    throw new AlertSendError(timedOut ? `no answer within ${ms} ms` : (e as Error).message, true);
  }
  if (status < 200 || status > 299) throw new AlertSendError(`HTTP ${status}`, status >= 500 || status === 429 || status === 408);
}

export interface DeliverySummary {
  sent: number;
  failed: number;
  /** events still waiting (due later, or not reached within the deadline) */
  waiting: number;
  errors: string[];
}

interface DueRow {
  id: number;
  body: string;
  attempts: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends every due event of every receiver, oldest first, until done or the deadline. */
export async function deliverEvents(db: Database, receivers: Receiver[], opts: { now: number; deadlineMs?: number }): Promise<DeliverySummary> {
  const deadline = performance.now() + (opts.deadlineMs ?? ALERT_DEADLINE_MS);
  const allowed = new Set(receivers.map((r) => new URL(r.url).host));
  const summary: DeliverySummary = { sent: 0, failed: 0, waiting: 0, errors: [] };
  const left = () => deadline - performance.now();

  const one = async (r: Receiver) => {
    const rows = await db.all<DueRow>(
      'SELECT id, body, attempts FROM alert_event WHERE receiver = ? AND sent_at IS NULL AND next_try <= ? AND attempts < ? ORDER BY id LIMIT ?',
      [receiverId(r.url), opts.now, MAX_ATTEMPTS, MAX_PER_PASS],
    );
    for (const [i, row] of rows.entries()) {
      if (left() <= 0) {
        summary.waiting += rows.length - i;
        return;
      }
      let error: AlertSendError | undefined;
      let attempts = row.attempts;
      for (let t = 0; t < TRIES_PER_PASS && left() > 0; t++) {
        attempts++;
        try {
          await postJson(r.url, row.body, allowed, left());
          error = undefined;
          break;
        } catch (e) {
          error = e as AlertSendError;
          if (!error.retryable) break;
          const wait = RETRY_BASE_MS * 2 ** t;
          if (t + 1 < TRIES_PER_PASS && left() > wait) await sleep(wait);
          else break;
        }
      }
      if (!error) {
        await db.run('UPDATE alert_event SET sent_at = ?, attempts = ?, last_error = ? WHERE id = ?', [Math.floor(Date.now() / 1000), attempts, '', row.id]);
        summary.sent++;
        continue;
      }
      const retry = error.retryable && attempts < MAX_ATTEMPTS;
      await db.run('UPDATE alert_event SET attempts = ?, next_try = ?, last_error = ? WHERE id = ?', [
        retry ? attempts : MAX_ATTEMPTS,
        opts.now + retryAfterSeconds(attempts),
        error.message.slice(0, 500),
        row.id,
      ]);
      summary.failed++;
      summary.errors.push(`${new URL(r.url).host}: ${error.message}${retry ? ' (tried again later)' : ' (given up)'}`);
      // a receiver that does not answer would only spend the rest of the deadline on its next events
      if (error.retryable) {
        summary.waiting += rows.length - i - 1;
        return;
      }
    }
  };
  await Promise.all(receivers.map(one));
  return summary;
}
