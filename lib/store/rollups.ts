// Rollups: what the answers sum over windows, kept up to date in the same transaction as the runs
// they count, so that any window is a few thousand rows however many runs it holds. A stored run adds
// itself (+1); before a run is replaced or pruned it takes itself away (-1), its outcomes still there.
// Exact for any `at`: whole days and hours come from here, the part of an hour at a window's edge
// from the runs (lib/history/rollupWindow.ts).
//   rollup_test_day    per test, job and UTC day: failed and flaked runs, and those in broken runs
//   rollup_test_total  per test and day, all jobs: failed and flaked runs (ranking a window)
//   rollup_test_hour   per test and hour, all jobs (a window's partial days, short sparklines)
//   rollup_run_day     per job, executed-test set and day: runs, and broken runs (a test's runs)
//   rollup_run_hour    the same per hour
//   rollup_sig_day     per signature, job and day: runs it took down, runs where it only flaked
//   rollup_sig_total   per signature and day, all jobs, with its outcomes (ranking causes, telling mass failures)
//   rollup_sig_hour    per signature and hour, all jobs
//   rollup_sig_test_day per signature, test and day: failed and flaked runs (a cause's tests)
import crypto from 'node:crypto';
import { insertMany } from './bulk';
import type { Param, Sql } from './db';
import { deleteKv } from './kv';

/** A run whose failures say nothing about any one test: its install or setup failed, or this many tests failed. */
export const MASS_FAILURE_TESTS = 20;
/** SQL: the run `r` is broken (isBroken below, as the database tells it). */
export const BROKEN_RUN = `(r.install_failed = 1 OR r.failed >= ${MASS_FAILURE_TESTS})`;
const BROKEN = `(CASE WHEN ${BROKEN_RUN} THEN 1 ELSE 0 END)`;

export const DAY = 86_400;
export const HOUR = 3_600;

interface Rollup {
  table: string;
  key: string[];
  values: string[];
  /**
   * SELECT of key columns then value columns (with ? for the sign, once per value), FROM ... WHERE <run
   * ids>, and, when given, the runs' start times: an outcome starts with its run (the foreign key is on
   * both), so PostgreSQL reads only the day partitions of those runs, not every day kept
   */
  select: (runIds: string, span?: StartSpan) => string;
}

/** The first and last start (Unix seconds) of the runs a statement rolls up. */
export type StartSpan = [number, number];
const within = (alias: string, span?: StartSpan) => (span ? ` AND ${alias}.started >= ${Math.floor(span[0])} AND ${alias}.started <= ${Math.floor(span[1])}` : '');

const F = (cond: string) => `SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END) * ?`;

const ROLLUPS: Rollup[] = [
  {
    table: 'rollup_test_day', key: ['day', 'test_id', 'job_id'], values: ['failed', 'flaked', 'failed_broken', 'flaked_broken'],
    select: (ids, span) => `SELECT o.started / ${DAY}, o.test_id, o.job_id, ${F('o.outcome = 1')}, ${F('o.outcome = 2')}, ${F(`o.outcome = 1 AND ${BROKEN} = 1`)}, ${F(`o.outcome = 2 AND ${BROKEN} = 1`)}
      FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.run_id IN (${ids})${within('o', span)} GROUP BY o.started / ${DAY}, o.test_id, o.job_id`,
  },
  {
    table: 'rollup_test_total', key: ['day', 'test_id'], values: ['failed', 'flaked'],
    select: (ids, span) => `SELECT o.started / ${DAY}, o.test_id, ${F('o.outcome = 1')}, ${F('o.outcome = 2')} FROM test_outcome o WHERE o.run_id IN (${ids})${within('o', span)} GROUP BY o.started / ${DAY}, o.test_id`,
  },
  {
    table: 'rollup_test_hour', key: ['hour', 'test_id'], values: ['failed', 'flaked'],
    select: (ids, span) => `SELECT o.started / ${HOUR}, o.test_id, ${F('o.outcome = 1')}, ${F('o.outcome = 2')} FROM test_outcome o WHERE o.run_id IN (${ids})${within('o', span)} GROUP BY o.started / ${HOUR}, o.test_id`,
  },
  {
    table: 'rollup_run_day', key: ['day', 'job_id', 'test_set_id'], values: ['runs', 'broken'],
    select: (ids, span) => `SELECT r.started / ${DAY}, r.job_id, COALESCE(r.test_set_id, 0), COUNT(*) * ?, SUM(${BROKEN}) * ? FROM run r WHERE r.id IN (${ids})${within('r', span)} GROUP BY r.started / ${DAY}, r.job_id, COALESCE(r.test_set_id, 0)`,
  },
  {
    table: 'rollup_run_hour', key: ['hour', 'job_id', 'test_set_id'], values: ['runs', 'broken'],
    select: (ids, span) => `SELECT r.started / ${HOUR}, r.job_id, COALESCE(r.test_set_id, 0), COUNT(*) * ?, SUM(${BROKEN}) * ? FROM run r WHERE r.id IN (${ids})${within('r', span)} GROUP BY r.started / ${HOUR}, r.job_id, COALESCE(r.test_set_id, 0)`,
  },
  // a signature counts once per run: it took the run down when any of its failures there was hard
  {
    table: 'rollup_sig_day', key: ['day', 'signature_id', 'job_id'], values: ['runs', 'flaked_runs'],
    select: (ids, span) => `SELECT s.started / ${DAY}, s.signature_id, s.job_id, ${F('s.worst = 1')}, ${F('s.worst = 2')}
      FROM (SELECT o.run_id, o.signature_id, MIN(o.outcome) AS worst, MIN(o.started) AS started, MIN(o.job_id) AS job_id FROM test_outcome o
            WHERE o.run_id IN (${ids})${within('o', span)} AND o.signature_id IS NOT NULL GROUP BY o.run_id, o.signature_id) s
      WHERE true GROUP BY s.started / ${DAY}, s.signature_id, s.job_id`,
  },
  {
    table: 'rollup_sig_total', key: ['day', 'signature_id'], values: ['runs', 'flaked_runs', 'outcomes'],
    select: (ids, span) => `SELECT s.started / ${DAY}, s.signature_id, ${F('s.worst = 1')}, ${F('s.worst = 2')}, SUM(s.n) * ?
      FROM (SELECT o.run_id, o.signature_id, MIN(o.outcome) AS worst, MIN(o.started) AS started, COUNT(*) AS n FROM test_outcome o
            WHERE o.run_id IN (${ids})${within('o', span)} AND o.signature_id IS NOT NULL GROUP BY o.run_id, o.signature_id) s
      WHERE true GROUP BY s.started / ${DAY}, s.signature_id`,
  },
  {
    table: 'rollup_sig_hour', key: ['hour', 'signature_id'], values: ['runs', 'flaked_runs', 'outcomes'],
    select: (ids, span) => `SELECT s.started / ${HOUR}, s.signature_id, ${F('s.worst = 1')}, ${F('s.worst = 2')}, SUM(s.n) * ?
      FROM (SELECT o.run_id, o.signature_id, MIN(o.outcome) AS worst, MIN(o.started) AS started, COUNT(*) AS n FROM test_outcome o
            WHERE o.run_id IN (${ids})${within('o', span)} AND o.signature_id IS NOT NULL GROUP BY o.run_id, o.signature_id) s
      WHERE true GROUP BY s.started / ${HOUR}, s.signature_id`,
  },
  {
    table: 'rollup_sig_test_day', key: ['day', 'signature_id', 'test_id'], values: ['failed', 'flaked'],
    select: (ids, span) => `SELECT o.started / ${DAY}, o.signature_id, o.test_id, ${F('o.outcome = 1')}, ${F('o.outcome = 2')} FROM test_outcome o
      WHERE o.run_id IN (${ids})${within('o', span)} AND o.signature_id IS NOT NULL GROUP BY o.started / ${DAY}, o.signature_id, o.test_id`,
  },
];

const statement = (r: Rollup, ids: string, span?: StartSpan): string =>
  `INSERT INTO ${r.table} (${[...r.key, ...r.values].join(', ')}) ${r.select(ids, span)}
   ON CONFLICT (${r.key.join(', ')}) DO UPDATE SET ${r.values.map((v) => `${v} = ${r.table}.${v} + excluded.${v}`).join(', ')}`;

/**
 * Adds the runs (sign 1, after they are stored) or takes them away (sign -1, before they are deleted)
 * from every rollup; inside the caller's transaction.
 */
export async function rollUp(sql: Sql, runIds: number[], sign: 1 | -1): Promise<Set<number>> {
  const days = new Set<number>();
  for (let i = 0; i < runIds.length; i += 500) {
    const chunk = runIds.slice(i, i + 500);
    const ids = chunk.map(() => '?').join(', ');
    const starts = (await sql.rows(`SELECT DISTINCT started FROM run WHERE id IN (${ids})`, chunk)).map(([t]) => Number(t));
    if (!starts.length) continue;
    for (const t of starts) days.add(Math.floor(t / DAY));
    const span: StartSpan = [starts.reduce((a, b) => Math.min(a, b)), starts.reduce((a, b) => Math.max(a, b))];
    for (const r of ROLLUPS) {
      const signs: Param[] = r.values.map(() => sign);
      // the sign placeholders come first in the SELECT, the run ids after
      await sql.run(statement(r, ids, span), [...signs, ...chunk]);
    }
  }
  await bumpDataVersion(sql, days);
  return days;
}

/**
 * Drops the rollup rows that count nothing any more (after runs were taken away) from the first to the
 * last of the given UTC days: a range of each table's leading time key, so a pass's pruning does not
 * scan all history.
 */
export async function dropEmptyRollups(sql: Sql, days: Set<number>): Promise<void> {
  if (!days.size) return;
  const list = [...days];
  const first = list.reduce((a, b) => Math.min(a, b));
  const last = list.reduce((a, b) => Math.max(a, b));
  for (const r of ROLLUPS) {
    const perDay = r.key[0] === 'hour' ? 24 : 1;
    await sql.run(`DELETE FROM ${r.table} WHERE ${r.key[0]} >= ? AND ${r.key[0]} < ? AND ${r.values.map((v) => `${v} = 0`).join(' AND ')}`, [first * perDay, (last + 1) * perDay]);
  }
}

/** The rollups' tables, for tests and the benchmarks that check them against the runs. */
export const ROLLUP_TABLES = ROLLUPS.map((r) => ({ table: r.table, key: r.key, values: r.values, select: r.select }));

/** A stored run, as the rollups count it. */
export interface RolledRun {
  id: number;
  jobId: number;
  started: number;
  testSetId: number | null;
  broken: boolean;
}

/** A stored non-passing outcome, as the rollups count it. */
export interface RolledOutcome {
  runId: number;
  testId: number;
  /** 1 failed, 2 flaked */
  outcome: number;
  signatureId: number | null;
  started: number;
  jobId: number;
}

export const isBroken = (installFailed: boolean, failedTests: number): boolean => installFailed || failedTests >= MASS_FAILURE_TESTS;

/**
 * Adds just-stored runs to every rollup from the rows the caller has in hand (what rollUp would add,
 * without reading them back): one multi-row upsert per table. Inside the caller's transaction.
 */
export async function rollUpStored(sql: Sql, runs: RolledRun[], outcomes: RolledOutcome[]): Promise<void> {
  if (!runs.length) return;
  const broken = new Map(runs.map((r) => [r.id, r.broken]));
  const tables = new Map<string, Map<string, number[]>>();
  const add = (table: string, key: number[], values: number[]) => {
    let t = tables.get(table);
    if (!t) tables.set(table, (t = new Map()));
    const k = key.join('|');
    const cur = t.get(k);
    if (!cur) t.set(k, [...key, ...values]);
    else for (let i = 0; i < values.length; i++) cur[key.length + i] += values[i];
  };
  for (const r of runs) {
    const b = r.broken ? 1 : 0;
    add('rollup_run_day', [Math.floor(r.started / DAY), r.jobId, r.testSetId ?? 0], [1, b]);
    add('rollup_run_hour', [Math.floor(r.started / HOUR), r.jobId, r.testSetId ?? 0], [1, b]);
  }
  // a signature counts once per run: it took the run down when any of its failures there was hard
  const sigRuns = new Map<string, { outcome: number; started: number; jobId: number; signatureId: number; n: number }>();
  for (const o of outcomes) {
    const f = o.outcome === 1 ? 1 : 0;
    const fl = o.outcome === 2 ? 1 : 0;
    const b = broken.get(o.runId) ? 1 : 0;
    const day = Math.floor(o.started / DAY);
    add('rollup_test_day', [day, o.testId, o.jobId], [f, fl, f * b, fl * b]);
    add('rollup_test_total', [day, o.testId], [f, fl]);
    add('rollup_test_hour', [Math.floor(o.started / HOUR), o.testId], [f, fl]);
    if (o.signatureId === null) continue;
    add('rollup_sig_test_day', [day, o.signatureId, o.testId], [f, fl]);
    const k = `${o.runId}|${o.signatureId}`;
    const s = sigRuns.get(k);
    if (!s) sigRuns.set(k, { outcome: o.outcome, started: o.started, jobId: o.jobId, signatureId: o.signatureId, n: 1 });
    else {
      s.n++;
      if (o.outcome < s.outcome) s.outcome = o.outcome;
    }
  }
  for (const s of sigRuns.values()) {
    const took = s.outcome === 1 ? 1 : 0;
    const day = Math.floor(s.started / DAY);
    add('rollup_sig_day', [day, s.signatureId, s.jobId], [took, 1 - took]);
    add('rollup_sig_total', [day, s.signatureId], [took, 1 - took, s.n]);
    add('rollup_sig_hour', [Math.floor(s.started / HOUR), s.signatureId], [took, 1 - took, s.n]);
  }
  for (const r of ROLLUPS) {
    const rows = tables.get(r.table);
    if (!rows?.size) continue;
    const tail = `ON CONFLICT (${r.key.join(', ')}) DO UPDATE SET ${r.values.map((v) => `${v} = ${r.table}.${v} + excluded.${v}`).join(', ')}`;
    await insertMany(sql, r.table, [...r.key, ...r.values], [...rows.values()], tail);
  }
  await bumpDataVersion(sql, new Set(runs.map((r) => Math.floor(r.started / DAY))));
}

const DAY_VERSION = 'rollup_day:';

/**
 * Versions that move whenever the rollups do: `data_version`, a counter, for any change (answers cached
 * on it stay right until the data changes), and for each UTC day the change touched a new random
 * token (whole days cached on it stay right while ingest writes today, lib/history/dayCache.ts; random,
 * so a database made again at the same address never repeats a version a cache still holds).
 */
export async function bumpDataVersion(sql: Sql, days: Iterable<number>): Promise<void> {
  await sql.run("INSERT INTO kv (key, value) VALUES ('data_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(kv.value AS INTEGER) + 1 AS TEXT)");
  const token = crypto.randomBytes(8).toString('hex');
  for (const d of days) await sql.run('INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [`${DAY_VERSION}${d}`, token]);
}

export async function dataVersion(sql: Sql): Promise<string> {
  return (await sql.get<{ value: string }>("SELECT value FROM kv WHERE key = 'data_version'"))?.value ?? '0';
}

/** Forgets the versions of `days` (day numbers): days with no data left, as before they were first written. */
export async function dropDayVersions(sql: Sql, days: number[]): Promise<void> {
  await deleteKv(sql, days.map((d) => `${DAY_VERSION}${d}`));
}

/** Each UTC day's version (days never written have none). */
export async function dayVersions(sql: Sql): Promise<Map<number, string>> {
  const rows = await sql.rows("SELECT key, value FROM kv WHERE key >= 'rollup_day:' AND key < 'rollup_day;'");
  return new Map(rows.map(([k, v]) => [Number(String(k).slice(DAY_VERSION.length)), String(v)]));
}
