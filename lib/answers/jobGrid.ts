// A job's grid as TestGrid shows it: its latest runs as columns, the tests that failed or flaked in
// any of them as rows, each cell the test's outcome in that run (failed, flaked, passed, or not run)
// with the failure text. Also what the job page's counts need: the ci-operator wrapper tests
// (ignoreTests) of each run, which are never failures of their own.
import type { Database } from '../store/db';
import { selectIn } from '../store/bulk';
import { loadTestSets } from '../store/testSets';
import { iso } from '../history/window';

export interface GridColumnRun {
  id: number;
  buildId: string;
  started: number;
  state: string;
  url: string;
  testSetId: number | null;
}

export type GridOutcome = 'failed' | 'flaked' | 'passed' | 'none';

export interface JobGrid {
  /** newest first */
  columns: { buildId: string; started: string; state: string; url: string }[];
  /** failing most first; at most MAX_GRID_ROWS */
  rows: { test: string; id: string; failed: number; flaked: number; cells: { outcome: GridOutcome; message?: string }[] }[];
  /** tests that failed or flaked in the columns, shown or not */
  totalRows: number;
}

export const GRID_COLUMNS = 30;
export const MAX_GRID_ROWS = 200;
/** hover text per cell: the start of the failure (the run page has all of it) */
const CELL_MESSAGE = 600;

interface OutcomeRow {
  run_id: number;
  test_id: number;
  name: string;
  hash: string;
  outcome: number;
  message: string;
}

/** The non-passing outcomes of the given runs, with their tests' names. */
export function outcomesOfRuns(db: Database, runIds: number[]): Promise<OutcomeRow[]> {
  return selectIn<OutcomeRow>(
    db,
    (p) => `SELECT o.run_id, o.test_id, t.name, t.hash, o.outcome, o.message FROM test_outcome o JOIN test t ON t.id = o.test_id WHERE o.run_id IN (${p})`,
    runIds,
  );
}

export interface WrapperTally {
  failed: number;
  flaked: number;
  /** executed and passed (from the run's test set) */
  passed: number;
}

/**
 * Per run, its wrapper tests' results: failed and flaked from its outcomes, passed from its test set
 * (the wrapper tests among the set's members, less those that failed or flaked).
 */
export async function wrapperTallies(db: Database, runs: Pick<GridColumnRun, 'id' | 'testSetId'>[], outcomes: Pick<OutcomeRow, 'run_id' | 'name' | 'outcome'>[], isWrapper: (name: string) => boolean): Promise<Map<number, WrapperTally>> {
  const out = new Map<number, WrapperTally>(runs.map((r) => [r.id, { failed: 0, flaked: 0, passed: 0 }]));
  for (const o of outcomes) {
    const t = out.get(o.run_id);
    if (t && isWrapper(o.name)) o.outcome === 1 ? t.failed++ : t.flaked++;
  }
  const setIds = [...new Set(runs.map((r) => r.testSetId).filter((s): s is number => s !== null))];
  if (!setIds.length) return out;
  const sets = await loadTestSets(db, setIds);
  const members = [...new Set(setIds.flatMap((s) => [...(sets.get(s)?.ids() ?? [])]))];
  const names = await selectIn<{ id: number; name: string }>(db, (p) => `SELECT id, name FROM test WHERE id IN (${p})`, members);
  const wrappers = names.filter((n) => isWrapper(n.name)).map((n) => n.id);
  const perSet = new Map(setIds.map((s) => [s, wrappers.filter((id) => !!sets.get(s)?.has(id)).length]));
  for (const r of runs) {
    const t = out.get(r.id)!;
    if (r.testSetId !== null) t.passed = Math.max(0, (perSet.get(r.testSetId) ?? 0) - t.failed - t.flaked);
  }
  return out;
}

/** The grid over `columns` (newest first) from their non-passing outcomes, wrapper tests left out. */
export async function jobGrid(db: Database, columns: GridColumnRun[], outcomes: OutcomeRow[], isWrapper: (name: string) => boolean): Promise<JobGrid> {
  const col = new Map(columns.map((c, i) => [c.id, i]));
  const byTest = new Map<number, { test: string; id: string; failed: number; flaked: number; cells: JobGrid['rows'][number]['cells'] }>();
  for (const o of outcomes) {
    const i = col.get(o.run_id);
    if (i === undefined || isWrapper(o.name)) continue;
    let row = byTest.get(o.test_id);
    if (!row) byTest.set(o.test_id, (row = { test: o.name, id: o.hash, failed: 0, flaked: 0, cells: [] }));
    if (o.outcome === 1) row.failed++;
    else row.flaked++;
    const message = o.message.length > CELL_MESSAGE ? `${o.message.slice(0, CELL_MESSAGE)}…` : o.message;
    row.cells[i] = { outcome: o.outcome === 1 ? 'failed' : 'flaked', ...(message ? { message } : {}) };
  }
  const ranked = [...byTest.entries()].sort(([, a], [, b]) => b.failed - a.failed || b.flaked - a.flaked || (a.test < b.test ? -1 : 1)).slice(0, MAX_GRID_ROWS);
  const sets = await loadTestSets(db, new Set(columns.map((c) => c.testSetId).filter((s): s is number => s !== null)));
  const rows = ranked.map(([testId, row]) => {
    const cells = columns.map((c, i): JobGrid['rows'][number]['cells'][number] => {
      if (row.cells[i]) return row.cells[i];
      const set = c.testSetId === null ? undefined : sets.get(c.testSetId);
      return { outcome: set?.has(testId) ? 'passed' : 'none' };
    });
    return { ...row, cells };
  });
  return {
    columns: columns.map((c) => ({ buildId: c.buildId, started: iso(c.started), state: c.state, url: c.url })),
    rows,
    totalRows: byTest.size,
  };
}
