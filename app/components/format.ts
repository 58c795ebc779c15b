// Small formatting and URL helpers shared by the pages (pure; no React).

export type SearchParams = Record<string, string | string[] | undefined>;

/** Next's searchParams → one string per key (the first, when a key repeats). */
export function flatParams(sp: SearchParams): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(sp)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}

/** path?query with empty values left out, so shared links stay short. */
export function hrefWith(path: string, params: Record<string, string | number | boolean | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '' && v !== false) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Keys whose value is an empty string (a GET form's untouched fields). */
export function emptyKeys(p: Record<string, string | undefined>): string[] {
  return Object.entries(p).filter(([, v]) => v === '').map(([k]) => k);
}

export function ago(isoTime: string, nowMs = Date.now()): string {
  const s = Math.max(0, Math.round((nowMs - Date.parse(isoTime)) / 1000));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'} ago`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.round(s / 3600);
  if (h < 48) return `${h} hours ago`;
  return `${Math.round(s / 86_400)} days ago`;
}

/** "2026-11-22 13:05 UTC" */
export function shortTime(isoTime: string | null | undefined): string {
  if (!isoTime) return '—';
  const d = new Date(isoTime);
  return Number.isNaN(d.getTime()) ? isoTime : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h}h ${m}m` : m ? `${m}m ${s}s` : `${s}s`;
}

export function pct(rate: number | null | undefined, digits = 1): string {
  return rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(digits)}%`;
}

/** Every day (YYYY-MM-DD) from the day of `from` to the day before `to` (ISO times). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(to);
  for (let t = Date.parse(from.slice(0, 10)); t < end; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export const WINDOW_NAMES = ['24h', '3d', '7d', '14d', '30d', '90d'] as const;

/** An http(s) URL from untrusted data, or undefined (no javascript: or data: links). */
export function safeUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

export { segment } from '@/lib/server/api';

export const jobHref = (job: string) => `/jobs/${encodeURIComponent(job)}`;
