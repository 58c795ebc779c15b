// Bugzilla REST, Jira REST v2 search and GitHub issues, as of `now`: a bug exists once created,
// shows the status and comments it had at `now`, and its last change is the latest of those.
import { jiraTime, rfc3339 } from '../world/format';
import type { StatusChange, TrackerComment, WorldBugzillaBug, WorldGithubIssue, WorldJiraIssue } from '../world/types';
import { intParam, jsonReply, listParam, pick, type Reply, type RouteContext } from './http';

function statusAt(statuses: StatusChange[], now: number): StatusChange {
  let cur = statuses[0];
  for (const s of statuses) if (s.at <= now) cur = s;
  return cur;
}

function visibleComments(comments: TrackerComment[], now: number): TrackerComment[] {
  return comments.filter((c) => c.at <= now);
}

function lastChange(created: number, statuses: StatusChange[], comments: TrackerComment[], now: number, closed?: number): number {
  const times = [created, ...statuses.map((s) => s.at), ...comments.map((c) => c.at), ...(closed !== undefined ? [closed] : [])];
  return Math.max(...times.filter((t) => t <= now));
}

function parseTime(s: string | null): number | undefined {
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? Math.floor(t / 1000) : undefined;
}

// ---- Bugzilla --------------------------------------------------------------------------------

function bugzillaBug(b: WorldBugzillaBug, now: number): Record<string, unknown> {
  const st = statusAt(b.statuses, now);
  const comments = visibleComments(b.comments, now);
  return {
    id: b.id,
    summary: b.summary,
    status: st.status,
    resolution: st.resolution ?? '',
    product: 'OpenShift Container Platform',
    component: b.component,
    version: b.version,
    target_release: b.target_release,
    whiteboard: b.whiteboard,
    cf_internal_whiteboard: '',
    keywords: [],
    severity: 'high',
    priority: 'unspecified',
    creator: b.comments[0]?.author ?? 'nobody@redhat.com',
    assigned_to: comments[comments.length - 1]?.author ?? 'nobody@redhat.com',
    creation_time: rfc3339(b.created),
    last_change_time: rfc3339(lastChange(b.created, b.statuses, comments, now)),
  };
}

export function bugzillaSearch(ctx: RouteContext): Reply {
  const since = parseTime(ctx.url.searchParams.get('last_change_time'));
  if (ctx.url.searchParams.get('last_change_time') && since === undefined) {
    return jsonReply(400, { error: true, code: 302, message: "The 'last_change_time' field is not a valid date/time." });
  }
  const ids = new Set(listParam(ctx.url, 'id').map(Number));
  const fields = listParam(ctx.url, 'include_fields');
  let bugs = ctx.world.bugzilla
    .filter((b) => b.created <= ctx.now && (ids.size === 0 || ids.has(b.id)))
    .map((b) => bugzillaBug(b, ctx.now))
    .filter((b) => since === undefined || (parseTime(b.last_change_time as string) ?? 0) >= since)
    .sort((a, b) => (a.id as number) - (b.id as number));
  const offset = intParam(ctx.url, 'offset', 0);
  const limit = intParam(ctx.url, 'limit', 0);
  bugs = bugs.slice(offset, limit > 0 ? offset + limit : undefined);
  return jsonReply(200, { bugs: bugs.map((b) => pick(b, fields)), faults: [] });
}

export function bugzillaBugById(ctx: RouteContext, id: number): Reply {
  const b = ctx.world.bugzilla.find((x) => x.id === id && x.created <= ctx.now);
  if (!b) return jsonReply(404, { error: true, code: 101, message: `Bug #${id} does not exist.`, documentation: 'https://bugzilla.readthedocs.org/en/latest/api/index.html' });
  return jsonReply(200, { bugs: [pick(bugzillaBug(b, ctx.now), listParam(ctx.url, 'include_fields'))], faults: [] });
}

export function bugzillaComments(ctx: RouteContext, firstId: number): Reply {
  const ids = [firstId, ...listParam(ctx.url, 'ids').map(Number)];
  const fields = listParam(ctx.url, 'include_fields');
  const out: Record<string, { comments: Record<string, unknown>[] }> = {};
  for (const id of ids) {
    const b = ctx.world.bugzilla.find((x) => x.id === id && x.created <= ctx.now);
    if (!b) return jsonReply(404, { error: true, code: 101, message: `Bug #${id} does not exist.`, documentation: 'https://bugzilla.readthedocs.org/en/latest/api/index.html' });
    out[String(id)] = {
      comments: visibleComments(b.comments, ctx.now).map((c, count) =>
        pick({ id: c.id, bug_id: b.id, count, text: c.text, creator: c.author, creation_time: rfc3339(c.at), time: rfc3339(c.at), is_private: false, attachment_id: null }, fields),
      ),
    };
  }
  return jsonReply(200, { bugs: out, comments: {} });
}

// ---- Jira --------------------------------------------------------------------------------------

const JQL_UPDATED = /\bupdated\s*(>=|>)\s*(?:"([^"]*)"|'([^']*)'|(-?\d+[mhdw]|\d{4}[-/]\d{1,2}[-/]\d{1,2}(?:\s+\d{1,2}:\d{2})?))/i;

/** Jira dates: "yyyy/MM/dd HH:mm", "yyyy-MM-dd", or relative "-2d" (UTC here) */
function jqlDate(s: string, now: number): number | undefined {
  const rel = /^(-?)(\d+)([mhdw])$/.exec(s.trim());
  if (rel) return now - Number(rel[2]) * { m: 60, h: 3600, d: 86400, w: 604800 }[rel[3] as 'm']!;
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(s.trim());
  if (!m) return undefined;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0)) / 1000;
}

function jiraIssue(i: WorldJiraIssue, ctx: RouteContext, fields: string[]): Record<string, unknown> {
  const st = statusAt(i.statuses, ctx.now);
  const comments = visibleComments(i.comments, ctx.now);
  const resolved = st.resolution ? st.at : undefined;
  const all: Record<string, unknown> = {
    summary: i.summary,
    description: i.description,
    status: { name: st.status, id: String(10000 + st.status.length) },
    resolution: st.resolution ? { name: st.resolution } : null,
    components: i.components.map((name) => ({ name })),
    labels: [],
    comment: {
      comments: comments.map((c) => ({ id: String(c.id), author: { name: c.author, displayName: c.author }, body: c.text, created: jiraTime(c.at), updated: jiraTime(c.at) })),
      maxResults: comments.length,
      total: comments.length,
      startAt: 0,
    },
    created: jiraTime(i.created),
    updated: jiraTime(lastChange(i.created, i.statuses, comments, ctx.now)),
    resolutiondate: resolved !== undefined ? jiraTime(resolved) : null,
  };
  const wanted = fields.filter((f) => f !== '*all' && f !== '*navigable');
  return { expand: 'operations,versionedRepresentations,editmeta,changelog,renderedFields', id: i.id, self: `${ctx.baseUrl}/rest/api/2/issue/${i.id}`, key: i.key, fields: pick(all, wanted) };
}

export function jiraSearch(ctx: RouteContext): Reply {
  const jql = ctx.url.searchParams.get('jql') ?? '';
  let since: number | undefined;
  let strict = false;
  const m = JQL_UPDATED.exec(jql);
  if (m) {
    since = jqlDate(m[2] ?? m[3] ?? m[4], ctx.now);
    strict = m[1] === '>';
    if (since === undefined) return jsonReply(400, { errorMessages: [`Date value '${m[2] ?? m[3] ?? m[4]}' for field 'updated' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.`], errors: {} });
  } else if (/\bupdated\b/i.test(jql.replace(/order\s+by.*$/i, ''))) {
    return jsonReply(400, { errorMessages: [`Error in the JQL Query: ${jql}`], errors: {} });
  }
  const fields = listParam(ctx.url, 'fields');
  const order = /\border\s+by\s+(\w+)(?:\s+(asc|desc))?/i.exec(jql);
  let issues = ctx.world.jira.filter((i) => i.created <= ctx.now).map((i) => ({ i, view: jiraIssue(i, ctx, []) }));
  const updatedOf = (v: Record<string, unknown>) => Date.parse(String((v.fields as Record<string, unknown>).updated)) / 1000;
  if (since !== undefined) issues = issues.filter(({ view }) => (strict ? updatedOf(view) > since! : updatedOf(view) >= since!));
  // `key in ("A-1", "B-2")`, as buildcop fetches issues by key (Jira answers just those)
  const keys = /\bkey\s+in\s*\(([^)]*)\)/i.exec(jql);
  if (keys) {
    const wanted = new Set(keys[1].split(',').map((k) => k.trim().replace(/^["']|["']$/g, '').toUpperCase()));
    issues = issues.filter(({ i }) => wanted.has(i.key.toUpperCase()));
  }
  const key = (order?.[1] ?? 'key').toLowerCase();
  const dir = (order?.[2] ?? (order ? 'asc' : 'asc')).toLowerCase() === 'desc' ? -1 : 1;
  issues.sort((a, b) => {
    const va = key === 'updated' ? updatedOf(a.view) : key === 'created' ? a.i.created : Number(a.i.key.split('-')[1]);
    const vb = key === 'updated' ? updatedOf(b.view) : key === 'created' ? b.i.created : Number(b.i.key.split('-')[1]);
    return (va - vb) * dir || (a.i.id < b.i.id ? -1 : 1);
  });
  const startAt = intParam(ctx.url, 'startAt', 0);
  const maxResults = Math.min(intParam(ctx.url, 'maxResults', 50, 0), ctx.options.jiraPageSize);
  const page = issues.slice(startAt, startAt + maxResults).map(({ i }) => jiraIssue(i, ctx, fields));
  return jsonReply(200, { expand: 'schema,names', startAt, maxResults, total: issues.length, issues: page });
}

export function jiraIssueByKey(ctx: RouteContext, key: string): Reply {
  const i = ctx.world.jira.find((x) => (x.key === key || x.id === key) && x.created <= ctx.now);
  if (!i) return jsonReply(404, { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} });
  return jsonReply(200, jiraIssue(i, ctx, listParam(ctx.url, 'fields')));
}

// ---- GitHub ------------------------------------------------------------------------------------

function githubIssue(repo: string, i: WorldGithubIssue, ctx: RouteContext): Record<string, unknown> {
  const comments = visibleComments(i.comments, ctx.now);
  const closed = i.closed !== undefined && i.closed <= ctx.now ? i.closed : undefined;
  const api = `${ctx.baseUrl}/repos/${repo}/issues/${i.number}`;
  const html = `https://github.com/${repo}/${i.isPullRequest ? 'pull' : 'issues'}/${i.number}`;
  const out: Record<string, unknown> = {
    url: api,
    repository_url: `${ctx.baseUrl}/repos/${repo}`,
    comments_url: `${api}/comments`,
    html_url: html,
    id: 300000000 + i.number,
    number: i.number,
    title: i.title,
    user: { login: i.user },
    labels: [],
    state: closed !== undefined ? 'closed' : 'open',
    locked: false,
    comments: comments.length,
    created_at: rfc3339(i.created),
    updated_at: rfc3339(lastChange(i.created, [], comments, ctx.now, closed)),
    closed_at: closed !== undefined ? rfc3339(closed) : null,
    body: i.body,
  };
  if (i.isPullRequest) {
    out.pull_request = { url: `${ctx.baseUrl}/repos/${repo}/pulls/${i.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch` };
  }
  return out;
}

function paginate<T>(ctx: RouteContext, items: T[]): { page: T[]; link?: string } {
  const perPage = Math.min(intParam(ctx.url, 'per_page', 30, 1, 100), ctx.options.githubPageSize);
  const pageNo = intParam(ctx.url, 'page', 1, 1);
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const at = (p: number) => {
    const u = new URL(`${ctx.baseUrl}${ctx.url.pathname}${ctx.url.search}`);
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    return `<${u.toString()}>`;
  };
  const links: string[] = [];
  if (pageNo > 1) links.push(`${at(pageNo - 1)}; rel="prev"`, `${at(1)}; rel="first"`);
  if (pageNo < pages) links.push(`${at(pageNo + 1)}; rel="next"`, `${at(pages)}; rel="last"`);
  return { page: items.slice((pageNo - 1) * perPage, pageNo * perPage), link: links.length ? links.join(', ') : undefined };
}

const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };

export function githubIssues(ctx: RouteContext, repo: string): Reply {
  const list = ctx.world.github.get(repo);
  if (!list) return jsonReply(404, NOT_FOUND);
  const state = ctx.url.searchParams.get('state') ?? 'open';
  const since = parseTime(ctx.url.searchParams.get('since'));
  const sort = ctx.url.searchParams.get('sort') ?? 'created';
  const direction = ctx.url.searchParams.get('direction') === 'asc' ? 1 : -1;
  const issues = list
    .filter((i) => i.created <= ctx.now)
    .map((i) => githubIssue(repo, i, ctx))
    .filter((i) => state === 'all' || i.state === state)
    .filter((i) => since === undefined || (parseTime(i.updated_at as string) ?? 0) >= since)
    .sort((a, b) => {
      const k = sort === 'updated' ? 'updated_at' : 'created_at';
      return (Date.parse(a[k] as string) - Date.parse(b[k] as string)) * direction || ((a.number as number) - (b.number as number)) * direction;
    });
  const { page, link } = paginate(ctx, issues);
  return jsonReply(200, page, link ? { link } : {});
}

export function githubIssue1(ctx: RouteContext, repo: string, n: number): Reply {
  const i = ctx.world.github.get(repo)?.find((x) => x.number === n && x.created <= ctx.now);
  return i ? jsonReply(200, githubIssue(repo, i, ctx)) : jsonReply(404, NOT_FOUND);
}

export function githubComments(ctx: RouteContext, repo: string, n: number): Reply {
  const i = ctx.world.github.get(repo)?.find((x) => x.number === n && x.created <= ctx.now);
  if (!i) return jsonReply(404, NOT_FOUND);
  const comments = visibleComments(i.comments, ctx.now).map((c) => ({
    url: `${ctx.baseUrl}/repos/${repo}/issues/comments/${c.id}`,
    html_url: `https://github.com/${repo}/issues/${n}#issuecomment-${c.id}`,
    id: c.id,
    user: { login: c.author },
    created_at: rfc3339(c.at),
    updated_at: rfc3339(c.at),
    body: c.text,
  }));
  const { page, link } = paginate(ctx, comments);
  return jsonReply(200, page, link ? { link } : {});
}
