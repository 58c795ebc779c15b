// Standing answers: the answers for now a buildcop opens first (the hot list and the causes of each
// window tab) are computed by the ingester after each pass and stored with the data state they were
// computed on. The server and the CLI serve one while that state stands and it is at most
// STANDING_MAX_AGE_S old; its `to` says the time it answers for. At OpenShift's scale a hot list takes
// seconds to compute; a stored one is read in milliseconds, so neither a server start nor new data
// makes a buildcop wait for one. The home page's default tab also stands per release (the filter a
// buildcop watching a promotion picks), for the newest releases the jobs name. Anything else (another
// time, another filter, a window beyond the lookback) is computed when asked, as before.
import crypto from 'node:crypto';
import type { Database } from '../store/db';
import { dataState } from '../store/dataState';
import { Budget } from '../budget';
import type { WindowName } from '../history/window';
import { loadJobs } from '../history/jobs';
import { compareIds } from '../bugs/refs';
import { causes, parseCausesQuery } from './causes';
import { hotlist, parseHotlistQuery } from './hotlist';
import { StandingJson } from './standingJson';

/** The window tabs whose hot list and causes stand (the verdicts' lookback covers them). */
export const STANDING_WINDOWS: readonly WindowName[] = ['24h', '3d', '7d', '14d'];
/** The hot list stands with its default page; any shorter page is its first items. */
const HOTLIST_LIMIT = 100;
/** The causes stand at the home page's limit and the API's default (a shorter list is not always a prefix: ignored tests thin the candidates). */
const CAUSE_LIMITS = [8, 20];
/** The tab that also stands per release: the home page's default. */
const RELEASE_WINDOW: WindowName = '7d';
/**
 * At most this many releases stand by default (`ingest.standingReleases`), the newest: each is a hot
 * list and causes to compute after a pass.
 */
export const STANDING_RELEASES = 8;
/** A standing answer older than this is not served: its window would have slid too far from now. */
export const STANDING_MAX_AGE_S = 15 * 60;
/** After a pass, a standing answer this old is computed again even when the data did not change. */
export const STANDING_REFRESH_S = 5 * 60;

type StandingName = 'hotlist' | 'causes';
type Params = Record<string, string | undefined>;

interface View {
  key: string;
  name: StandingName;
  params: Params;
}

/** A view's key: what it is, its window and limit, and its release if it has one. */
const viewKey = (name: StandingName, window: WindowName, limit: number | undefined, release: string | undefined) =>
  [name, window, ...(limit === undefined ? [] : [limit])].join(':') + (release ? `:release=${release}` : '');

/** A tab's hot list and causes, of every job or of one release's. */
function tabViews(window: WindowName, release?: string): View[] {
  const filter = release ? { release } : {};
  return [
    { key: viewKey('hotlist', window, undefined, release), name: 'hotlist', params: { window, ...filter } },
    ...CAUSE_LIMITS.map((limit): View => ({ key: viewKey('causes', window, limit, release), name: 'causes', params: { window, limit: String(limit), ...filter } })),
  ];
}

/** The views, the home page's default (7d) first: it is ready soonest after a pass; the releases' last. */
function views(releases: string[]): View[] {
  const windows = [...STANDING_WINDOWS].sort((a, b) => Number(b === RELEASE_WINDOW) - Number(a === RELEASE_WINDOW));
  return [...windows.flatMap((w) => tabViews(w)), ...releases.flatMap((r) => tabViews(RELEASE_WINDOW, r))];
}

/** The `max` newest releases the jobs name (4.10 after 4.9), newest first. */
export async function standingReleases(db: Database, max = STANDING_RELEASES): Promise<string[]> {
  if (max <= 0) return [];
  const releases = new Set((await loadJobs(db)).map((j) => j.release).filter((r): r is string => !!r));
  return [...releases].sort((a, b) => compareIds(b, a)).slice(0, max);
}

/** The standing view a query for now asks for, if any, and for the hot list how many of its items. */
function viewOf(name: string, params: Params): { key: string; items?: number } | undefined {
  if (params.at || (name !== 'hotlist' && name !== 'causes')) return undefined;
  // a tab that stands, alone or for a release on the release tab
  const stands = (q: { window: WindowName; release?: string }) => STANDING_WINDOWS.includes(q.window) && (!q.release || q.window === RELEASE_WINDOW);
  try {
    if (name === 'hotlist') {
      const q = parseHotlistQuery(params);
      const filtered = q.job || q.platform || q.upgrade !== undefined || q.owner || q.classification || q.noBug || q.test || q.sort;
      if (filtered || q.limit > HOTLIST_LIMIT || !stands(q)) return undefined;
      return { key: viewKey('hotlist', q.window, undefined, q.release), items: q.limit };
    }
    const q = parseCausesQuery(params);
    if (q.job || !CAUSE_LIMITS.includes(q.limit) || !stands(q)) return undefined;
    return { key: viewKey('causes', q.window, q.limit, q.release) };
  } catch {
    return undefined; // an invalid query: the answer itself says why
  }
}

/** The state a standing answer is good for: the data and the tests the configuration ignores. */
async function standingState(db: Database, ignoreTests: string[] | undefined): Promise<string> {
  const ignored = crypto.createHash('sha1').update(JSON.stringify(ignoreTests ?? [])).digest('hex').slice(0, 12);
  return `${await dataState(db)},${ignored}`;
}

/**
 * The stored answer for this query, when it is a standing view computed on the data as it stands, at
 * most STANDING_MAX_AGE_S before `now` (milliseconds); else undefined (compute it). With `asText`, a
 * whole stored answer comes as its StandingJson (no parse).
 */
export async function standingAnswer(db: Database, name: string, params: Params, ignoreTests: string[] | undefined, now = Date.now(), asText = false): Promise<unknown> {
  const view = viewOf(name, params);
  if (!view) return undefined;
  const row = await db.get<{ state: string; at: unknown }>('SELECT state, at FROM standing_answer WHERE view = ?', [view.key]);
  const age = row ? now / 1000 - Number(row.at) : Infinity;
  if (!row || age > STANDING_MAX_AGE_S || age < -60 || row.state !== (await standingState(db, ignoreTests))) return undefined;
  // the body of that very version: a pass may have stored a newer one meanwhile
  const stored = await db.get<{ body: string }>('SELECT body FROM standing_answer WHERE view = ? AND state = ? AND at = ?', [view.key, row.state, row.at as number]);
  if (!stored) return undefined;
  if (asText && (view.items === undefined || view.items >= HOTLIST_LIMIT)) return new StandingJson(stored.body);
  const value = JSON.parse(stored.body) as { items?: unknown[] };
  if (view.items !== undefined && value.items && view.items < value.items.length) value.items = value.items.slice(0, view.items);
  return value;
}

export interface StandingSummary {
  computed: number;
  /** views whose stored answer still stood */
  kept: number;
  ms: number;
  errors: string[];
}

/**
 * Computes the standing answers again where the data changed since, or where they are
 * STANDING_REFRESH_S old, at `now` (milliseconds), with the 7d tab of the `releases` newest releases
 * (the views of others are deleted). The ingester calls this after each pass; an error is reported,
 * never thrown (the pass stands).
 */
export async function refreshStandingAnswers(db: Database, ignoreTests: string[] | undefined, now = Date.now(), releases = STANDING_RELEASES): Promise<StandingSummary> {
  const t0 = Date.now();
  const at = Math.floor(now / 1000);
  const summary: StandingSummary = { computed: 0, kept: 0, ms: 0, errors: [] };
  try {
    const state = await standingState(db, ignoreTests);
    const stored = new Map((await db.all<{ view: string; state: string; at: unknown }>('SELECT view, state, at FROM standing_answer')).map((r) => [r.view, r]));
    const wanted = views(await standingReleases(db, releases));
    for (const v of wanted) {
      const old = stored.get(v.key);
      if (old && old.state === state && at - Number(old.at) < STANDING_REFRESH_S) {
        summary.kept++;
        continue;
      }
      const started = Date.now();
      const body =
        v.name === 'hotlist'
          ? await hotlist(db, parseHotlistQuery(v.params, at * 1000), { ignoreTests, budget: Budget.unlimited() })
          : await causes(db, parseCausesQuery(v.params, at * 1000), { ignoreTests });
      await db.run(
        `INSERT INTO standing_answer (view, state, at, took_ms, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (view) DO UPDATE SET state = excluded.state, at = excluded.at, took_ms = excluded.took_ms, body = excluded.body`,
        [v.key, state, at, Date.now() - started, JSON.stringify(body)],
      );
      summary.computed++;
    }
    const keys = new Set(wanted.map((v) => v.key));
    for (const k of stored.keys()) if (!keys.has(k)) await db.run('DELETE FROM standing_answer WHERE view = ?', [k]);
  } catch (e) {
    summary.errors.push((e as Error).message);
  }
  summary.ms = Date.now() - t0;
  return summary;
}

export function formatStandingSummary(s: StandingSummary): string {
  const errors = s.errors.length ? `; not all: ${s.errors.join('; ')}` : '';
  return `standing answers: ${s.computed} computed, ${s.kept} still standing, in ${(s.ms / 1000).toFixed(1)} s${errors}`;
}
