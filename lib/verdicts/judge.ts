// The verdicts of tests at a time `at`: each test's history over the fixed lookback, judged by the
// rules, with the runs the evidence names (the first failing run after a change and the run before
// it, a streak's first failure and the last pass, the first clean run after a fix). The hot list, the
// test page, the promotion view and the CLI all take their verdicts from here, so a test at an `at`
// has one verdict everywhere. Cached per `at` and version of the data.
import { bugsForTests } from '../bugs/refs';
import { iso } from '../history/window';
import { forEachQuery, rowsPerKey, selectRowsIn } from '../store/bulk';
import type { Database } from '../store/db';
import { testNames } from '../store/names';
import { BROKEN_RUN } from '../store/rollups';
import { judge, type SameConditionPair, type TestHistory, type Verdict } from './rules';
import { outcomesOfTests, RUN_ROW, toRunRow, type RecentRun, type RunRow } from './runRows';
import { jobRunsOfSpan, LATEST_RUNS, LATEST_SECONDS, outcomesOnJob } from './recentRuns';
import { executedIn, lookbackContext, testHistories, type HistoryExtras, type LookbackContext } from './testHistory';
import { describeChange, type RunRef } from './verdict';

export type JudgedVerdict = Omit<Verdict, 'needs'>;

const runRef = (ctx: LookbackContext, r: RunRow): RunRef => ({ job: ctx.jobs.get(r.jobId)?.name ?? '', buildId: r.buildId, url: r.url, started: r.started, payload: r.payload, commit: r.commit });
export const shownRef = (ctx: LookbackContext, r: RunRow) => ({ job: ctx.jobs.get(r.jobId)?.name ?? '', buildId: r.buildId, url: r.url, started: iso(r.started) });

const cache = new Map<string, Map<number, JudgedVerdict>>();
// a few times only: "now" moves on, a time asked once is rarely asked again, and each holds hundreds
// of verdicts with their evidence
const CACHED_ATS = 4;

/** The first failure or flake of each test in all stored history (an index lookup each). */
export async function firstFailures(db: Database, testIds: number[]): Promise<Map<number, number>> {
  const rows = await selectRowsIn(db, (p) => `SELECT t.id, (SELECT MIN(o.started) FROM test_outcome o WHERE o.test_id = t.id) FROM test t WHERE t.id IN (${p})`, testIds);
  const out = new Map<number, number>();
  for (const [id, first] of rows) if (first !== null) out.set(Number(id), Number(first));
  return out;
}

/** The verdicts of the given tests at `at` (tests that neither failed nor flaked in the lookback are left out). */
export async function verdictsAt(db: Database, at: number, testIds: number[]): Promise<Map<number, JudgedVerdict>> {
  const ctx = await lookbackContext(db, at);
  const key = `${db.url}|${at}|${ctx.version}`;
  let known = cache.get(key);
  if (!known) {
    if (cache.size >= CACHED_ATS) cache.delete(cache.keys().next().value!);
    cache.set(key, (known = new Map()));
  }
  const out = new Map<number, JudgedVerdict>();
  const missing = testIds.filter((id) => {
    const v = known!.get(id);
    if (v) out.set(id, v);
    return !v;
  });
  if (!missing.length) return out;
  const [names, firstSeen] = await Promise.all([testNames(db, missing), firstFailures(db, missing)]);
  const histories = await testHistories(ctx, missing, new Map([...names].map(([id, n]) => [id, n.name])), firstSeen);
  const judged = new Map<number, { history: TestHistory; extras: HistoryExtras; verdict: Verdict }>();
  for (const [id, { history, extras }] of histories) {
    const failures = history.jobs.some((j) => Array.prototype.some.call(j.failed, (x: number) => x > 0) || Array.prototype.some.call(j.flaked, (x: number) => x > 0));
    if (!failures && !history.broken.mass) continue; // no failure in the lookback: nothing to judge
    judged.set(id, { history, extras, verdict: judge(history) });
  }
  // what some rules' evidence needs from the runs themselves, read for those verdicts only, and the
  // change points' runs of every regression at once. Side by side: each changes only its own tests'
  // verdicts, and none makes a test of another's (infra stays infra with its detail, a flaky or
  // failing test's pairs make it flaky or failing, and the regressions were known before either).
  const judgedAs = (...classes: Verdict['classification'][]) => [...judged].filter(([, j]) => classes.includes(j.verdict.classification));
  const regressions = [...judged].filter(([, j]) => j.verdict.needs?.changeAt !== undefined).map(([id, j]) => ({ id, evidence: j.verdict.evidence, needs: j.verdict.needs! }));
  await Promise.all([addBrokenRunDetail(ctx, judgedAs('infra'), judged), addSameConditionPairs(ctx, judgedAs('flaky', 'failing'), judged), nameChanges(ctx, regressions)]);
  const fixedHashes: string[] = [];
  const named = new Map<number, JudgedVerdict>();
  // then each verdict's other runs
  await forEachQuery(db, [...judged], async ([id, { extras, verdict }]) => {
    const { needs, ...v } = verdict;
    if (needs) await nameRuns(ctx, v, needs, id, extras);
    named.set(id, v);
  });
  // in the order judged, whatever order the runs were named in
  for (const id of judged.keys()) {
    const v = named.get(id)!;
    if (v.classification === 'fixed') fixedHashes.push(names.get(id)!.hash);
    known.set(id, v);
    out.set(id, v);
  }
  if (fixedHashes.length) await addClosedBugs(db, out, names, fixedHashes);
  return out;
}

/** Infra's evidence: of the failures in broken runs, those whose install failed and the median tests failed with them. */
async function addBrokenRunDetail(ctx: LookbackContext, infra: [number, unknown][], judged: Map<number, { history: TestHistory; verdict: Verdict }>): Promise<void> {
  await forEachQuery(ctx.db, infra, async ([id]) => {
    const rows = await ctx.db.rows(
      `SELECT r.install_failed, r.failed FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.test_id = ? AND o.started >= ? AND o.started < ? AND ${BROKEN_RUN} LIMIT 5000`,
      [id, ctx.lookback.from, ctx.lookback.at],
    );
    const j = judged.get(id)!;
    const install = rows.filter(([i]) => Number(i) === 1).length;
    j.history.broken = { install, mass: j.history.broken.mass - install, failedTestsPerRun: rows.map(([, f]) => Number(f)) };
    j.verdict = judge(j.history);
  });
}

/**
 * Hard failures examined per test for a same-job, same-payload/commit pass: its newest, and of runs
 * that started in the same second the newest by id, so every call examines the same.
 */
const SAME_CONDITION_EXAMINED = 20;

/** Runs of a failure's group probed at first for a pass (most runs of a flaky test pass). */
const SAME_CONDITION_PROBES = 2;

/** Flaky and failing tests: their hard failures paired with a healthy run of the same job and payload (else commit) where they passed. */
async function addSameConditionPairs(ctx: LookbackContext, tests: [number, unknown][], judged: Map<number, { history: TestHistory; verdict: Verdict }>): Promise<void> {
  const { db, lookback: lb } = ctx;
  const failures = new Map<number, RunRow[]>(tests.map(([id]) => [id, []]));
  const newest = await rowsPerKey(
    db,
    tests.map(([id]) => [id]),
    ([test]) => `SELECT ${RUN_ROW} FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.test_id = ${test} AND o.outcome = 1 AND o.started >= ? AND o.started < ? AND NOT ${BROKEN_RUN} ORDER BY o.started DESC, o.run_id DESC LIMIT ${SAME_CONDITION_EXAMINED}`,
    [lb.from, lb.at],
  );
  for (const [id, ...row] of newest) failures.get(Number(id))!.push(toRunRow(row));
  for (const mine of failures.values()) mine.sort((a, b) => b.started - a.started || b.id - a.id);
  const runsLike = await sameConditionRuns(ctx, [...failures.values()].flat());
  // each failure's group: the runs under its condition that ran its test, in start order
  const groups = new Map(tests.map(([id]) => [id, new Map(failures.get(id)!.map((f) => {
    const on = conditionOf(f);
    return [f, on ? (runsLike.get(conditionKey(f, on)) ?? []).filter((r) => executedIn(ctx, r.testSetId, id)) : []];
  }))]));
  // whether each test passed in each run looked at (its failures it did not); for each failure, its
  // group's runs in start order up to the first pass: a few probes each, more where all of those
  // failed, every test's probes of a round read together
  const passedIn = new Map(tests.map(([id]) => [id, new Map<number, boolean>(failures.get(id)!.map((f) => [f.id, false]))]));
  const firstPass = (id: number, f: RunRow) => groups.get(id)!.get(f)!.find((r) => passedIn.get(id)!.get(r.id));
  for (let probes = SAME_CONDITION_PROBES; ; probes *= 2) {
    const asks = new Map<number, GroupRun[]>();
    for (const [id, ran] of groups) {
      const ask = new Map<number, GroupRun>();
      for (const [f, group] of ran) {
        if (firstPass(id, f)) continue;
        for (const r of group.filter((x) => !passedIn.get(id)!.has(x.id)).slice(0, probes)) ask.set(r.id, r);
      }
      if (ask.size) asks.set(id, [...ask.values()]);
    }
    if (!asks.size) break;
    const notPassed = new Set((await outcomesOfTests(db, asks)).map(([t, r]) => `${t}|${r}`));
    for (const [id, runs] of asks) for (const r of runs) passedIn.get(id)!.set(r.id, !notPassed.has(`${id}|${r.id}`));
  }
  for (const [id] of tests) {
    const pairs: SameConditionPair[] = [];
    for (const f of failures.get(id)!) {
      const passed = firstPass(id, f);
      const on = conditionOf(f);
      if (passed && on) pairs.push({ job: ctx.jobs.get(f.jobId)?.name ?? '', on, value: conditionValue(f, on), failed: f.buildId, passed: passed.buildId });
    }
    if (!pairs.length) continue;
    const j = judged.get(id)!;
    j.history.sameConditionPairs = pairs;
    j.verdict = judge(j.history);
  }
}

/** Runs looked at per job and payload (or commit) for a pass under the same condition. */
const SAME_CONDITION_RUNS = 20;

/** A run of a failure's group, as the pairing reads it. */
type GroupRun = Pick<RunRow, 'id' | 'buildId' | 'started' | 'testSetId'>;

/** What a failure's same condition is: its payload, else its commit (none without either). */
type Condition = 'payload' | 'commit';
const conditionOf = (r: RunRow): Condition | undefined => (r.payload ? 'payload' : r.commit ? 'commit' : undefined);
const conditionValue = (r: RunRow, on: Condition) => (on === 'payload' ? r.payload : r.commit);
/** A group of runs under one condition: `job|payload|value` or `job|commit|value`. */
const conditionKey = (r: RunRow, on: Condition) => `${r.jobId}|${on}|${conditionValue(r, on)}`;

/**
 * The healthy runs of the lookback on the failures' jobs with their payload (else commit), the first
 * SAME_CONDITION_RUNS of each by start, keyed `job|payload|value` or `job|commit|value`: one read for
 * every test's failures.
 */
async function sameConditionRuns(ctx: LookbackContext, failures: RunRow[]): Promise<Map<string, GroupRun[]>> {
  const { db, lookback: lb } = ctx;
  const out = new Map<string, GroupRun[]>();
  for (const on of ['payload', 'commit'] as const) {
    const column = on === 'payload' ? 'payload' : 'commit_sha';
    // a failure of each group stands for it; the group's first runs come through the (job, payload or
    // commit, start) index. Not every job's runs of every value: a payload is shared by most jobs, and
    // PostgreSQL read all of the lookback's runs for that (190 ms at OpenShift's scale).
    const standIns = new Map<string, RunRow>();
    for (const f of failures) if (conditionOf(f) === on && !standIns.has(conditionKey(f, on))) standIns.set(conditionKey(f, on), f);
    // each group's runs by its stand-in's id, without their URLs, payloads and commits: what the
    // pairs name of them is their build (7,500 whole runs for a hot list's flaky tests)
    const keyOf = new Map([...standIns].map(([k, f]) => [f.id, k]));
    const rows = await rowsPerKey(
      db,
      [...standIns.values()].map((f) => [f.id, f.started]),
      ([id, started]) => `SELECT r.id, r.build_id, r.started, r.test_set_id FROM run f JOIN run r ON r.job_id = f.job_id AND r.${column} = f.${column}
                          WHERE f.id = ${id} AND f.started = ${started} AND r.started >= ${lb.from} AND r.started < ${lb.at} AND NOT ${BROKEN_RUN}
                          ORDER BY r.started, r.id LIMIT ${SAME_CONDITION_RUNS}`,
    );
    const runs = rows
      .map(([standIn, , id, buildId, started, set]) => ({ key: keyOf.get(Number(standIn))!, run: { id: Number(id), buildId: String(buildId), started: Number(started), testSetId: set === null ? null : Number(set) } }))
      .sort((a, b) => a.run.started - b.run.started || a.run.id - b.run.id);
    for (const { key, run } of runs) {
      let list = out.get(key);
      if (!list) out.set(key, (list = []));
      list.push(run);
    }
  }
  return out;
}

/**
 * A regression's first failing run after its change (in a job where it rose, else any) and the run of
 * that job before it that executed the test: every regression's in two statements, not two each.
 */
async function nameChanges(ctx: LookbackContext, regressions: { id: number; evidence: Record<string, unknown>; needs: NonNullable<Verdict['needs']> }[]): Promise<void> {
  const { db, lookback: lb } = ctx;
  if (!regressions.length) return;
  // the failures after each change by run, job and start only (3,400 rows of 17 regressions: as whole
  // runs, their texts were most of what the server sent and the client read), then the chosen runs whole
  type After = Pick<RecentRun, 'id' | 'jobId' | 'started'>;
  const after = new Map<number, After[]>(regressions.map((r) => [r.id, []]));
  const afterRows = await rowsPerKey(
    db,
    regressions.map((r) => [r.id, r.needs.changeAt!]),
    ([test, changeAt]) => `SELECT o.run_id, r.job_id, o.started FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.test_id = ${test} AND o.started >= ${changeAt} AND o.started < ? AND NOT ${BROKEN_RUN} ORDER BY o.started, o.run_id LIMIT 200`,
    [lb.at],
  );
  for (const [id, , run, job, started] of afterRows) after.get(Number(id))!.push({ id: Number(run), jobId: Number(job), started: Number(started) });
  const firsts = new Map<number, After>();
  for (const r of regressions) {
    // in the statement's order per test (its rows come as each key's query gives them)
    const runs = after.get(r.id)!.sort((a, b) => a.started - b.started || a.id - b.id);
    const changed = new Set(r.needs.changedJobs ?? []);
    const first = runs.find((x) => changed.has(ctx.jobs.get(x.jobId)?.name ?? '')) ?? runs[0];
    if (first) firsts.set(r.id, first);
  }
  const ids = [...new Set([...firsts.values()].map((f) => f.id))];
  const [chosen, beforeRows] = await Promise.all([
    selectRowsIn(db, (p) => `SELECT ${RUN_ROW} FROM run r WHERE r.id IN (${p})`, ids),
    rowsPerKey(
      db,
      [...firsts].map(([id, f]) => [id, f.jobId, f.started, f.id]),
      ([, job, started, run]) => `SELECT ${RUN_ROW} FROM run r WHERE r.job_id = ${job} AND (r.started < ${started} OR (r.started = ${started} AND r.id < ${run})) ORDER BY r.started DESC, r.id DESC LIMIT 50`,
    ),
  ]);
  const runById = new Map(chosen.map((row) => [Number(row[0]), toRunRow(row)]));
  const before = new Map<number, RunRow[]>([...firsts.keys()].map((id) => [id, []]));
  for (const [id, , , , ...row] of beforeRows) before.get(Number(id))!.push(toRunRow(row));
  for (const r of regressions) {
    const first = runById.get(firsts.get(r.id)?.id ?? -1);
    if (!first) continue;
    const prev = before.get(r.id)!.sort((a, b) => b.started - a.started || b.id - a.id).find((x) => executedIn(ctx, x.testSetId, r.id));
    Object.assign(r.evidence, describeChange(runRef(ctx, first), prev && runRef(ctx, prev)));
  }
}

/** Fills in the runs the evidence names. */
async function nameRuns(ctx: LookbackContext, v: JudgedVerdict, needs: NonNullable<Verdict['needs']>, testId: number, extras: HistoryExtras): Promise<void> {
  const { db, lookback: lb } = ctx;
  const ev = v.evidence;
  const ran = (r: RecentRun) => !r.broken && executedIn(ctx, r.testSetId, testId);
  if (needs.streakJobs?.length) {
    const byName = new Map([...ctx.jobs.values()].map((j) => [j.name, j.id]));
    // the runs that start each streak and the passes before them, then their rows in one read
    const named: { entry: Record<string, unknown>; key: 'since' | 'lastPass'; run: number }[] = [];
    for (const entry of ev.jobs as { job: string; failedLatestRuns?: number; since?: unknown; lastPass?: unknown }[]) {
      if (!entry.failedLatestRuns || !needs.streakJobs.includes(entry.job)) continue;
      const jobId = byName.get(entry.job) ?? -1;
      // a streak as long as the runs counted may begin before them
      const long = entry.failedLatestRuns >= LATEST_RUNS;
      const outcomes = long ? await outcomesOnJob(db, lb, testId, jobId) : extras.recentOutcomes;
      const runs = long && extras.recentFrom > lb.at - LATEST_SECONDS ? await jobRunsOfSpan(db, lb, jobId) : (extras.recentRuns.get(jobId) ?? []);
      let oldest: RecentRun | undefined;
      for (const r of runs) {
        if (!ran(r)) continue;
        const o = outcomes.get(r.id);
        if (o === 1) oldest = r;
        else {
          if (o === undefined) named.push({ entry, key: 'lastPass', run: r.id });
          break;
        }
      }
      if (oldest) named.push({ entry, key: 'since', run: oldest.id });
    }
    const rows = await selectRowsIn(db, (p) => `SELECT ${RUN_ROW} FROM run r WHERE r.id IN (${p})`, named.map((n) => n.run));
    const byId = new Map(rows.map((r) => [Number(r[0]), toRunRow(r)]));
    for (const n of named) {
      const run = byId.get(n.run);
      if (run) n.entry[n.key] = shownRef(ctx, run);
    }
  }
  if (needs.fixedAfter !== undefined && extras.lastFailure) {
    const last = extras.lastFailure;
    ev.lastFailingRun = shownRef(ctx, last);
    const next = async (jobId?: number) =>
      (await db.rows(`SELECT ${RUN_ROW} FROM run r WHERE r.started > ? AND r.started < ?${jobId === undefined ? '' : ' AND r.job_id = ?'} ORDER BY r.started, r.id LIMIT 500`, jobId === undefined ? [last.started, lb.at] : [last.started, lb.at, jobId]))
        .map(toRunRow)
        .find(ran);
    const anyJob = await next();
    if (anyJob) ev.firstCleanRun = shownRef(ctx, anyJob);
    const sameJob = await next(last.jobId);
    if (sameJob) Object.assign(ev, changedBetween(runRef(ctx, last), runRef(ctx, sameJob)));
  }
}

/** What differs between the last failing run and the next clean run of the same job. */
function changedBetween(failing: RunRef, clean: RunRef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (failing.payload && clean.payload && failing.payload !== clean.payload) out.payloadChanged = { from: failing.payload, to: clean.payload };
  if (failing.commit && clean.commit && failing.commit !== clean.commit) out.commitChanged = { from: failing.commit, to: clean.commit };
  return out;
}

/** A fixed test's linked bug that was closed or verified, the latest one. */
async function addClosedBugs(db: Database, verdicts: Map<number, JudgedVerdict>, names: Map<number, { hash: string }>, hashes: string[]): Promise<void> {
  const bugs = await bugsForTests(db, hashes);
  for (const [id, v] of verdicts) {
    if (v.classification !== 'fixed' || v.evidence.bug) continue;
    const closed = (bugs.get(names.get(id)?.hash ?? '') ?? []).filter((b) => b.closedAt).sort((a, b) => (a.closedAt! < b.closedAt! ? 1 : -1))[0];
    if (closed) {
      v.evidence.bug = { tracker: closed.tracker, id: closed.id, url: closed.url, status: closed.status, closedAt: closed.closedAt };
      v.evidence.summary += `; ${closed.tracker} ${closed.id} was closed ${closed.closedAt}`;
    }
  }
}
