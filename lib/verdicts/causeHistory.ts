// A cause's history over the lookback, for its own verdict by the same rules as a test's, over runs:
// per job and bucket, the runs that ran tests and those the cause took down (a run where one of its
// failures passed on retry counts as flaked). A cause is what breaks runs, so none is set apart as
// broken: a mass failure that began with a payload on one release is that release's regression.
import type { RunInfo } from '../history/types';
import { selectIn } from '../store/bulk';
import type { Database } from '../store/db';
import { nameRuns, type JudgedVerdict } from './judge';
import { bucketIn } from './lookback';
import { judge, type JobSeries, type TestHistory } from './rules';
import { loadLookback, runsOfJob, type FailureRun, type LookbackData, type TestRuns } from './testHistory';

/** A run that ran tests, so a cause could have taken it down. */
const ranTests = (r: RunInfo): boolean => r.testSetId !== null;

const cache = new Map<string, Map<number, JudgedVerdict>>();

/** The verdicts of the given signatures as causes, at `at`. */
export async function causeVerdictsAt(db: Database, at: number, signatureIds: number[], data?: LookbackData): Promise<Map<number, JudgedVerdict>> {
  const d = data ?? (await loadLookback(db, at));
  const key = `${db.url}|${at}|${d.version}`;
  let known = cache.get(key);
  if (!known) {
    if (cache.size >= 16) cache.delete(cache.keys().next().value!);
    cache.set(key, (known = new Map()));
  }
  const missing = signatureIds.filter((id) => !known!.has(id));
  if (missing.length) {
    const first = await selectIn<{ signature_id: number; first: number }>(db, (p) => `SELECT signature_id, MIN(started) AS first FROM test_outcome WHERE signature_id IN (${p}) GROUP BY signature_id`, missing);
    const firstSeen = new Map(first.map((r) => [r.signature_id, Number(r.first)]));
    for (const [id, { history, runs }] of causeHistories(d, missing, firstSeen)) {
      if (!runs.failures.length) continue;
      const { needs, ...v } = judge(history);
      if (needs) nameRuns(d, v, needs, runs, ranTests);
      known.set(id, v);
    }
  }
  const out = new Map<number, JudgedVerdict>();
  for (const id of signatureIds) {
    const v = known.get(id);
    if (v) out.set(id, v);
  }
  return out;
}

function causeHistories(d: LookbackData, signatureIds: number[], firstSeen: Map<number, number>): Map<number, { history: TestHistory; runs: TestRuns }> {
  const wanted = new Set(signatureIds);
  // per signature: the cause's outcome in each run it appeared in (1 took it down, 2 only flaked)
  const perRun = new Map<number, Map<number, number>>();
  const o = d.outcomes;
  for (let i = 0; i < o.length; i++) {
    const sig = o.signatureId[i];
    if (!wanted.has(sig)) continue;
    let runs = perRun.get(sig);
    if (!runs) perRun.set(sig, (runs = new Map()));
    const prev = runs.get(o.runId[i]);
    if (prev !== 1) runs.set(o.runId[i], o.outcome[i]);
  }
  // runs that ran tests, per job and bucket: the same denominators for every cause
  const n = d.lookback.buckets;
  const denominators = new Map<number, Float64Array>();
  for (const r of d.runs) {
    if (!ranTests(r)) continue;
    let a = denominators.get(r.jobId);
    if (!a) denominators.set(r.jobId, (a = new Float64Array(n)));
    a[bucketIn(d.lookback, r.started)]++;
  }
  const out = new Map<number, { history: TestHistory; runs: TestRuns }>();
  for (const sig of signatureIds) {
    const outcomeOf = perRun.get(sig) ?? new Map<number, number>();
    const failures: FailureRun[] = [...outcomeOf]
      .map(([runId, outcome]) => ({ run: d.runById[runId], outcome: outcome as 1 | 2 }))
      .filter((f) => f.run)
      .sort((a, b) => a.run.started - b.run.started || a.run.id - b.run.id);
    const perJob = new Map<number, { failed: Float64Array; flaked: Float64Array }>();
    for (const f of failures) {
      let s = perJob.get(f.run.jobId);
      if (!s) perJob.set(f.run.jobId, (s = { failed: new Float64Array(n), flaked: new Float64Array(n) }));
      (f.outcome === 1 ? s.failed : s.flaked)[bucketIn(d.lookback, f.run.started)]++;
    }
    // every job that ran tests, so the evidence also says where the cause never appeared
    const jobs: JobSeries[] = [];
    for (const jobId of denominators.keys()) {
      const s = perJob.get(jobId) ?? { failed: new Float64Array(n), flaked: new Float64Array(n) };
      const info = d.jobs.get(jobId);
      const latest: number[] = [];
      const list = runsOfJob(d, jobId);
      for (let i = list.length - 1; i >= 0 && latest.length < 10; i--) if (ranTests(list[i])) latest.push(outcomeOf.get(list[i].id) ?? 0);
      jobs.push({ job: info?.name ?? String(jobId), release: info?.release, platform: info?.platform, upgrade: info?.upgrade ?? false, runs: denominators.get(jobId) ?? new Float64Array(n), ...s, latest });
    }
    jobs.sort((x, y) => (x.job < y.job ? -1 : 1));
    const last = failures[failures.length - 1];
    let runsSince = 0;
    if (last) for (let i = d.runs.length - 1; i >= 0 && d.runs[i].started > last.run.started; i--) if (ranTests(d.runs[i])) runsSince++;
    out.set(sig, {
      history: {
        test: `signature ${sig}`,
        lookback: d.lookback,
        jobs,
        broken: { install: 0, mass: 0, failedTestsPerRun: [] },
        lastFailure: last && { started: last.run.started, runsSince },
        firstSeen: firstSeen.get(sig),
        sameConditionPairs: [],
      },
      runs: { testId: -1, failures, outcomeOf },
    });
  }
  return out;
}
