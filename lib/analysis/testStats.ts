// Per-test numbers over a loaded window: runs that executed the test (from the shared test sets),
// failures and flakes (from outcome rows), per bucket and per job; and the verdict inputs.
import { setHas } from '../store/testSets';
import { bucketOf } from './window';
import type { FailedRun, RunRef, VerdictInput } from './verdict';
import type { LoadedWindow, RunInfo } from './windowData';

export interface JobCounts {
  runs: number;
  failed: number;
  flaked: number;
}

export interface TestAggregate {
  testId: number;
  runsPerBucket: Float64Array;
  failedPerBucket: Float64Array;
  flakedPerBucket: Float64Array;
  /** window only */
  perJob: Map<number, JobCounts>;
  windowRuns: number;
  windowFailed: number;
  windowFlaked: number;
  prevRuns: number;
  prevFailed: number;
  prevFlaked: number;
  /** window runs where it failed / flaked, in start order */
  failedRuns: RunInfo[];
  flakedRuns: RunInfo[];
  /** both windows: failed runs (for the change point's first failing run) */
  allFailedRuns: RunInfo[];
  /** window: signature id -> occurrences */
  signatures: Map<number, number>;
}

/** Aggregates for the tests that failed or flaked in the window (or for `only`, when given). */
export function aggregateTests(w: LoadedWindow, only?: Set<number>): Map<number, TestAggregate> {
  const { span } = w;
  const windowStart = Math.round((span.from - span.prevFrom) / span.bucketSeconds);
  const aggs = new Map<number, TestAggregate>();
  const make = (testId: number): TestAggregate => ({
    testId,
    runsPerBucket: new Float64Array(span.buckets),
    failedPerBucket: new Float64Array(span.buckets),
    flakedPerBucket: new Float64Array(span.buckets),
    perJob: new Map(),
    windowRuns: 0, windowFailed: 0, windowFlaked: 0, prevRuns: 0, prevFailed: 0, prevFlaked: 0,
    failedRuns: [], flakedRuns: [], allFailedRuns: [],
    signatures: new Map(),
  });
  if (only) for (const id of only) aggs.set(id, make(id));
  else {
    for (const o of w.outcomes) {
      if (!aggs.has(o.testId) && w.runById.get(o.runId)!.started >= span.from) aggs.set(o.testId, make(o.testId));
    }
  }
  const jobCounts = (a: TestAggregate, jobId: number) => {
    let c = a.perJob.get(jobId);
    if (!c) a.perJob.set(jobId, (c = { runs: 0, failed: 0, flaked: 0 }));
    return c;
  };

  for (const o of w.outcomes) {
    const a = aggs.get(o.testId);
    if (!a) continue;
    const run = w.runById.get(o.runId)!;
    const b = bucketOf(span, run.started);
    const inWindow = b >= windowStart;
    if (o.outcome === 1) {
      a.failedPerBucket[b]++;
      a.allFailedRuns.push(run);
      if (inWindow) {
        a.windowFailed++;
        a.failedRuns.push(run);
        jobCounts(a, run.jobId).failed++;
      } else a.prevFailed++;
    } else {
      a.flakedPerBucket[b]++;
      if (inWindow) {
        a.windowFlaked++;
        a.flakedRuns.push(run);
        jobCounts(a, run.jobId).flaked++;
      } else a.prevFlaked++;
    }
    if (inWindow && o.signatureId !== null) a.signatures.set(o.signatureId, (a.signatures.get(o.signatureId) ?? 0) + 1);
  }

  // Runs that executed each test: count runs per (set, bucket, job) once, then walk each set's
  // members once. Cost is the total size of the distinct sets, not runs x tests.
  const perSet = new Map<number, Map<number, number>>();
  const J = 1 << 20;
  for (const run of w.runs) {
    if (run.testSetId === null) continue;
    let m = perSet.get(run.testSetId);
    if (!m) perSet.set(run.testSetId, (m = new Map()));
    const k = bucketOf(span, run.started) * J + run.jobId;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  let maxId = 0;
  for (const id of aggs.keys()) if (id > maxId) maxId = id;
  const wanted = new Uint8Array(maxId + 1);
  for (const id of aggs.keys()) wanted[id] = 1;
  for (const [setId, cells] of perSet) {
    const members = w.sets.get(setId);
    if (!members) continue;
    const entries = [...cells];
    for (let i = 0; i < members.length; i++) {
      const t = members[i];
      if (t > maxId || !wanted[t]) continue;
      const a = aggs.get(t)!;
      for (const [k, count] of entries) {
        const b = Math.floor(k / J);
        a.runsPerBucket[b] += count;
        if (b >= windowStart) {
          a.windowRuns += count;
          jobCounts(a, k % J).runs += count;
        } else a.prevRuns += count;
      }
    }
  }
  for (const a of aggs.values()) {
    a.failedRuns.sort(byStart);
    a.flakedRuns.sort(byStart);
    a.allFailedRuns.sort(byStart);
  }
  return aggs;
}

const byStart = (x: RunInfo, y: RunInfo) => x.started - y.started || x.id - y.id;

export function runRef(w: LoadedWindow, r: RunInfo): RunRef {
  return { job: w.jobs.get(r.jobId)?.name ?? '', buildId: r.buildId, url: r.url, started: r.started, payload: r.payload, commit: r.commit };
}

/** Groups of runs that tested the same thing: same job and payload, or same job and commit. */
export class SameConditionIndex {
  private groups = new Map<string, RunInfo[]>();
  constructor(private w: LoadedWindow) {
    for (const r of w.runs) {
      if (r.started < w.span.from) continue;
      if (r.payload) this.add(`p|${r.jobId}|${r.payload}`, r);
      else if (r.commit) this.add(`c|${r.jobId}|${r.commit}`, r);
    }
  }
  private add(k: string, r: RunInfo) {
    let g = this.groups.get(k);
    if (!g) this.groups.set(k, (g = []));
    g.push(r);
  }
  /** Failed runs of the test paired with a run of the same job and payload/commit where it passed. */
  pairs(testId: number, a: TestAggregate, limit = 20): VerdictInput['sameConditionPairs'] {
    const notPassed = new Set([...a.failedRuns, ...a.flakedRuns].map((r) => r.id));
    const out: VerdictInput['sameConditionPairs'] = [];
    for (const f of a.failedRuns) {
      const on = f.payload ? 'payload' : 'commit';
      const value = f.payload || f.commit;
      if (!value) continue;
      const g = this.groups.get(`${on[0]}|${f.jobId}|${value}`) ?? [];
      const passed = g.find((r) => !notPassed.has(r.id) && r.testSetId !== null && setHas(this.w.sets.get(r.testSetId) ?? new Int32Array(), testId));
      if (passed) {
        out.push({ job: this.w.jobs.get(f.jobId)?.name ?? '', on, value, failed: f.buildId, passed: passed.buildId });
        if (out.length >= limit) break;
      }
    }
    return out;
  }
}

export function verdictInput(w: LoadedWindow, name: string, a: TestAggregate, same: SameConditionIndex): VerdictInput {
  const { span } = w;
  const failedRuns: FailedRun[] = a.failedRuns.map((r) => ({ ...runRef(w, r), installFailed: r.installFailed, failedTests: r.failed }));
  return {
    test: name,
    bucketStarts: Array.from({ length: span.buckets }, (_, i) => span.prevFrom + i * span.bucketSeconds),
    runsPerBucket: a.runsPerBucket,
    failedPerBucket: a.failedPerBucket,
    windowStartBucket: Math.round((span.from - span.prevFrom) / span.bucketSeconds),
    perJob: [...a.perJob].map(([jobId, c]) => ({ job: w.jobs.get(jobId)?.name ?? String(jobId), ...c })),
    failedRuns,
    flakedRuns: a.windowFlaked,
    previousFlakedRuns: a.prevFlaked,
    sameConditionPairs: same.pairs(a.testId, a),
  };
}

/** The run of the same job just before `run` that executed the test. */
export function previousRunOfJob(w: LoadedWindow, run: RunInfo, testId: number): RunInfo | undefined {
  let best: RunInfo | undefined;
  for (const r of w.runs) {
    if (r.jobId !== run.jobId || r.started >= run.started) continue;
    if (r.testSetId === null || !setHas(w.sets.get(r.testSetId) ?? new Int32Array(), testId)) continue;
    if (!best || r.started > best.started) best = r;
  }
  return best;
}
