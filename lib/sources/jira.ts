// Jira REST v2 search: the issues a JQL finds that were updated since a time (ci-search appends
// `updated >= 'yyyy/MM/dd HH:mm'` the same way), with their comments.
//   GET /rest/api/2/search?jql=...&fields=...&startAt=N&maxResults=M → {startAt, maxResults, total, issues}
//   GET /rest/api/2/issue/<key>/comment?startAt=N   (when the search carried only some comments)
import type { HttpClient } from './http';
import {
  asString, capComments, isClosedStatus, isObject, parseTrackerTime, trimSlash, TrackerError,
  type FetchResult,
} from './trackerBug';

export const JIRA_FIELDS = 'summary,description,status,resolution,resolutiondate,components,comment,updated,created';
/** used when the configuration names no JQL: OpenShift's bug project */
export const DEFAULT_JQL = 'project = OCPBUGS';
const PAGE = 100;
const MAX_PAGES = 500;

export interface JiraFetch {
  url: string;
  jql?: string;
  since?: number | null;
  /** fetch these keys instead of the configured JQL */
  keys?: string[];
  known?: Map<string, { lastChange: number | null; closedAt: number | null }>;
}

export function jiraIssueUrl(base: string, key: string): string {
  return `${trimSlash(base)}/browse/${encodeURIComponent(key)}`;
}

/** Jira's JQL date literal, in UTC, floored to the minute (JQL has no seconds). */
export function jqlTime(unix: number): string {
  const d = new Date(unix * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

/** The configured JQL restricted to issues updated since `since`, oldest change first (stable paging). */
export function incrementalJql(jql: string, since: number | null | undefined): string {
  const base = jql.replace(/\border\s+by\b[\s\S]*$/i, '').trim();
  const clauses = [base ? `(${base})` : '', since != null ? `updated >= "${jqlTime(since)}"` : ''].filter(Boolean);
  return `${clauses.join(' AND ')} ORDER BY updated ASC`.trim();
}

async function jiraJson(http: HttpClient, url: string, what: string): Promise<Record<string, unknown>> {
  let res;
  try {
    res = await http.get(url, { accept: [400, 401, 403, 404], headers: { accept: 'application/json' } });
  } catch (e) {
    throw new TrackerError('jira', `${what}: ${(e as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new TrackerError('jira', `${what}: ${url} answered HTTP ${res.status} with something that is not JSON: ${JSON.stringify(res.body.toString('utf8').slice(0, 120))}`);
  }
  if (res.status >= 400) {
    const msgs = isObject(body) && Array.isArray(body.errorMessages) ? body.errorMessages.map(asString).join('; ') : '';
    throw new TrackerError('jira', `${what}: HTTP ${res.status}${msgs ? `: ${msgs}` : ''} (${url})`);
  }
  if (!isObject(body)) throw new TrackerError('jira', `${what}: unexpected response from ${url} (not a JSON object)`);
  return body;
}

/** Plain text of a v2 wiki string or of a v3 Atlassian Document Format tree. */
export function jiraText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!isObject(v)) return '';
  if (v.type === 'text') return asString(v.text);
  const parts = Array.isArray(v.content) ? v.content.map(jiraText) : [];
  const block = ['paragraph', 'codeBlock', 'heading', 'listItem', 'blockquote'].includes(asString(v.type));
  return parts.join('') + (block ? '\n' : '');
}

/** Issues updated since `since` (or the given keys), with all their comments. */
export async function fetchJira(http: HttpClient, opts: JiraFetch): Promise<FetchResult & { complete: boolean; unchanged: number }> {
  const out: FetchResult & { complete: boolean; unchanged: number } = { bugs: [], maxChange: null, warnings: [], requests: 0, complete: true, unchanged: 0 };
  const jql = opts.keys?.length ? `key in (${opts.keys.map((k) => `"${k.replace(/"/g, '')}"`).join(', ')}) ORDER BY key ASC` : incrementalJql(opts.jql || DEFAULT_JQL, opts.since);
  let startAt = 0;
  for (let page = 0; ; page++) {
    if (page >= MAX_PAGES) {
      out.warnings.push(`jira: stopped after ${MAX_PAGES} pages; narrow "jira.jql"`);
      out.complete = false;
      break;
    }
    const u = new URL(`${trimSlash(opts.url)}/rest/api/2/search`);
    u.searchParams.set('jql', jql);
    u.searchParams.set('fields', JIRA_FIELDS);
    u.searchParams.set('startAt', String(startAt));
    u.searchParams.set('maxResults', String(PAGE));
    const body = await jiraJson(http, u.toString(), 'search');
    if (!Array.isArray(body.issues)) throw new TrackerError('jira', `search: the response has no "issues" array (${u})`);
    const issues = body.issues.filter(isObject);
    for (const issue of issues) await addIssue(http, opts, issue, out);
    startAt += body.issues.length;
    const total = typeof body.total === 'number' ? body.total : 0;
    if (body.issues.length === 0 || startAt >= total) break;
  }
  return out;
}

async function addIssue(http: HttpClient, opts: JiraFetch, issue: Record<string, unknown>, out: FetchResult & { complete: boolean; unchanged: number }): Promise<void> {
  const key = asString(issue.key);
  const f = isObject(issue.fields) ? issue.fields : {};
  if (!/^[A-Za-z][A-Za-z0-9_]*-\d+$/.test(key)) {
    out.warnings.push(`jira: skipped an issue without a key: ${JSON.stringify(issue).slice(0, 120)}`);
    return;
  }
  const lastChange = parseTrackerTime(f.updated);
  if (lastChange !== null) out.maxChange = Math.max(out.maxChange ?? 0, lastChange);
  const known = opts.known?.get(key);
  if (known && lastChange !== null && known.lastChange === lastChange) {
    out.unchanged++;
    return;
  }
  const c = isObject(f.comment) ? f.comment : {};
  const list = Array.isArray(c.comments) ? c.comments.filter(isObject) : [];
  const comments = list.map((x) => jiraText(x.body));
  const total = typeof c.total === 'number' ? c.total : comments.length;
  try {
    while (comments.length < total) {
      const u = `${trimSlash(opts.url)}/rest/api/2/issue/${encodeURIComponent(key)}/comment?startAt=${comments.length}&maxResults=${PAGE}`;
      const more = await jiraJson(http, u, `comments of ${key}`);
      out.requests++;
      const got = Array.isArray(more.comments) ? more.comments.filter(isObject) : [];
      if (got.length === 0) break;
      comments.push(...got.map((x) => jiraText(x.body)));
    }
  } catch (e) {
    out.warnings.push(`${(e as Error).message} (${key} is fetched again next time)`);
    out.complete = false;
    return;
  }
  const status = isObject(f.status) ? asString(f.status.name) : asString(f.status);
  const resolution = isObject(f.resolution) ? asString(f.resolution.name) : '';
  const components = Array.isArray(f.components) ? f.components.map((x) => (isObject(x) ? asString(x.name) : asString(x))).filter(Boolean) : [];
  out.bugs.push({
    tracker: 'jira',
    bugId: key,
    url: jiraIssueUrl(opts.url, key),
    summary: asString(f.summary),
    status,
    resolution,
    description: jiraText(f.description),
    comments: capComments(comments),
    component: components.join(', '),
    lastChange,
    closedAt: isClosedStatus(status) ? (parseTrackerTime(f.resolutiondate) ?? known?.closedAt ?? lastChange) : null,
  });
}
