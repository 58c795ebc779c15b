// What every bug-tracker client returns: one normalised shape for Bugzilla bugs, Jira issues and
// GitHub issues, plus the small parsing helpers they share.

export type Tracker = 'bugzilla' | 'jira' | 'github';
export const TRACKERS: readonly Tracker[] = ['bugzilla', 'jira', 'github'];

export interface TrackerBug {
  tracker: Tracker;
  /** "1708311", "OCPBUGS-44757", "kubernetes/kubernetes#58711" */
  bugId: string;
  /** the page a person opens */
  url: string;
  summary: string;
  status: string;
  resolution: string;
  description: string;
  comments: string[];
  component: string;
  /** Unix seconds of the last change, as the tracker reports it */
  lastChange: number | null;
  /** Unix seconds when it was closed or verified (status history if known, else the last change) */
  closedAt: number | null;
}

/** A page of a search, and the bugs that could not be read (kept out, reported). */
export interface FetchResult {
  bugs: TrackerBug[];
  /** the largest last-change time seen (the next cursor), or null when nothing came back */
  maxChange: number | null;
  warnings: string[];
  /** requests made for comments (for reports) */
  requests: number;
}

export class TrackerError extends Error {
  constructor(
    readonly tracker: Tracker,
    message: string,
  ) {
    super(`${tracker}: ${message}`);
    this.name = 'TrackerError';
  }
}

const CLOSED = /^(closed|verified|resolved|done|release[ _]pending|errata|won't do|obsolete)$/i;

/** closed or verified: a fix is in (or the bug is otherwise done) */
export function isClosedStatus(status: string): boolean {
  return CLOSED.test(status.trim());
}

/** Unix seconds of an RFC 3339 / ISO time, or of Jira's "2026-11-22T10:00:00.000+0000"; null if unreadable. */
export function parseTrackerTime(v: unknown): number | null {
  if (typeof v !== 'string' || !v) return null;
  // Jira writes the offset without a colon; Date.parse wants one.
  const fixed = v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const t = Date.parse(fixed);
  return Number.isFinite(t) ? Math.floor(t / 1000) : null;
}

export function asString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Comments are stored joined by a separator no whitespace normalisation merges away. */
export const COMMENT_SEPARATOR = '\n\u001e\n';

export function joinComments(comments: string[]): string {
  return comments.join(COMMENT_SEPARATOR);
}

export function splitComments(joined: string): string[] {
  return joined ? joined.split(COMMENT_SEPARATOR) : [];
}

/** caps one bug's text (some bugs carry megabytes of pasted logs) */
export const MAX_BUG_TEXT = 2 * 1024 * 1024;

export function capComments(comments: string[], max = MAX_BUG_TEXT): string[] {
  const out: string[] = [];
  let size = 0;
  for (const c of comments) {
    if (size + c.length > max) {
      out.push(c.slice(0, Math.max(0, max - size)));
      break;
    }
    out.push(c);
    size += c.length;
  }
  return out;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Only http(s) links reach the pages; anything else a tracker sends is replaced. */
export function safeUrl(url: string, fallback: string): string {
  return /^https?:\/\/[^\s"'<>]+$/i.test(url) ? url : fallback;
}
