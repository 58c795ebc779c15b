// A window's numbers for causes (failure signatures), from the rollups: the runs each took down and
// those where it only flaked, its failed outcomes (how many tests a run), its tests, jobs and days.
// Whole days and hours from the rollup tables, the edges from the runs themselves (spans.ts).
import type { Database } from '../store/db';
import { selectRowsIn } from '../store/bulk';
import { int32RowsIn } from '../store/intRows';
import { byTime } from '../store/sql';
import { cachedDays } from './dayCache';
import { SIGNATURE_JOB_DAYS } from '../store/dayPacks';
import { dayRollupChunks, rowsOf } from './dayRollup';
import { DAY, HOUR, spansOf } from './spans';
import { testSignaturePairs } from './rollupWindow';

export interface CauseCounts {
  runs: number;
  flakedRuns: number;
  /** failed and flaked outcomes with it */
  outcomes: number;
}

/** Per (run, signature) of the raw rows in [a, b): the worst outcome and the outcomes; as SQL. */
const perRunSig = (a: number, b: number, extra = '', table = 'test_outcome') =>
  `SELECT run_id, signature_id, MIN(outcome) AS worst, COUNT(*) AS n, MIN(started) AS started, MIN(job_id) AS job_id FROM ${table}
   WHERE started >= ${a} AND started < ${b} AND signature_id IS NOT NULL${extra} GROUP BY run_id, signature_id`;

function bump(m: Map<number, CauseCounts>, sig: number, runs: number, flaked: number, outcomes: number): void {
  const c = m.get(sig);
  if (c) {
    c.runs += runs;
    c.flakedRuns += flaked;
    c.outcomes += outcomes;
  } else m.set(sig, { runs, flakedRuns: flaked, outcomes });
}

/** Every signature's counts over [from, to), of all jobs or only of `jobs` (then without outcomes of whole days). */
export async function causeTotals(db: Database, from: number, to: number, jobs: Set<number> | null): Promise<Map<number, CauseCounts>> {
  const out = new Map<number, CauseCounts>();
  if (jobs && !jobs.size) return out;
  const s = spansOf(from, to);
  const add = (rows: unknown[][]) => {
    for (const [sig, r, f, n] of rows) bump(out, Number(sig), Number(r), Number(f), Number(n));
  };
  const jobList = jobs ? [...jobs].join(', ') : '';
  if (s.days) {
    add(jobs
      ? await db.rows(`SELECT signature_id, SUM(runs), SUM(flaked_runs), 0 FROM rollup_sig_day WHERE day >= ? AND day < ? AND job_id IN (${jobList}) GROUP BY signature_id`, s.days)
      : await db.rows('SELECT signature_id, SUM(runs), SUM(flaked_runs), SUM(outcomes) FROM rollup_sig_total WHERE day >= ? AND day < ? GROUP BY signature_id', s.days));
  }
  const raw = jobs ? [...s.hours.map(([a, b]) => [a * HOUR, b * HOUR] as [number, number]), ...s.raw] : s.raw;
  if (!jobs) for (const [a, b] of s.hours) add(await db.rows('SELECT signature_id, SUM(runs), SUM(flaked_runs), SUM(outcomes) FROM rollup_sig_hour WHERE hour >= ? AND hour < ? GROUP BY signature_id', [a, b]));
  const extra = jobs ? ` AND job_id IN (${jobList})` : '';
  for (const [a, b] of raw) {
    add(await db.rows(`SELECT signature_id, SUM(CASE WHEN worst = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN worst = 2 THEN 1 ELSE 0 END), SUM(n) FROM (${perRunSig(a, b, extra, byTime(db, 'test_outcome'))}) x GROUP BY signature_id`));
  }
  return out;
}

/** The given signatures' tests over [from, to): signature -> test -> failed and flaked runs. */
export const causeTests = (db: Database, sigIds: number[], from: number, to: number) => testSignaturePairs(db, 'signature_id', sigIds, from, to);

/** The given signatures' runs per job and UTC day over [from, to): [signature, job, day start, runs taken down, flaked only]. */
export async function causeJobDays(db: Database, sigIds: number[], from: number, to: number): Promise<[number, number, number, number, number][]> {
  if (!sigIds.length) return [];
  const chunks = await dayRollupChunks(db, from, to, {
    keyLength: 2,
    width: 5,
    whole: (d0, d1) => cachedDays(db, SIGNATURE_JOB_DAYS.name, 5, 2, sigIds, d0, d1, (ids, a, b, orderBy) => int32RowsIn(db, (p) => `SELECT signature_id, job_id, day, runs, flaked_runs FROM rollup_sig_day WHERE signature_id IN (${p}) AND day >= ${a} AND day < ${b}`, ids, 5, orderBy), SIGNATURE_JOB_DAYS),
    part: (a, b) =>
      int32RowsIn(
        db,
        (p) => `SELECT signature_id, job_id, started / ${DAY}, SUM(CASE WHEN worst = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN worst = 2 THEN 1 ELSE 0 END)
                FROM (${perRunSig(a, b, ` AND signature_id IN (${p})`)}) x GROUP BY signature_id, job_id, started / ${DAY}`,
        sigIds,
        5,
      ),
  });
  return rowsOf(chunks, 5, 2) as [number, number, number, number, number][];
}

/** Each signature's first occurrence in all stored history, and its latest before `to` (an index lookup each). */
export async function causeSeen(db: Database, sigIds: number[], to: number): Promise<Map<number, { first: number; last: number }>> {
  const rows = await selectRowsIn(
    db,
    (p) => `SELECT s.id, (SELECT MIN(o.started) FROM test_outcome o WHERE o.signature_id = s.id), (SELECT MAX(o.started) FROM test_outcome o WHERE o.signature_id = s.id AND o.started < ${to})
            FROM signature s WHERE s.id IN (${p})`,
    sigIds,
  );
  const out = new Map<number, { first: number; last: number }>();
  for (const [id, first, last] of rows) if (first !== null) out.set(Number(id), { first: Number(first), last: Number(last ?? first) });
  return out;
}

export interface CauseExampleRow {
  job: string;
  build_id: string;
  url: string;
  started: number;
  test: string;
  outcome: number;
  message: string;
}

/**
 * A signature's newest `n` outcomes in [from, to), newest first (by start, then run, then test: a
 * mass failure's outcomes share their run's start, and every call must pick the same), with their
 * run, test and text. Its index orders by start alone, so the start of the n-th newest is found
 * there first and only the outcomes from then on are read and sorted, not every one the signature
 * ever had (a mass failure's are millions: 40 s for a causes page on a scale database).
 */
export async function causeExamples(db: Database, sigId: number, from: number, to: number, n: number): Promise<CauseExampleRow[]> {
  const nth = await db.rows('SELECT started FROM test_outcome WHERE signature_id = ? AND started >= ? AND started < ? ORDER BY started DESC LIMIT 1 OFFSET ?', [sigId, from, to, n - 1]);
  const since = nth.length ? Math.max(from, Number(nth[0][0])) : from;
  return db.all<CauseExampleRow>(
    `SELECT j.name AS job, r.build_id, r.url, o.started, t.name AS test, o.outcome, o.message
     FROM test_outcome o JOIN run r ON r.id = o.run_id JOIN job j ON j.id = r.job_id JOIN test t ON t.id = o.test_id
     WHERE o.signature_id = ? AND o.started >= ? AND o.started < ? ORDER BY o.started DESC, o.run_id DESC, o.test_id LIMIT ?`,
    [sigId, since, to, n],
  );
}
