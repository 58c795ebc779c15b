// The verdicts of tests at a time `at`: each test's history over the fixed lookback, judged by the
// rules, with the runs the evidence names (the first failing run after a change and the run before
// it, a streak's first failure and the last pass, the first clean run after a fix). The hot list, the
// test page, the promotion view and the CLI all take their verdicts from here, so a test at an `at`
// has one verdict everywhere.
import { bugsForTests } from '../bugs/refs';
import { iso } from '../history/window';
import type { RunInfo } from '../history/types';
import { selectIn } from '../store/bulk';
import type { Database } from '../store/db';
import { testNames } from '../store/names';
import { judge, type Verdict } from './rules';
import { executed, isBrokenRun, loadLookback, runsOfJob, testHistories, type LookbackData, type TestRuns } from './testHistory';
import { describeChange, type RunRef } from './verdict';

export type JudgedVerdict = Omit<Verdict, 'needs'>;

const runRef = (d: LookbackData, r: RunInfo): RunRef => ({ job: d.jobs.get(r.jobId)?.name ?? '', buildId: r.buildId, url: r.url, started: r.started, payload: r.payload, commit: r.commit });
const shownRef = (d: LookbackData, r: RunInfo) => ({ job: d.jobs.get(r.jobId)?.name ?? '', buildId: r.buildId, url: r.url, started: iso(r.started) });

/** Verdicts judged at an `at` on one version of the data, kept while the data stays the same. */
const cache = new Map<string, Map<number, JudgedVerdict>>();
const CACHED_ATS = 16;

/** The first failure or flake of each test in all stored history. */
async function firstFailures(db: Database, testIds: number[]): Promise<Map<number, number>> {
  const rows = await selectIn<{ test_id: number; first: number }>(db, (p) => `SELECT test_id, MIN(started) AS first FROM test_outcome WHERE test_id IN (${p}) GROUP BY test_id`, testIds);
  return new Map(rows.map((r) => [r.test_id, Number(r.first)]));
}

/**
 * The verdicts of the given tests at `at` (tests that neither failed nor flaked in the lookback are
 * left out). `data`: the lookback already loaded, if the caller has it.
 */
export async function verdictsAt(db: Database, at: number, testIds: number[], data?: LookbackData): Promise<Map<number, JudgedVerdict>> {
  const d = data ?? (await loadLookback(db, at));
  const key = `${db.url}|${at}|${d.version}`;
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
  const histories = testHistories(d, missing, new Map([...names].map(([id, n]) => [id, n.name])), firstSeen);
  const fixedHashes: string[] = [];
  for (const [id, { history, runs }] of histories) {
    if (!runs.outcomeOf.size) continue; // no failure in the lookback: nothing to judge
    const { needs, ...v } = judge(history);
    if (needs) nameRuns(d, v, needs, runs, (r) => !isBrokenRun(r) && executed(d, r, id));
    if (v.classification === 'fixed') fixedHashes.push(names.get(id)!.hash);
    known.set(id, v);
    out.set(id, v);
  }
  if (fixedHashes.length) await addClosedBugs(db, out, names, fixedHashes);
  return out;
}

/** Fills in the runs the evidence names. */
export function nameRuns(d: LookbackData, v: JudgedVerdict, needs: NonNullable<Verdict['needs']>, runs: TestRuns, ran: (r: RunInfo) => boolean): void {
  const ev = v.evidence;
  if (needs.changeAt !== undefined) {
    const changed = new Set(needs.changedJobs ?? []);
    const after = runs.failures.filter((f) => f.run.started >= needs.changeAt!);
    const first = after.find((f) => changed.has(d.jobs.get(f.run.jobId)?.name ?? '')) ?? after[0];
    if (first) {
      const prev = previousExecuted(d, first.run, ran);
      Object.assign(ev, describeChange(runRef(d, first.run), prev && runRef(d, prev)));
    }
  }
  if (needs.streakJobs?.length) {
    const byName = new Map([...d.jobs.values()].map((j) => [j.name, j.id]));
    for (const entry of ev.jobs as { job: string; failedLatestRuns?: number; since?: unknown; lastPass?: unknown }[]) {
      if (!entry.failedLatestRuns || !needs.streakJobs.includes(entry.job)) continue;
      const list = runsOfJob(d, byName.get(entry.job) ?? -1);
      let oldest: RunInfo | undefined;
      for (let i = list.length - 1; i >= 0; i--) {
        const r = list[i];
        if (!ran(r)) continue;
        if (runs.outcomeOf.get(r.id) === 1) oldest = r;
        else {
          if (runs.outcomeOf.get(r.id) === undefined) entry.lastPass = shownRef(d, r);
          break;
        }
      }
      if (oldest) entry.since = shownRef(d, oldest);
    }
  }
  if (needs.fixedAfter !== undefined) {
    const last = runs.failures[runs.failures.length - 1].run;
    ev.lastFailingRun = shownRef(d, last);
    const sameJob = runsOfJob(d, last.jobId).find((r) => r.started > last.started && ran(r));
    const anyJob = d.runs.find((r) => r.started > last.started && ran(r));
    if (anyJob) ev.firstCleanRun = shownRef(d, anyJob);
    if (sameJob) Object.assign(ev, changedBetween(runRef(d, last), runRef(d, sameJob)));
  }
}

/** What differs between the last failing run and the next clean run of the same job. */
function changedBetween(failing: RunRef, clean: RunRef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (failing.payload && clean.payload && failing.payload !== clean.payload) out.payloadChanged = { from: failing.payload, to: clean.payload };
  if (failing.commit && clean.commit && failing.commit !== clean.commit) out.commitChanged = { from: failing.commit, to: clean.commit };
  return out;
}

/** The run of the same job before `run` that ran the test (or could have had the cause). */
function previousExecuted(d: LookbackData, run: RunInfo, ran: (r: RunInfo) => boolean): RunInfo | undefined {
  const list = runsOfJob(d, run.jobId);
  for (let i = list.indexOf(run) - 1; i >= 0; i--) if (ran(list[i])) return list[i];
  return undefined;
}

/** A fixed test's linked bug that was closed or verified, the latest one. */
async function addClosedBugs(db: Database, verdicts: Map<number, JudgedVerdict>, names: Map<number, { hash: string }>, hashes: string[]): Promise<void> {
  const bugs = await bugsForTests(db, hashes);
  for (const [id, v] of verdicts) {
    if (v.classification !== 'fixed') continue;
    const closed = (bugs.get(names.get(id)?.hash ?? '') ?? []).filter((b) => b.closedAt).sort((a, b) => (a.closedAt! < b.closedAt! ? 1 : -1))[0];
    if (closed) {
      v.evidence.bug = { tracker: closed.tracker, id: closed.id, url: closed.url, status: closed.status, closedAt: closed.closedAt };
      v.evidence.summary += `; ${closed.tracker} ${closed.id} was closed ${closed.closedAt}`;
    }
  }
}
