// A job's latest runs and the tests' outcomes in them, for streaks ("failed its last 4 runs") and the
// runs a streak's evidence names. The span is the last LATEST_SECONDS before `at`; its whole days come
// from memory while their day version stands (lib/history/dayCache.ts), only today's part from the
// database: at 24,000 runs a day the span holds 72,000 runs and 300,000 outcomes of a hot list's tests.
import { cachedDay, cachedDays, currentDayVersions } from '../history/dayCache';
import { DAY } from '../history/spans';
import { selectRowsIn } from '../store/bulk';
import { RECENT_RUN, toRecentRun, type RecentRun } from './runRows';
import type { Database } from '../store/db';
import type { Lookback } from './lookback';

/** How far back a job's latest runs are looked for (a streak is of what is happening now). */
export const LATEST_SECONDS = 3 * 86_400;

export interface RecentRuns {
  /** test -> run -> 1 failed, 2 flaked (a run not there: the test passed or did not run) */
  recentOutcomes: Map<number, Map<number, number>>;
  /** job -> its runs in the span, newest first */
  recentRuns: Map<number, RecentRun[]>;
}

/** Every run started in [a, b), in start order. */
async function runsBetween(db: Database, a: number, b: number): Promise<RecentRun[]> {
  return (await db.rows(`SELECT ${RECENT_RUN} FROM run r WHERE r.started >= ? AND r.started < ? ORDER BY r.started, r.id`, [a, b])).map(toRecentRun);
}

/** The recent runs of the given jobs, newest first, and the tests' outcomes in them. */
export async function recentOfJobs(db: Database, lb: Lookback, testIds: number[], jobIds: number[]): Promise<RecentRuns> {
  const recentRuns = new Map<number, RecentRun[]>();
  const recentOutcomes = new Map<number, Map<number, number>>();
  const jobs = new Set(jobIds);
  if (!jobs.size) return { recentOutcomes, recentRuns };
  const from = lb.at - LATEST_SECONDS;
  const today = Math.floor(lb.at / DAY);
  const firstDay = Math.floor(from / DAY);
  const versions = await currentDayVersions(db);

  // runs: whole days oldest first (each in start order), then today's part
  const runs: RecentRun[] = [];
  for (let d = firstDay; d < today; d++) {
    const day = await cachedDay(db, 'runs', d, versions, (x) => runsBetween(db, x * DAY, (x + 1) * DAY));
    for (const r of day) if (r.started >= from && jobs.has(r.jobId)) runs.push(r);
  }
  for (const r of await runsBetween(db, Math.max(from, today * DAY), lb.at)) if (jobs.has(r.jobId)) runs.push(r);
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i];
    let list = recentRuns.get(r.jobId);
    if (!list) recentRuns.set(r.jobId, (list = []));
    list.push(r);
  }

  // outcomes: the tests' rows of the whole days, then today's part ([test, day, run, outcome] each)
  const add = (t: number, run: number, o: number) => {
    let m = recentOutcomes.get(t);
    if (!m) recentOutcomes.set(t, (m = new Map()));
    m.set(run, o);
  };
  const whole = await cachedDays(db, 'recent outcomes', 4, 1, testIds, firstDay, today, (ids, a, b) =>
    selectRowsIn(db, (p) => `SELECT test_id, started / ${DAY}, run_id, outcome FROM test_outcome WHERE test_id IN (${p}) AND started >= ${a * DAY} AND started < ${b * DAY}`, ids),
  );
  for (const c of whole) for (let i = 0; i < c.length; i += 4) add(c[i], c[i + 2], c[i + 3]);
  const rest = await selectRowsIn(db, (p) => `SELECT test_id, run_id, outcome FROM test_outcome WHERE test_id IN (${p}) AND started >= ${Math.max(from, today * DAY)} AND started < ${lb.at}`, testIds);
  for (const [t, run, o] of rest) add(Number(t), Number(run), Number(o));
  return { recentOutcomes, recentRuns };
}
