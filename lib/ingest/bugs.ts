// Bug refresh, run by every ingest pass: fetch what changed in each configured tracker since the
// last refresh (a cursor per tracker and repository in kv), store it, then recompute the automatic
// links. Each tracker fails on its own: its error becomes a warning, its cursor stays where it was
// (so nothing is skipped), and the other trackers and the links are still brought up to date.
import type { Config } from '../config';
import { fetchBugzilla } from '../sources/bugzilla';
import { fetchGithub } from '../sources/github';
import type { HttpClient } from '../sources/http';
import { fetchJira } from '../sources/jira';
import { TrackerError, type FetchResult } from '../sources/trackerBug';
import { bugIdsToFetch, knownBugs, readCursor, upsertBugs, writeCursor } from '../store/bugs';
import type { Database } from '../store/db';
import { relinkBugs } from './bugLinks';

/** how far back the first refresh of a tracker looks (Sippy keeps open bugs changed in 90 days) */
export const INITIAL_LOOKBACK_DAYS = 90;
/** how often a bug linked by hand is fetched again by id, whatever the configured query returns */
export const HAND_LINKED_REFETCH_SECONDS = 3600;

export interface BugRefreshOptions {
  config: Config;
  db: Database;
  http: HttpClient;
  /** the time a tracker's first refresh looks back from (default: the newest run stored, else now) */
  now?: number;
}

export interface BugRefreshResult {
  summary: string;
  warnings: string[];
  /** linking brought the indexes of this process's last relink up to date (see relinkBugs) */
  linkIndexesKept: boolean;
}

type Fetched = FetchResult & { complete: boolean; unchanged: number };

/**
 * The time the first refresh looks back from: the newest run stored (so a replayed or old world
 * gets the bugs of its own time), else now.
 */
async function anchorTime(db: Database): Promise<number> {
  const row = await db.get<{ t: number | null }>('SELECT MAX(started) AS t FROM run');
  const now = Math.floor(Date.now() / 1000);
  return row?.t ? Math.min(now, Number(row.t)) : now;
}

export async function refreshBugs(opts: BugRefreshOptions): Promise<BugRefreshResult> {
  const { config, db, http } = opts;
  const warnings: string[] = [];
  const parts: string[] = [];
  const initial = (opts.now ?? (await anchorTime(db))) - INITIAL_LOOKBACK_DAYS * 86_400;
  const staleBefore = Math.floor(Date.now() / 1000) - HAND_LINKED_REFETCH_SECONDS;

  /** one source (a tracker, or one GitHub repository): fetch since its cursor, store, move the cursor */
  const source = async (label: string, cursorKey: string, identity: string, fetch: (since: number) => Promise<Fetched>) => {
    try {
      const since = (await readCursor(db, cursorKey, identity)) ?? initial;
      const res = await fetch(since);
      await upsertBugs(db, res.bugs, Math.floor(Date.now() / 1000));
      warnings.push(...res.warnings);
      if (res.complete && res.maxChange !== null && res.maxChange >= since) await writeCursor(db, cursorKey, { since: res.maxChange, source: identity });
      parts.push(`${label} ${res.bugs.length} changed, ${res.unchanged} unchanged${res.complete ? '' : ' (incomplete: retried next time)'}`);
    } catch (e) {
      warnings.push(`bugs: ${e instanceof TrackerError ? '' : `${label}: `}${(e as Error).message}`);
      parts.push(`${label} failed`);
    }
  };
  /** bugs linked by hand: fetched by id when no refresh saw them yet, and again once an hour */
  const byId = async (label: string, fetch: () => Promise<Fetched>) => {
    try {
      const res = await fetch();
      await upsertBugs(db, res.bugs, Math.floor(Date.now() / 1000));
      warnings.push(...res.warnings);
    } catch (e) {
      warnings.push(`bugs: ${e instanceof TrackerError ? '' : `${label}: `}${(e as Error).message} (fetching bugs linked by hand)`);
    }
  };

  if (config.bugzilla) {
    const { url, query } = config.bugzilla;
    const known = await knownBugs(db, 'bugzilla');
    await source('bugzilla', 'bugs.cursor.bugzilla', `${url} ${query ?? ''}`, (since) => fetchBugzilla(http, { url, query, since, known }));
    const ids = await bugIdsToFetch(db, 'bugzilla', staleBefore);
    if (ids.length) await byId('bugzilla', () => fetchBugzilla(http, { url, ids, known: new Map() }));
  }
  if (config.jira) {
    const { url, jql } = config.jira;
    const known = await knownBugs(db, 'jira');
    await source('jira', 'bugs.cursor.jira', `${url} ${jql ?? ''}`, (since) => fetchJira(http, { url, jql, since, known }));
    const keys = await bugIdsToFetch(db, 'jira', staleBefore);
    if (keys.length) await byId('jira', () => fetchJira(http, { url, keys, known: new Map() }));
  }
  if (config.github) {
    const { url, token, repos } = config.github;
    for (const repo of repos) {
      const known = await knownBugs(db, 'github', `${repo}#`);
      await source(`github ${repo}`, `bugs.cursor.github.${repo}`, url, (since) => fetchGithub(http, { url, repo, token, since, known }));
    }
    const byRepo = new Map<string, number[]>();
    for (const id of await bugIdsToFetch(db, 'github', staleBefore)) {
      const m = /^(.+)#(\d+)$/.exec(id);
      if (!m) continue;
      byRepo.set(m[1], [...(byRepo.get(m[1]) ?? []), Number(m[2])]);
    }
    for (const [repo, numbers] of byRepo) await byId(`github ${repo}`, () => fetchGithub(http, { url, repo, token, numbers, known: new Map() }));
  }
  if (!parts.length) parts.push('no tracker configured');

  let links = '';
  let linkIndexesKept = false;
  try {
    const r = await relinkBugs(db);
    linkIndexesKept = r.indexesKept;
    links = `; links: ${r.automatic} automatic (+${r.added} -${r.dropped}), ${r.manual} by hand, ${r.removed} unlinked by hand`;
  } catch (e) {
    warnings.push(`bugs: linking failed: ${(e as Error).message}`);
  }
  return { summary: `bugs: ${parts.join(', ')}${links}`, warnings, linkIndexesKept };
}
