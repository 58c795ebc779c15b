// Bugzilla REST (5.x): the bugs a quicksearch finds that changed since a time, their comments and,
// for closed bugs, when they were closed (from the status history).
//   GET /rest/bug?quicksearch=Q&include_fields=...&last_change_time=T&limit=N&offset=M
//   GET /rest/bug/<first>/comment?ids=<id>&ids=...      → {"bugs": {"<id>": {"comments": [...]}}}
//   GET /rest/bug/<id>/history                          → {"bugs": [{"history": [{when, changes}]}]}
import type { HttpClient } from './http';
import {
  asString, capComments, isClosedStatus, isObject, parseTrackerTime, trimSlash, TrackerError,
  type FetchResult, type TrackerBug,
} from './trackerBug';

export const BUGZILLA_FIELDS = 'id,summary,status,resolution,component,version,target_release,whiteboard,last_change_time,creation_time';
/** used when the configuration names no query: every status (closed bugs matter for "recurred after fix") */
export const DEFAULT_BUGZILLA_QUERY = 'ALL';
const PAGE = 500;
const COMMENT_BATCH = 20;
const MAX_PAGES = 400;

export interface BugzillaFetch {
  url: string;
  query?: string;
  /** only bugs changed at or after this time (Unix seconds) */
  since?: number | null;
  /** fetch these bug ids instead of searching */
  ids?: string[];
  /** what is stored already: unchanged bugs are not fetched again; a known close time is kept */
  known?: Map<string, { lastChange: number | null; closedAt: number | null }>;
}

export function bugzillaBugUrl(base: string, id: string): string {
  return `${trimSlash(base)}/show_bug.cgi?id=${encodeURIComponent(id)}`;
}

/** GET returning JSON, with Bugzilla's own error message when it answers one. */
async function bzJson(http: HttpClient, url: string, what: string): Promise<Record<string, unknown>> {
  let res;
  try {
    res = await http.get(url, { accept: [400, 401, 404], headers: { accept: 'application/json' } });
  } catch (e) {
    throw new TrackerError('bugzilla', `${what}: ${(e as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new TrackerError('bugzilla', `${what}: ${url} answered HTTP ${res.status} with something that is not JSON: ${JSON.stringify(res.body.toString('utf8').slice(0, 120))}`);
  }
  if (res.status >= 400 || (isObject(body) && body.error === true)) {
    const msg = isObject(body) ? asString(body.message) : '';
    throw Object.assign(new TrackerError('bugzilla', `${what}: HTTP ${res.status}${msg ? `: ${msg}` : ''} (${url})`), { status: res.status });
  }
  if (!isObject(body)) throw new TrackerError('bugzilla', `${what}: unexpected response from ${url} (not a JSON object)`);
  return body;
}

function searchUrl(opts: BugzillaFetch, offset: number): string {
  const u = new URL(`${trimSlash(opts.url)}/rest/bug`);
  if (opts.ids?.length) u.searchParams.set('id', opts.ids.join(','));
  else u.searchParams.set('quicksearch', opts.query || DEFAULT_BUGZILLA_QUERY);
  u.searchParams.set('include_fields', BUGZILLA_FIELDS);
  if (opts.since != null && !opts.ids?.length) u.searchParams.set('last_change_time', new Date(opts.since * 1000).toISOString().replace('.000Z', 'Z'));
  u.searchParams.set('order', 'bug_id');
  u.searchParams.set('limit', String(PAGE));
  u.searchParams.set('offset', String(offset));
  return u.toString();
}

function firstOf(v: unknown): string {
  return Array.isArray(v) ? v.map(asString).filter(Boolean).join(', ') : asString(v);
}

/** Bugs changed since `since` (or the given ids), with comments; unchanged known bugs are skipped. */
export async function fetchBugzilla(http: HttpClient, opts: BugzillaFetch): Promise<FetchResult & { complete: boolean; unchanged: number }> {
  const out: FetchResult & { complete: boolean; unchanged: number } = { bugs: [], maxChange: null, warnings: [], requests: 0, complete: true, unchanged: 0 };
  const records: Record<string, unknown>[] = [];
  for (let page = 0, offset = 0; ; page++) {
    if (page >= MAX_PAGES) {
      out.warnings.push(`bugzilla: stopped after ${MAX_PAGES} pages of ${PAGE}; narrow "bugzilla.query"`);
      out.complete = false;
      break;
    }
    const body = await bzJson(http, searchUrl(opts, offset), 'search');
    if (!Array.isArray(body.bugs)) throw new TrackerError('bugzilla', `search: the response has no "bugs" array (${searchUrl(opts, offset)})`);
    records.push(...(body.bugs as unknown[]).filter(isObject));
    if (body.bugs.length < PAGE) break;
    offset += body.bugs.length;
  }
  const changed: { id: string; r: Record<string, unknown>; lastChange: number | null }[] = [];
  for (const r of records) {
    const id = asString(r.id);
    if (!/^\d+$/.test(id)) {
      out.warnings.push(`bugzilla: skipped a bug without a numeric id: ${JSON.stringify(r).slice(0, 120)}`);
      continue;
    }
    const lastChange = parseTrackerTime(r.last_change_time);
    if (lastChange !== null) out.maxChange = Math.max(out.maxChange ?? 0, lastChange);
    const known = opts.known?.get(id);
    if (known && lastChange !== null && known.lastChange === lastChange) {
      out.unchanged++;
      continue;
    }
    changed.push({ id, r, lastChange });
  }
  /**
   * The comments of these bugs by id, leaving out those that could not be read (they are fetched again
   * next time). Bugzilla refuses a whole batch (400, 401, 404) for one bug in it that is gone or hidden
   * since the search: such a batch is asked for bug by bug, so that the others are stored.
   */
  const commentsOf = async (ids: string[]): Promise<Map<string, unknown>> => {
    try {
      const body = await fetchComments(http, opts.url, ids);
      out.requests++;
      return new Map(ids.map((id) => [id, body[id]]));
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (ids.length > 1 && status !== undefined && status < 500) {
        const each = new Map<string, unknown>();
        for (const id of ids) for (const [k, v] of await commentsOf([id])) each.set(k, v);
        return each;
      }
      out.warnings.push(`${(e as Error).message} (${ids.length > 1 ? `bugs ${ids.join(', ')} are` : `bug ${ids[0]} is`} fetched again next time)`);
      out.complete = false;
      return new Map();
    }
  };
  for (let i = 0; i < changed.length; i += COMMENT_BATCH) {
    const batch = changed.slice(i, i + COMMENT_BATCH);
    const comments = await commentsOf(batch.map((b) => b.id));
    for (const { id, r, lastChange } of batch) {
      if (!comments.has(id)) continue;
      const entry = comments.get(id);
      const list = isObject(entry) && Array.isArray(entry.comments) ? entry.comments.filter(isObject) : [];
      const texts = list.filter((c) => c.is_private !== true).map((c) => asString(c.text));
      const status = asString(r.status);
      const bug: TrackerBug = {
        tracker: 'bugzilla',
        bugId: id,
        url: bugzillaBugUrl(opts.url, id),
        summary: asString(r.summary),
        status,
        resolution: asString(r.resolution),
        // Bugzilla has no description field: comment 0 is the description.
        description: texts[0] ?? '',
        comments: capComments(texts.slice(1)),
        component: firstOf(r.component),
        lastChange,
        closedAt: null,
      };
      if (isClosedStatus(status)) {
        const known = opts.known?.get(id);
        bug.closedAt = (await closedFromHistory(http, opts.url, id, out)) ?? (known?.closedAt ?? lastChange);
      }
      out.bugs.push(bug);
    }
  }
  return out;
}

async function fetchComments(http: HttpClient, base: string, ids: string[]): Promise<Record<string, unknown>> {
  const u = new URL(`${trimSlash(base)}/rest/bug/${ids[0]}/comment`);
  for (const id of ids.slice(1)) u.searchParams.append('ids', id);
  u.searchParams.set('include_fields', 'id,count,text,time,is_private');
  const body = await bzJson(http, u.toString(), 'comments');
  if (!isObject(body.bugs)) throw new TrackerError('bugzilla', `comments: the response has no "bugs" object (${u})`);
  return body.bugs;
}

/**
 * When the bug last entered a closed status, from its history; null when the server has no history
 * for us (older Bugzilla, permissions) — the caller then falls back to the last change.
 */
async function closedFromHistory(http: HttpClient, base: string, id: string, out: FetchResult): Promise<number | null> {
  const url = `${trimSlash(base)}/rest/bug/${id}/history`;
  let body: Record<string, unknown>;
  try {
    body = await bzJson(http, url, 'history');
    out.requests++;
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status !== 404 && status !== 400 && status !== 401) out.warnings.push(`${(e as Error).message} (close time taken from the last change)`);
    return null;
  }
  const bugs = Array.isArray(body.bugs) ? body.bugs.filter(isObject) : [];
  const history = bugs.find((b) => asString(b.id) === id) ?? bugs[0];
  if (!history || !Array.isArray(history.history)) return null;
  let closed: number | null = null;
  for (const h of history.history.filter(isObject)) {
    const changes = Array.isArray(h.changes) ? h.changes.filter(isObject) : [];
    for (const c of changes) {
      if (asString(c.field_name) !== 'status') continue;
      const added = asString(c.added);
      const removed = asString(c.removed);
      const when = parseTrackerTime(h.when);
      if (isClosedStatus(added) && !isClosedStatus(removed) && when !== null) closed = when;
    }
  }
  return closed;
}
