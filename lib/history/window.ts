// Time windows: parsing "7d"/"24h", and the bucket grid that verdicts and sparklines use.
import { InvalidQueryError } from '../errors';

export const WINDOWS = { '24h': 86_400, '3d': 3 * 86_400, '7d': 7 * 86_400, '14d': 14 * 86_400, '30d': 30 * 86_400, '90d': 90 * 86_400 } as const;
export type WindowName = keyof typeof WINDOWS;

export function parseWindow(w: string | undefined | null): WindowName {
  if (w === undefined || w === null || w === '') return '7d';
  if (!(w in WINDOWS)) throw new InvalidQueryError(`invalid window ${JSON.stringify(w)}: use one of ${Object.keys(WINDOWS).join(', ')}`);
  return w as WindowName;
}

/** `at` as Unix seconds: an ISO time (or YYYY-MM-DD), default now. */
export function parseAt(at: string | undefined | null, now = Date.now()): number {
  if (at === undefined || at === null || at === '') return Math.floor(now / 1000);
  const ms = Date.parse(at);
  if (!/^\d{4}-\d{2}-\d{2}/.test(at) || Number.isNaN(ms)) throw new InvalidQueryError(`invalid at ${JSON.stringify(at)}: use an ISO time such as 2026-11-23T00:00:00Z`);
  return Math.floor(ms / 1000);
}

export interface WindowSpan {
  window: WindowName;
  /** [from, to): the window; [prevFrom, from): the window before it */
  from: number;
  to: number;
  prevFrom: number;
  /** buckets of bucketSeconds from prevFrom to to (the first half before the window) */
  bucketSeconds: number;
  buckets: number;
}

export function windowSpan(window: WindowName, at: number): WindowSpan {
  const len = WINDOWS[window];
  // 28 buckets per window: 6 h for 7 days, 1 h for a day; fine enough to date a change, coarse
  // enough that a run-set covers only a few of them.
  const bucketSeconds = Math.max(3600, Math.floor(len / 28 / 3600) * 3600);
  const buckets = Math.ceil((2 * len) / bucketSeconds);
  return { window, from: at - len, to: at, prevFrom: at - 2 * len, bucketSeconds, buckets };
}

export function bucketOf(span: WindowSpan, started: number): number {
  return Math.floor((started - span.prevFrom) / span.bucketSeconds);
}

export const iso = (s: number): string => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
export const day = (s: number): string => new Date(s * 1000).toISOString().slice(0, 10);
