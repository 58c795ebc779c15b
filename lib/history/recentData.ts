// The runs and non-passing outcomes of recent weeks, held in columns (typed arrays) so that any
// window, filter or test is a scan of memory rather than a query. A long-running server keeps one
// per database and refreshes it incrementally: run ids only grow (AUTOINCREMENT / SERIAL), so new
// runs are those above the highest id loaded, and a drop in the count means a run was replaced.
import type { Database } from '../store/db';
import type { RunInfo } from './types';

/** Non-passing outcomes in columns, always in start order (ties by run id). */
export interface OutcomeColumns {
  runId: Int32Array;
  testId: Int32Array;
  /** 1 failed, 2 flaked */
  outcome: Uint8Array;
  /** -1 when the failure had no text */
  signatureId: Int32Array;
  started: Float64Array;
  jobId: Int32Array;
  length: number;
}

/** The rows [from, to) as views, without copying. */
export function sliceColumns(c: OutcomeColumns, from: number, to: number): OutcomeColumns {
  return {
    runId: c.runId.subarray(from, to), testId: c.testId.subarray(from, to), outcome: c.outcome.subarray(from, to),
    signatureId: c.signatureId.subarray(from, to), started: c.started.subarray(from, to), jobId: c.jobId.subarray(from, to), length: to - from,
  };
}

/** First row whose start is >= t. */
export function firstAtOrAfter(c: OutcomeColumns, t: number): number {
  let lo = 0;
  let hi = c.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.started[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function emptyColumns(n = 0): OutcomeColumns {
  return {
    runId: new Int32Array(n), testId: new Int32Array(n), outcome: new Uint8Array(n), signatureId: new Int32Array(n),
    started: new Float64Array(n), jobId: new Int32Array(n), length: 0,
  };
}

/** Appends rows (sorted by start, run); keeps the whole in start order, re-sorting only when a late
 * run started before the newest one already held (a backfill). */
function append(a: OutcomeColumns, rows: unknown[][]): OutcomeColumns {
  const out = concat(a, rows);
  if (a.length && rows.length && Number(rows[0][4]) < a.started[a.length - 1]) return sortByStart(out);
  return out;
}

function sortByStart(c: OutcomeColumns): OutcomeColumns {
  const order = Array.from({ length: c.length }, (_, i) => i).sort((x, y) => c.started[x] - c.started[y] || c.runId[x] - c.runId[y]);
  const out = emptyColumns(c.length);
  order.forEach((from, to) => copyRow(c, from, out, to));
  out.length = c.length;
  return out;
}

/** Copies row `from` of `src` to row `to` of `dst`. */
export function copyRow(src: OutcomeColumns, from: number, dst: OutcomeColumns, to: number): void {
  dst.runId[to] = src.runId[from];
  dst.testId[to] = src.testId[from];
  dst.outcome[to] = src.outcome[from];
  dst.signatureId[to] = src.signatureId[from];
  dst.started[to] = src.started[from];
  dst.jobId[to] = src.jobId[from];
}

function concat(a: OutcomeColumns, rows: unknown[][]): OutcomeColumns {
  const out = emptyColumns(a.length + rows.length);
  for (const k of ['runId', 'testId', 'outcome', 'signatureId', 'started', 'jobId'] as const) (out[k] as Int32Array).set(a[k].subarray(0, a.length) as Int32Array);
  let i = a.length;
  for (const r of rows) {
    out.runId[i] = r[0] as number;
    out.testId[i] = r[1] as number;
    out.outcome[i] = r[2] as number;
    out.signatureId[i] = r[3] === null ? -1 : (r[3] as number);
    out.started[i] = Number(r[4]);
    out.jobId[i] = r[5] as number;
    i++;
  }
  out.length = i;
  return out;
}

const RUN_COLUMNS = 'id, job_id, build_id, started, state, test_set_id, failed, flaked, install_failed, commit_sha, payload, url';

function toRun(r: unknown[]): RunInfo {
  return {
    id: r[0] as number, jobId: r[1] as number, buildId: r[2] as string, started: Number(r[3]), state: r[4] as string,
    testSetId: r[5] as number | null, failed: r[6] as number, flaked: r[7] as number, installFailed: r[8] === 1,
    commit: r[9] as string, payload: r[10] as string, url: r[11] as string,
  };
}

export class RecentData {
  runs = new Map<number, RunInfo>();
  private sorted: RunInfo[] | undefined;
  outcomes = emptyColumns();
  private maxRunId = 0;
  private constructor(
    /** runs started at or after this are held */
    readonly horizon: number,
    /** and before this (Infinity for the live cache) */
    readonly until: number,
  ) {}

  /** Equal versions hold equal runs: run ids only grow, and a replaced run changes the count. */
  get version(): string {
    return `${this.maxRunId}|${this.runs.size}`;
  }

  /** Runs started in [from, to), in start order. */
  runsBetween(from: number, to: number): RunInfo[] {
    this.sorted ??= [...this.runs.values()].sort((a, b) => a.started - b.started || a.id - b.id);
    const first = lowerBound(this.sorted, from);
    return this.sorted.slice(first, lowerBound(this.sorted, to));
  }

  /** Loads runs started in [from, until) and their outcomes. */
  static async load(db: Database, from: number, until = Infinity): Promise<RecentData> {
    const d = new RecentData(from, until);
    await d.loadAfter(db, 0);
    return d;
  }

  private async loadAfter(db: Database, afterId: number): Promise<void> {
    const bounded = Number.isFinite(this.until);
    const runRows = await db.rows(
      `SELECT ${RUN_COLUMNS} FROM run WHERE id > ? AND started >= ?${bounded ? ' AND started < ?' : ''} ORDER BY id`,
      bounded ? [afterId, this.horizon, this.until] : [afterId, this.horizon],
    );
    if (runRows.length) this.sorted = undefined;
    for (const r of runRows) {
      const run = toRun(r);
      this.runs.set(run.id, run);
      if (run.id > this.maxRunId) this.maxRunId = run.id;
    }
    const outcomeRows = await db.rows(
      `SELECT run_id, test_id, outcome, signature_id, started, job_id FROM test_outcome WHERE run_id > ? AND started >= ?${bounded ? ' AND started < ?' : ''} ORDER BY started, run_id`,
      bounded ? [afterId, this.horizon, this.until] : [afterId, this.horizon],
    );
    this.outcomes = append(this.outcomes, outcomeRows);
  }

  /** Brings a live cache up to date; returns false when it must be rebuilt (a run was replaced or removed). */
  async refresh(db: Database): Promise<boolean> {
    const now = await db.get<{ n: number; m: number | null }>('SELECT COUNT(*) AS n, MAX(id) AS m FROM run WHERE started >= ?', [this.horizon]);
    if ((now?.m ?? 0) === this.maxRunId && now?.n === this.runs.size) return true;
    if ((now?.n ?? 0) < this.runs.size) return false;
    await this.loadAfter(db, this.maxRunId);
    // replaced runs come back with a new id, so the counts only agree when nothing was replaced
    return this.runs.size === now?.n;
  }
}

function lowerBound(runs: RunInfo[], started: number): number {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (runs[mid].started < started) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const LIVE_LIMIT_DAYS = 60;
const live = new WeakMap<Database, RecentData>();
const loading = new WeakMap<Database, Promise<RecentData>>();

/**
 * Recent data covering [from, to): the process-wide live cache when `from` is recent, else a
 * one-off load of just that range (old permanent links).
 */
export async function recentData(db: Database, from: number, to: number, nowSec = Date.now() / 1000): Promise<RecentData> {
  if (from < nowSec - LIVE_LIMIT_DAYS * 86_400) return RecentData.load(db, from, to);
  const existing = live.get(db);
  if (existing && existing.horizon <= from && (await existing.refresh(db))) return existing;
  // (Re)build, reaching back far enough for this request and the common 14-day window pairs.
  let p = loading.get(db);
  if (!p) {
    const horizon = Math.min(from, existing?.horizon ?? from, Math.floor(nowSec) - 28 * 86_400);
    p = RecentData.load(db, horizon);
    loading.set(db, p);
    p.then(
      (d) => live.set(db, d),
      () => undefined,
    ).finally(() => loading.delete(db));
  }
  const d = await p;
  return d.horizon <= from ? d : RecentData.load(db, from, to);
}
