// The runs a verdict's evidence may name, as the verdict code reads them from the run table.
import { rowsPerKey } from '../store/bulk';
import { smallInt } from '../store/intRows';
import type { Database } from '../store/db';
import { BROKEN_RUN } from '../store/rollups';

/** A run as streaks count it (lib/verdicts/recentRuns.ts): no text, so days of them stay small. */
export interface RecentRun {
  id: number;
  jobId: number;
  started: number;
  testSetId: number | null;
  broken: boolean;
}

/** A run the evidence may name. */
export interface RunRow extends RecentRun {
  buildId: string;
  url: string;
  payload: string;
  commit: string;
}

export const RUN_ROW = `r.id, r.job_id, r.build_id, r.url, r.started, r.payload, r.commit_sha, r.test_set_id, CASE WHEN ${BROKEN_RUN} THEN 1 ELSE 0 END`;
export const RECENT_RUN = `r.id, r.job_id, r.started, r.test_set_id, CASE WHEN ${BROKEN_RUN} THEN 1 ELSE 0 END`;
export const toRecentRun = (r: unknown[]): RecentRun => ({ id: Number(r[0]), jobId: Number(r[1]), started: Number(r[2]), testSetId: r[3] === null ? null : Number(r[3]), broken: Number(r[4]) === 1 });
export const toRunRow = (r: unknown[]): RunRow => ({
  id: Number(r[0]), jobId: Number(r[1]), buildId: String(r[2]), url: String(r[3]), started: Number(r[4]), payload: String(r[5] ?? ''), commit: String(r[6] ?? ''),
  testSetId: r[7] === null ? null : Number(r[7]), broken: Number(r[8]) === 1,
});

/** Runs of RECENT_RUN read flat (lib/store/intRows.ts int64Rows: a NULL test set comes as NaN). */
export function recentRunsOfCells(cells: Float64Array): RecentRun[] {
  const out: RecentRun[] = new Array(cells.length / 5);
  for (let i = 0, o = 0; i < cells.length; i += 5, o++) {
    out[o] = { id: smallInt(cells[i]), jobId: smallInt(cells[i + 1]), started: smallInt(cells[i + 2]), testSetId: Number.isNaN(cells[i + 3]) ? null : smallInt(cells[i + 3]), broken: cells[i + 4] === 1 };
  }
  return out;
}

/**
 * The test's outcomes ([run_id, outcome]) in the given runs, those where it did not pass. Their start
 * times go with their ids: PostgreSQL reads only those days' partitions of test_outcome, not each
 * of them for every run (a probe of every day kept, 100 ms a test at 24,000 runs a day).
 */
async function outcomesIn(db: Database, testId: number, runs: { id: number; started: number }[]): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for (let i = 0; i < runs.length; i += 500) {
    const chunk = runs.slice(i, i + 500);
    const starts = [...new Set(chunk.map((r) => Math.floor(r.started)))].join(', ');
    const rows = await db.rows(`SELECT run_id, outcome FROM test_outcome WHERE test_id = ${Math.floor(testId)} AND started IN (${starts}) AND run_id IN (${chunk.map(() => '?').join(', ')})`, chunk.map((r) => r.id));
    for (const row of rows) out.push(row);
  }
  return out;
}

/**
 * Each test's outcomes ([test_id, run_id, outcome]) in the runs given for it, those where it did not
 * pass: on PostgreSQL every test's in one statement (a primary-key probe each), on SQLite outcomesIn
 * per test.
 */
export async function outcomesOfTests(db: Database, asks: Map<number, { id: number; started: number }[]>): Promise<unknown[][]> {
  if (db.dialect === 'postgres') {
    const keys = [...asks].flatMap(([test, runs]) => runs.map((r) => [test, r.id, Math.floor(r.started)]));
    return (await rowsPerKey(db, keys, ([test, run, started]) => `SELECT outcome FROM test_outcome WHERE run_id = ${run} AND test_id = ${test} AND started = ${started}`)).map(([test, run, , outcome]) => [test, run, outcome]);
  }
  const out: unknown[][] = [];
  for (const [test, runs] of asks) for (const [run, outcome] of await outcomesIn(db, test, runs)) out.push([test, run, outcome]);
  return out;
}
