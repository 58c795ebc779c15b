// GitHub issues of configured repositories, for upstream bugs (kubernetes/kubernetes#58711).
//   GET /repos/<owner>/<repo>/issues?state=all&since=T&sort=updated&direction=asc&per_page=100
//   GET /repos/<owner>/<repo>/issues/<n>/comments?per_page=100
// Pages follow the Link header's rel="next". Pull requests come back from the issues endpoint too;
// they are not bugs and are left out.
import type { HttpClient, HttpResponse } from './http';
import {
  asString, capComments, isObject, parseTrackerTime, safeUrl, trimSlash, TrackerError,
  type FetchResult, type TrackerBug,
} from './trackerBug';

const PAGE = 100;
const MAX_PAGES = 300;

export interface GithubFetch {
  url: string;
  repo: string;
  token?: string;
  since?: number | null;
  /** fetch these issue numbers instead of listing */
  numbers?: number[];
  known?: Map<string, { lastChange: number | null; closedAt: number | null }>;
}

export const REPO_RE = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** The web page of an issue: github.com for api.github.com, the same host for GitHub Enterprise. */
export function githubIssueUrl(apiBase: string, repo: string, n: number | string): string {
  const u = new URL(apiBase);
  const web = u.host === 'api.github.com' ? 'https://github.com' : `${u.protocol}//${u.host}`;
  return `${web}/${repo}/issues/${n}`;
}

function headers(token?: string): Record<string, string> {
  return {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

export function nextLink(res: HttpResponse): string | null {
  const link = res.headers.get('link');
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return m[1];
  }
  return null;
}

async function ghGet(http: HttpClient, url: string, token: string | undefined, what: string): Promise<{ body: unknown; res: HttpResponse }> {
  let res: HttpResponse;
  try {
    res = await http.get(url, { accept: [401, 403, 404, 410, 422], headers: headers(token) });
  } catch (e) {
    throw new TrackerError('github', `${what}: ${(e as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new TrackerError('github', `${what}: ${url} answered HTTP ${res.status} with something that is not JSON: ${JSON.stringify(res.body.toString('utf8').slice(0, 120))}`);
  }
  if (res.status >= 400) {
    const msg = isObject(body) ? asString(body.message) : '';
    const limited = res.headers.get('x-ratelimit-remaining') === '0';
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    const hint = limited ? ` (rate limit exhausted${Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : ''}; set "github.token")` : '';
    throw new TrackerError('github', `${what}: HTTP ${res.status}${msg ? `: ${msg}` : ''}${hint} (${url})`);
  }
  return { body, res };
}

/** Every element of a paginated list. */
async function pages(http: HttpClient, first: string, token: string | undefined, what: string, warnings: string[]): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let url: string | null = first;
  for (let page = 0; url; page++) {
    if (page >= MAX_PAGES) {
      warnings.push(`github: ${what}: stopped after ${MAX_PAGES} pages`);
      break;
    }
    const { body, res } = await ghGet(http, url, token, what);
    if (!Array.isArray(body)) throw new TrackerError('github', `${what}: expected a JSON array from ${url}`);
    out.push(...body.filter(isObject));
    url = nextLink(res);
  }
  return out;
}

/** Issues of one repository updated since `since` (or the given numbers), with their comments. */
export async function fetchGithub(http: HttpClient, opts: GithubFetch): Promise<FetchResult & { complete: boolean; unchanged: number }> {
  const out: FetchResult & { complete: boolean; unchanged: number } = { bugs: [], maxChange: null, warnings: [], requests: 0, complete: true, unchanged: 0 };
  if (!REPO_RE.test(opts.repo)) throw new TrackerError('github', `"${opts.repo}" is not an owner/name repository`);
  const api = `${trimSlash(opts.url)}/repos/${opts.repo}`;
  let issues: Record<string, unknown>[];
  if (opts.numbers?.length) {
    issues = [];
    for (const n of opts.numbers) {
      const { body } = await ghGet(http, `${api}/issues/${n}`, opts.token, `issue ${opts.repo}#${n}`);
      if (isObject(body)) issues.push(body);
    }
  } else {
    const u = new URL(`${api}/issues`);
    u.searchParams.set('state', 'all');
    u.searchParams.set('sort', 'updated');
    u.searchParams.set('direction', 'asc');
    u.searchParams.set('per_page', String(PAGE));
    if (opts.since != null) u.searchParams.set('since', new Date(opts.since * 1000).toISOString().replace('.000Z', 'Z'));
    issues = await pages(http, u.toString(), opts.token, `issues of ${opts.repo}`, out.warnings);
  }
  for (const issue of issues) {
    const n = typeof issue.number === 'number' ? issue.number : NaN;
    if (!Number.isInteger(n)) {
      out.warnings.push(`github: skipped an issue of ${opts.repo} without a number`);
      continue;
    }
    const lastChange = parseTrackerTime(issue.updated_at);
    if (lastChange !== null) out.maxChange = Math.max(out.maxChange ?? 0, lastChange);
    if (issue.pull_request !== undefined) continue;
    const bugId = `${opts.repo}#${n}`;
    const known = opts.known?.get(bugId);
    if (known && lastChange !== null && known.lastChange === lastChange) {
      out.unchanged++;
      continue;
    }
    let comments: string[] = [];
    if (typeof issue.comments !== 'number' || issue.comments > 0) {
      try {
        const list = await pages(http, `${api}/issues/${n}/comments?per_page=${PAGE}`, opts.token, `comments of ${bugId}`, out.warnings);
        out.requests++;
        comments = list.map((c) => asString(c.body));
      } catch (e) {
        out.warnings.push(`${(e as Error).message} (${bugId} is fetched again next time)`);
        out.complete = false;
        continue;
      }
    }
    const closed = asString(issue.state) === 'closed';
    const labels = Array.isArray(issue.labels) ? issue.labels.map((l) => (isObject(l) ? asString(l.name) : asString(l))).filter(Boolean) : [];
    const bug: TrackerBug = {
      tracker: 'github',
      bugId,
      url: safeUrl(asString(issue.html_url), githubIssueUrl(opts.url, opts.repo, n)),
      summary: asString(issue.title),
      status: asString(issue.state),
      resolution: closed ? asString(issue.state_reason) : '',
      description: asString(issue.body),
      comments: capComments(comments),
      component: labels.join(', '),
      lastChange,
      closedAt: closed ? (parseTrackerTime(issue.closed_at) ?? known?.closedAt ?? lastChange) : null,
    };
    out.bugs.push(bug);
  }
  return out;
}
