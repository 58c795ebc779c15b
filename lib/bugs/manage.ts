// Bugs as the CLI (`buildcop bugs --json`) and GET /api/bugs list them, and links made or removed by
// hand (POST/DELETE /api/tests/[id]/bugs, `buildcop bugs link|unlink`).
import type { Config } from '../config';
import { isTestId, testId } from '../ids';
import { bugzillaBugUrl, fetchBugzilla } from '../sources/bugzilla';
import { fetchGithub, githubIssueUrl } from '../sources/github';
import type { HttpClient } from '../sources/http';
import { fetchJira, jiraIssueUrl } from '../sources/jira';
import { TRACKERS, type Tracker, type TrackerBug } from '../sources/trackerBug';
import { ensureBugStub, findBug, testsOfSignature, upsertBugs } from '../store/bugs';
import type { Database } from '../store/db';
import { insertMany } from '../store/bulk';
import { primaryOf } from '../store/readReplica';
import { reasonRank } from './linking';
import { compareIds } from './refs';

export interface BugListItem {
  tracker: string;
  id: string;
  url: string;
  summary: string;
  status: string;
  /** names of the linked tests */
  tests: string[];
  /** one per linked test, with the strongest reason; `signature` when it came through one */
  links: { test: string; reason: string; signature?: string }[];
}

/** Every stored bug with its links (removed ones left out); `linkedOnly` drops bugs without any. */
export async function listBugs(db: Database, opts: { linkedOnly?: boolean } = {}): Promise<{ bugs: BugListItem[] }> {
  const bugs = await db.all<{ id: number; tracker: string; bug_id: string; url: string; summary: string; status: string }>(
    'SELECT id, tracker, bug_id, url, summary, status FROM bug',
  );
  const links = await db.all<{ bug_pk: number; name: string; reason: string; signature_hash: string }>(
    `SELECT l.bug_pk, t.name, l.reason, l.signature_hash FROM bug_link l JOIN test t ON t.hash = l.test_hash
     WHERE l.removed = 0 AND l.test_hash <> ''`,
  );
  links.sort((a, b) => reasonRank(a.reason) - reasonRank(b.reason));
  const byBug = new Map<number, Map<string, BugListItem['links'][number]>>();
  for (const l of links) {
    let m = byBug.get(l.bug_pk);
    if (!m) byBug.set(l.bug_pk, (m = new Map()));
    if (m.has(l.name)) continue;
    m.set(l.name, l.signature_hash ? { test: l.name, reason: l.reason, signature: l.signature_hash } : { test: l.name, reason: l.reason });
  }
  const out: BugListItem[] = [];
  for (const b of bugs) {
    const ls = [...(byBug.get(b.id)?.values() ?? [])].sort((x, y) => (x.test < y.test ? -1 : x.test > y.test ? 1 : 0));
    if (opts.linkedOnly && !ls.length) continue;
    out.push({ tracker: b.tracker, id: b.bug_id, url: b.url, summary: b.summary, status: b.status, tests: ls.map((l) => l.test), links: ls });
  }
  out.sort((a, b) => TRACKERS.indexOf(a.tracker as Tracker) - TRACKERS.indexOf(b.tracker as Tracker) || compareIds(a.id, b.id));
  return { bugs: out };
}

// ---- references ---------------------------------------------------------------------------------

export class BugRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'BugRequestError';
  }
}

export interface BugRef {
  tracker: Tracker;
  bugId: string;
  /** the URL given, when a URL was given */
  url?: string;
}

/**
 * A bug named by URL or by id: Bugzilla show_bug.cgi?id=N (or a bare number), Jira /browse/KEY-N (or
 * KEY-N), GitHub github.com/owner/repo/issues/N (or owner/repo#N). `tracker` settles a bare id.
 */
export function parseBugRef(input: string, tracker?: string): BugRef {
  const s = input.trim();
  if (tracker !== undefined && tracker !== '' && !TRACKERS.includes(tracker as Tracker)) {
    throw new BugRequestError(`unknown tracker ${JSON.stringify(tracker)} (use ${TRACKERS.join(', ')})`, 400);
  }
  const want = (tracker || undefined) as Tracker | undefined;
  const check = (ref: BugRef): BugRef => {
    if (want && ref.tracker !== want) throw new BugRequestError(`${JSON.stringify(s)} is a ${ref.tracker} reference, not ${want}`, 400);
    return ref;
  };
  if (!s || s.length > 2000) throw new BugRequestError('give a bug URL or id', 400);
  if (/^https?:\/\//i.test(s)) {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      throw new BugRequestError(`not a valid URL: ${JSON.stringify(s)}`, 400);
    }
    const url = u.toString();
    const bz = u.pathname.endsWith('/show_bug.cgi') ? u.searchParams.get('id') : /\/rest\/bug\/(\d+)\/?$/.exec(u.pathname)?.[1];
    if (bz && /^\d+$/.test(bz)) return check({ tracker: 'bugzilla', bugId: bz, url });
    const jira = /\/browse\/([A-Z][A-Z0-9_]*-\d+)\/?$/.exec(u.pathname);
    if (jira) return check({ tracker: 'jira', bugId: jira[1], url });
    const gh = /^\/(?:repos\/)?([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)\/issues\/(\d+)\/?$/.exec(u.pathname);
    if (gh) return check({ tracker: 'github', bugId: `${gh[1]}#${gh[2]}`, url });
    throw new BugRequestError(`cannot tell the tracker and id from ${JSON.stringify(s)}`, 400);
  }
  if (/^\d+$/.test(s) && (!want || want === 'bugzilla')) return { tracker: 'bugzilla', bugId: s };
  if (/^[A-Z][A-Z0-9_]*-\d+$/.test(s) && (!want || want === 'jira')) return { tracker: 'jira', bugId: s };
  if (/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#\d+$/.test(s) && (!want || want === 'github')) return { tracker: 'github', bugId: s };
  throw new BugRequestError(`not a bug URL or id${want ? ` of ${want}` : ''}: ${JSON.stringify(s)}`, 400);
}

/** The configured tracker's page of a bug, or undefined when that tracker is not configured. */
function configuredUrl(config: Config | undefined, ref: BugRef): string | undefined {
  if (ref.tracker === 'bugzilla' && config?.bugzilla) return bugzillaBugUrl(config.bugzilla.url, ref.bugId);
  if (ref.tracker === 'jira' && config?.jira) return jiraIssueUrl(config.jira.url, ref.bugId);
  if (ref.tracker === 'github' && config?.github) {
    const [repo, n] = ref.bugId.split('#');
    return githubIssueUrl(config.github.url, repo, n);
  }
  return undefined;
}

/** What the configured tracker answered when asked for one bug; null when not configured or not reachable. */
async function askTracker(config: Config, http: HttpClient, ref: BugRef): Promise<TrackerBug[] | null> {
  try {
    if (ref.tracker === 'bugzilla' && config.bugzilla) return (await fetchBugzilla(http, { url: config.bugzilla.url, ids: [ref.bugId] })).bugs;
    if (ref.tracker === 'jira' && config.jira) return (await fetchJira(http, { url: config.jira.url, keys: [ref.bugId] })).bugs;
    if (ref.tracker === 'github' && config.github) {
      const [repo, n] = ref.bugId.split('#');
      return (await fetchGithub(http, { url: config.github.url, repo, token: config.github.token, numbers: [Number(n)] })).bugs;
    }
  } catch {
    // a stub now; the next refresh fills it in
  }
  return null;
}

/**
 * Whether a tracker's answer is the bug asked for: its id, and for GitHub its page too (an issue
 * moved to another repository answers from there, under the number asked for).
 */
function isBugAskedFor(ref: BugRef, bug: TrackerBug): boolean {
  if (bug.tracker !== ref.tracker || bug.bugId !== ref.bugId) return false;
  if (ref.tracker !== 'github') return true;
  const [repo, n] = ref.bugId.split('#');
  return new URL(bug.url).pathname.toLowerCase().replace(/\/+$/, '') === `/${repo}/issues/${n}`.toLowerCase();
}

/**
 * Fetches one bug from its configured tracker; null when not configured, not found or not reachable.
 * A tracker that answers with another bug (a Jira that follows a moved issue, say) is refused with a
 * 400: linking it would store and link a bug nobody named.
 */
async function fetchOne(config: Config, http: HttpClient, ref: BugRef): Promise<TrackerBug | null> {
  const answered = await askTracker(config, http, ref);
  if (!answered?.length) return null;
  const bug = answered.find((b) => isBugAskedFor(ref, b));
  if (!bug) {
    const got = answered.map((b) => `${b.bugId} (${b.url})`).join(', ');
    throw new BugRequestError(`${ref.tracker} answered ${got} when asked for ${ref.bugId}: not linked`, 400);
  }
  return bug;
}

export interface LinkRequest {
  /** test: 16-hex id or full name */
  test: string;
  /** bug URL or id */
  bug: string;
  tracker?: string;
  /** signature hash: link/unlink the signature instead of the test alone */
  signature?: string;
}

export interface LinkOptions {
  config?: Config;
  /** to fetch a bug not stored yet (its summary and status show at once) */
  http?: HttpClient;
  now?: number;
}

async function resolveTest(db: Database, test: string): Promise<{ hash: string; name: string }> {
  const hash = isTestId(test) ? test : testId(test);
  const row = await db.get<{ hash: string; name: string }>('SELECT hash, name FROM test WHERE hash = ?', [hash]);
  if (!row) throw new BugRequestError(`no test ${JSON.stringify(test)}`, 404);
  return row;
}

async function resolveSignature(db: Database, signature: string | undefined): Promise<string> {
  if (!signature) return '';
  const row = await db.get<{ hash: string }>('SELECT hash FROM signature WHERE hash = ?', [signature]);
  if (!row) throw new BugRequestError(`no signature ${JSON.stringify(signature)}`, 404);
  return row.hash;
}

export interface LinkResult {
  test: string;
  signature?: string;
  bug: { tracker: string; id: string; url: string; summary: string; status: string };
  reason: 'manual';
}

/** Links a bug to a test (or to a signature, and so to every test failing with it) by hand. */
export async function linkBug(anyDb: Database, req: LinkRequest, opts: LinkOptions = {}): Promise<LinkResult> {
  const db = primaryOf(anyDb); // it reads back what it writes: never from a replica that lags
  const test = await resolveTest(db, req.test);
  const sig = await resolveSignature(db, req.signature);
  const ref = parseBugRef(req.bug, req.tracker);
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  let bug = await findBug(db, ref.tracker, ref.bugId);
  if (!bug) {
    const fetched = opts.config && opts.http ? await fetchOne(opts.config, opts.http, ref) : null;
    if (fetched) await upsertBugs(db, [fetched], now);
    else {
      const url = configuredUrl(opts.config, ref) ?? ref.url;
      if (!url) throw new BugRequestError(`${ref.tracker} is not configured: give the bug's URL`, 400);
      await ensureBugStub(db, ref.tracker, ref.bugId, url);
    }
    bug = (await findBug(db, ref.tracker, ref.bugId))!;
  }
  const pk = bug.id;
  await db.tx(async (sql) => {
    const anchor = sig ? ['', sig] : [test.hash, ''];
    await sql.run(
      `INSERT INTO bug_link (bug_pk, test_hash, signature_hash, reason, manual, removed, created_at) VALUES (?, ?, ?, 'manual', 1, 0, ?)
       ON CONFLICT (bug_pk, test_hash, signature_hash) DO UPDATE SET reason = 'manual', manual = 1, removed = 0`,
      [pk, anchor[0], anchor[1], now],
    );
    if (sig) {
      // the signature's tests show the link at once (the next refresh keeps them up to date)
      const tests = await testsOfSignature(sql, sig);
      await sql.run('DELETE FROM bug_link WHERE bug_pk = ? AND signature_hash = ? AND manual = 0', [pk, sig]);
      const blocked = new Set(
        (await sql.all<{ test_hash: string }>("SELECT test_hash FROM bug_link WHERE bug_pk = ? AND manual = 1 AND removed = 1 AND test_hash <> ''", [pk])).map((r) => r.test_hash),
      );
      const rows = tests.filter((t) => !blocked.has(t)).map((t) => [pk, t, sig, 'manual', 0, 0, now]);
      await insertMany(sql, 'bug_link', ['bug_pk', 'test_hash', 'signature_hash', 'reason', 'manual', 'removed', 'created_at'], rows, 'ON CONFLICT DO NOTHING');
    }
  });
  return {
    test: test.name,
    ...(sig ? { signature: sig } : {}),
    bug: { tracker: bug.tracker, id: bug.bug_id, url: bug.url, summary: bug.summary, status: bug.status },
    reason: 'manual',
  };
}

/** Removes a link by hand; an automatic link removed this way is not made again. */
export async function unlinkBug(anyDb: Database, req: LinkRequest, opts: { now?: number } = {}): Promise<{ test: string; signature?: string; bug: { tracker: string; id: string }; removed: number }> {
  const db = primaryOf(anyDb);
  const test = await resolveTest(db, req.test);
  const sig = await resolveSignature(db, req.signature);
  const ref = parseBugRef(req.bug, req.tracker);
  const bug = await findBug(db, ref.tracker, ref.bugId);
  if (!bug) throw new BugRequestError(`no ${ref.tracker} bug ${ref.bugId} is known`, 404);
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const removed = await db.tx(async (sql) => {
    const [t, s] = sig ? ['', sig] : [test.hash, ''];
    const active = sig
      ? await sql.all<{ id: number }>('SELECT id FROM bug_link WHERE bug_pk = ? AND signature_hash = ? AND removed = 0', [bug.id, sig])
      : await sql.all<{ id: number }>('SELECT id FROM bug_link WHERE bug_pk = ? AND test_hash = ? AND removed = 0', [bug.id, test.hash]);
    if (!active.length) return 0;
    await sql.run(
      `INSERT INTO bug_link (bug_pk, test_hash, signature_hash, reason, manual, removed, created_at) VALUES (?, ?, ?, 'manual', 1, 1, ?)
       ON CONFLICT (bug_pk, test_hash, signature_hash) DO UPDATE SET manual = 1, removed = 1`,
      [bug.id, t, s, now],
    );
    if (sig) await sql.run('DELETE FROM bug_link WHERE bug_pk = ? AND signature_hash = ? AND test_hash <> \'\'', [bug.id, sig]);
    else await sql.run('UPDATE bug_link SET manual = 1, removed = 1 WHERE bug_pk = ? AND test_hash = ?', [bug.id, test.hash]);
    return active.length;
  });
  if (!removed) throw new BugRequestError(`${ref.tracker} ${ref.bugId} is not linked to ${sig ? `signature ${sig}` : 'this test'}`, 404);
  return { test: test.name, ...(sig ? { signature: sig } : {}), bug: { tracker: bug.tracker, id: bug.bug_id }, removed };
}
