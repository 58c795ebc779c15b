// Small shared pieces of the replay server: the reply shape, the per-request context, helpers.
import type { IncomingMessage } from 'node:http';
import type { LoadedWorld, ObjectBytes } from './world';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
  /** a GCS object's bytes (subject to the `truncate` fault) */
  object?: boolean;
  /** gzip it for a client that accepts gzip, as Deck's handlers do (gziphandler) */
  gzip?: boolean;
}

export interface RouteOptions {
  deckFormat: 'current' | '2019';
  noDataJs: boolean;
  gcsPageSize: number;
  deckWindowHours: number;
  jiraPageSize: number;
  githubPageSize: number;
}

export interface RouteContext {
  req: IncomingMessage;
  url: URL;
  /** Unix seconds: the world as it looked at this time */
  now: number;
  baseUrl: string;
  world: LoadedWorld;
  bytes: ObjectBytes;
  options: RouteOptions;
  /** GCS objects the `hideObjects` fault removes (by name): neither listed nor served */
  hidden(name: string): boolean;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: `${JSON.stringify(body)}\n` };
}

export function textReply(status: number, body: string, contentType = 'text/plain; charset=utf-8'): Reply {
  return { status, headers: { 'content-type': contentType }, body };
}

/** Whether an Accept-Encoding header accepts gzip (named, or `*`, without q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

export function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** integer query parameter with a default and bounds */
export function intParam(url: URL, name: string, def: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = url.searchParams.get(name);
  const n = raw === null || raw === '' ? def : Number(raw);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.floor(n))) : def;
}

/** repeated or comma-separated list parameter (`include_fields=a,b&include_fields=c`) */
export function listParam(url: URL, name: string): string[] {
  return url.searchParams.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** keeps only the named top-level fields (none named: all) */
export function pick<T extends Record<string, unknown>>(obj: T, fields: string[]): Partial<T> {
  if (fields.length === 0 || fields.includes('_all') || fields.includes('_default')) return obj;
  return Object.fromEntries(Object.entries(obj).filter(([k]) => fields.includes(k))) as Partial<T>;
}

type FieldSelection = Map<string, FieldSelection | null>;

/**
 * Parses a Google APIs partial-response `fields` parameter (`items(name,size),nextPageToken`,
 * `a/b`, nested parentheses). Returns undefined when it is malformed.
 */
export function parseFields(spec: string): FieldSelection | undefined {
  let i = 0;
  const list = (): FieldSelection | undefined => {
    const out: FieldSelection = new Map();
    for (;;) {
      const start = i;
      while (i < spec.length && !',()'.includes(spec[i])) i++;
      const path = spec.slice(start, i).trim().split('/');
      if (path.some((p) => !p)) return undefined;
      let sub: FieldSelection | null = null;
      if (spec[i] === '(') {
        i++;
        const inner = list();
        if (!inner || spec[i] !== ')') return undefined;
        i++;
        sub = inner;
      }
      // a/b(c) is a(b(c))
      let node: FieldSelection = out;
      for (const p of path.slice(0, -1)) {
        const next = node.get(p) ?? new Map();
        node.set(p, next);
        node = next;
      }
      node.set(path[path.length - 1], sub);
      if (spec[i] !== ',') return out;
      i++;
    }
  };
  const parsed = list();
  return parsed && i === spec.length ? parsed : undefined;
}

/** Keeps only the selected fields of a JSON value (arrays: of each element). */
export function selectFields(value: unknown, selection: FieldSelection): unknown {
  if (Array.isArray(value)) return value.map((v) => selectFields(v, selection));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of selection) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sub ? selectFields(v, sub) : v;
  }
  return out;
}
