// Promotion-blocker status: each configured gate (blocked or not, why, its jobs' latest runs, failure
// streaks, pending runs, failing tests with verdicts and bugs, its 14-day timeline) and each release
// stream's latest and last accepted payload with the failed blocking jobs joined to their Prow runs.
// The CLI (`buildcop promotion`), /api/promotion, the /promotion page and the home banner call this.
import type { Config } from '../config';
import type { Database } from '../store/db';
import { pendingRunsOf } from '../store/pending';
import { bugsForTests, type BugRef } from '../bugs/refs';
import { decideGate, gateTimeline, jobStateAt, matchJobEntries, type GateRun } from '../promotion/rules';
import { blockingJobsOf, loadStreamTags, runsForUrls, streamView } from '../promotion/streams';
import { gateSummary, overallSummary, streamSummary } from '../promotion/text';
import { failingJobsOfStreak, rejectionStreak, tagTime } from '../promotion/streak';
import { failingTestsOfRuns, type RawFailingTest } from '../promotion/failingTests';
import type { Classification } from '../verdicts/verdict';
import { iso, parseAt, WINDOWS } from '../history/window';
import { verdictsAt } from '../verdicts/judge';
import type { FailingTest, PromotionGate, PromotionJob, PromotionStatus, ReleaseStreamStatus, RunSummary, StreamJob } from '../promotion/types';

export const TIMELINE_SECONDS = WINDOWS['14d'];

export interface PromotionOptions {
  /** Unix seconds */
  at: number;
  /** false: skip verdicts and bugs (the home banner only needs blocked or not) */
  verdicts?: boolean;
}

export function parsePromotionQuery(p: Record<string, string | undefined>, now = Date.now()): { at: number } {
  return { at: parseAt(p.at, now) };
}

interface LoadedRun extends GateRun {
  id: number;
  meta: string;
}

type RunRow = { id: number; build_id: string; state: string; started: number; finished: number | null; url: string; meta: string };

async function loadJob(db: Database, job: string, at: number, from: number): Promise<{ runs: LoadedRun[]; pending: GateRun[] }> {
  const toRun = (r: RunRow): LoadedRun => ({ ...r, job, buildId: r.build_id, finished: r.finished ?? r.started });
  const pending = (await pendingRunsOf(db, job, at)).map((p) => ({ job, buildId: p.buildId, state: 'pending', started: p.started, finished: null, url: p.url, listed: p.listed, lastListed: p.lastListed }));
  const jobRow = await db.get<{ id: number }>('SELECT id FROM job WHERE name = ?', [job]);
  if (!jobRow) return { runs: [], pending };
  const cols = 'id, build_id, state, started, finished, url, meta';
  const success = await db.get<{ started: number }>(
    `SELECT started FROM run WHERE job_id = ? AND state = 'success' AND COALESCE(finished, started) <= ? ORDER BY started DESC LIMIT 1`,
    [jobRow.id, at],
  );
  // Everything since the last success (for the streak) and everything finishing within the
  // timeline; a job that never succeeded is read back to its 5000 latest runs.
  const since = success ? success.started : Number.MIN_SAFE_INTEGER;
  const rows = await db.all<RunRow>(
    `SELECT ${cols} FROM run WHERE job_id = ? AND started <= ? AND (started >= ? OR COALESCE(finished, started) > ?) ORDER BY started DESC, id DESC LIMIT 5000`,
    [jobRow.id, at, since, from],
  );
  const before = await db.get<RunRow>(`SELECT ${cols} FROM run WHERE job_id = ? AND COALESCE(finished, started) <= ? ORDER BY started DESC, id DESC LIMIT 1`, [jobRow.id, from]);
  if (before && !rows.some((r) => r.id === before.id)) rows.push(before);
  return { runs: rows.map(toRun), pending };
}

const runSummary = (r: GateRun): RunSummary => ({ buildId: r.buildId, state: r.state, url: r.url, started: iso(r.started), finished: r.finished === null ? null : iso(r.finished) });

function promoteOf(meta: string): PromotionJob['promote'] {
  try {
    const p = (JSON.parse(meta) as { promote?: { candidate?: unknown; current?: unknown } }).promote;
    return p && typeof p.candidate === 'string' && typeof p.current === 'string' ? { candidate: p.candidate, current: p.current } : null;
  } catch {
    return null;
  }
}

interface GateWork {
  gate: PromotionGate;
  latestRunIds: Map<PromotionJob, number>;
}

async function buildGate(db: Database, gateConfig: NonNullable<Config['promotion']>[number], jobNames: string[], at: number): Promise<GateWork> {
  const from = at - TIMELINE_SECONDS;
  const blocking = matchJobEntries(gateConfig.blockingJobs, jobNames);
  const informing = matchJobEntries(gateConfig.informingJobs ?? [], jobNames);
  const jobs: PromotionJob[] = [];
  const latestRunIds = new Map<PromotionJob, number>();
  const decisionInput: { job: string; latest: GateRun | undefined }[] = [];
  const timelineRuns = new Map<string, GateRun[]>();
  const seen = new Set<string>();
  for (const [kind, matches] of [['blocking', blocking], ['informing', informing]] as const) {
    for (const m of matches) {
      if (!m.jobs.length) {
        const entry: PromotionJob = { job: m.entry, kind, entry: m.entry, latest: null, consecutiveFailures: 0, lastSuccess: null, pending: [], failingTests: [], promote: null, note: 'regex matched no job yet' };
        jobs.push(entry);
        if (kind === 'blocking') decisionInput.push({ job: m.entry, latest: undefined });
        continue;
      }
      for (const job of m.jobs) {
        if (seen.has(job)) continue;
        seen.add(job);
        const { runs, pending } = await loadJob(db, job, at, from);
        const state = jobStateAt(runs, pending, at);
        const latest = state.latest as LoadedRun | undefined;
        const entry: PromotionJob = {
          job,
          kind,
          entry: m.entry,
          latest: latest ? runSummary(latest) : null,
          consecutiveFailures: state.consecutiveFailures,
          lastSuccess: state.lastSuccess ? iso(state.lastSuccess.finished!) : null,
          pending: state.pending.map((p) => ({ buildId: p.buildId, url: p.url, started: iso(p.started), listed: p.listed ?? true, ...(p.lastListed ? { lastListed: iso(p.lastListed) } : {}) })),
          failingTests: [],
          promote: latest ? promoteOf(latest.meta) : null,
        };
        if (!latest) entry.note = 'no runs yet';
        else latestRunIds.set(entry, latest.id);
        jobs.push(entry);
        if (kind === 'blocking') {
          decisionInput.push({ job, latest });
          timelineRuns.set(job, runs);
        }
      }
    }
  }
  const decision = decideGate(decisionInput);
  const timeline = gateTimeline(timelineRuns, from, at).map((s) => ({ from: iso(s.from), to: iso(s.to), state: s.state, blocked: s.state === 'blocked', blockers: s.blockers }));
  return {
    gate: {
      name: gateConfig.name,
      blocked: decision.blocked,
      reason: decision.reason,
      summary: '',
      blockingJobs: gateConfig.blockingJobs,
      informingJobs: gateConfig.informingJobs ?? [],
      jobs,
      timeline,
    },
    latestRunIds,
  };
}

export async function promotionStatus(db: Database, config: Config | undefined, opts: PromotionOptions): Promise<PromotionStatus> {
  const { at } = opts;
  const jobNames = (await db.all<{ name: string }>('SELECT name FROM job UNION SELECT DISTINCT job AS name FROM pending_run')).map((r) => r.name);
  const work: GateWork[] = [];
  for (const g of config?.promotion ?? []) work.push(await buildGate(db, g, jobNames, at));

  // Release streams: the latest payload's blocking jobs and the rejected payloads' failed ones.
  const streams: ReleaseStreamStatus[] = [];
  const streamJobs: { job: StreamJob; url: string }[] = [];
  for (const name of config?.releaseController?.streams ?? []) {
    const tags = await loadStreamTags(db, name);
    const view = streamView(tags);
    const mk = ([jobName, v]: [string, { state: string; url: string }]): StreamJob => {
      const job: StreamJob = { name: jobName, state: v.state, url: v.url, run: null, failingTests: [] };
      streamJobs.push({ job, url: v.url });
      return job;
    };
    const rejected = view.rejectedSinceAccepted.map((t) => ({ tag: t.tag, phase: t.phase, failedBlockingJobs: blockingJobsOf(t.results, true).map(mk) }));
    const streak = rejectionStreak(tags);
    const inStreak = new Set(streak.rejected.map((t) => t.tag));
    const timeOf = (t: (typeof tags)[number] | undefined) => {
      const secs = t ? tagTime(t) : null;
      return secs === null ? null : iso(secs);
    };
    streams.push({
      name,
      fetchedAt: view.fetchedAt,
      tags: tags.length,
      latest: view.latest ? { tag: view.latest.tag, phase: view.latest.phase, pullSpec: view.latest.pullSpec } : null,
      lastAccepted: view.lastAccepted ? { tag: view.lastAccepted.tag } : null,
      blockingJobs: view.latest ? blockingJobsOf(view.latest.results).map(mk) : [],
      rejected,
      rejectedInARow: streak.rejected.length,
      rejectedSince: timeOf(streak.rejected.at(-1)),
      lastAcceptedAt: timeOf(streak.lastAccepted),
      failingBlockingJobs: failingJobsOfStreak(rejected.filter((r) => inStreak.has(r.tag)).map((r) => r.failedBlockingJobs)),
      summary: '',
    });
  }
  const joined = await runsForUrls(db, streamJobs.map((s) => s.url).filter(Boolean));
  const streamRunIds = new Map<StreamJob, number>();
  for (const { job, url } of streamJobs) {
    const run = joined.get(url);
    if (!run) continue;
    job.run = { job: run.job, buildId: run.buildId, state: run.state, url: run.url };
    if (run.runId !== null && job.state === 'Failed') streamRunIds.set(job, run.runId);
  }

  // Failing tests of every run shown, with verdicts and bugs from one hot-list query.
  const runIds = new Set<number>([...work.flatMap((w) => [...w.latestRunIds.values()]), ...streamRunIds.values()]);
  const failing = await failingTestsOfRuns(db, [...runIds], config?.ignoreTests);
  const all: RawFailingTest[] = [...failing.values()].flat();
  const verdicts = opts.verdicts === false ? new Map() : await attachVerdicts(db, at, all);
  const finish = (list: RawFailingTest[] | undefined): FailingTest[] =>
    (list ?? []).map((t) => {
      const v = (t.id && verdicts.get(t.id)) || undefined;
      return { test: t.test, id: t.id, classification: t.id ? (v?.classification ?? 'failing') : 'infra', bugs: v?.bugs ?? [] };
    });
  for (const w of work) for (const [job, runId] of w.latestRunIds) job.failingTests = finish(failing.get(runId));
  for (const [job, runId] of streamRunIds) job.failingTests = finish(failing.get(runId));

  const gates = work.map((w) => ({ ...w.gate, summary: gateSummary(w.gate) }));
  for (const s of streams) s.summary = streamSummary(s);
  return {
    at: iso(at),
    summary: overallSummary(gates, streams),
    blockedGates: gates.filter((g) => g.blocked).map((g) => g.name),
    rejectedStreams: streams.filter((s) => s.rejectedInARow > 0).map((s) => s.name),
    gates,
    releaseStreams: streams,
  };
}

/**
 * Each failing test's verdict at `at` (the hot list's and the test page's: one verdict per test at a
 * time) and its bugs; a test whose failing run is older than the verdict's lookback is judged at
 * that run instead.
 */
export async function attachVerdicts(db: Database, at: number, tests: RawFailingTest[]): Promise<Map<string, { classification: Classification; bugs: BugRef[] }>> {
  const out = new Map<string, { classification: Classification; bugs: BugRef[] }>();
  const withId = tests.filter((t): t is RawFailingTest & { id: string; testId: number } => !!t.id && t.testId !== undefined);
  const judged = await verdictsAt(db, at, [...new Set(withId.map((t) => t.testId))]);
  const classification = new Map<string, Classification>();
  for (const t of withId) {
    const v = judged.get(t.testId);
    if (v) classification.set(t.id, v.classification);
  }
  const older = new Map<number, (RawFailingTest & { id: string; testId: number })[]>();
  for (const t of withId) if (!classification.has(t.id) && t.runStarted <= at) older.set(t.runStarted, [...(older.get(t.runStarted) ?? []), t]);
  for (const [started, list] of [...older].slice(0, 10)) {
    const then = await verdictsAt(db, started + 1, list.map((t) => t.testId));
    for (const t of list) {
      const v = then.get(t.testId);
      if (v) classification.set(t.id, v.classification);
    }
  }
  const bugs = await bugsForTests(db, [...new Set(withId.map((t) => t.id))]);
  for (const t of withId) out.set(t.id, { classification: classification.get(t.id) ?? 'failing', bugs: bugs.get(t.id) ?? [] });
  return out;
}
