// The promotion-gate rules on plain data: which jobs a gate's entries name, each job's latest
// finished run and failure streak, whether the gate is blocked and why, and its blocked/unblocked
// timeline. lib/answers/promotion.ts loads the data and calls these.
import { compileRegex, type UserPattern } from '../patterns';

/** A run of a gate job as the rules see it. Times are Unix seconds; finished is null while running. */
export interface GateRun {
  job: string;
  buildId: string;
  /** success | failure | error | aborted (pending while running) */
  state: string;
  started: number;
  finished: number | null;
  url: string;
  /** a pending run: Deck listed it in the latest pass (false: it stopped listing it unfinished) */
  listed?: boolean;
  /** a pending run: when Deck last listed it */
  lastListed?: number;
}

export interface JobMatch {
  /** the configuration entry (a job name or a regex) */
  entry: string;
  /** true when the entry is used as a regex (it has characters a job name never has) */
  pattern: boolean;
  /** the jobs it names: a literal name names itself even before it has runs */
  jobs: string[];
}

/** Job names are letters, digits and - _ . / ; an entry with anything else is a regex. */
export function isLiteralJobName(entry: string): boolean {
  return /^[A-Za-z0-9_.\-/]+$/.test(entry);
}

/** Resolves configuration entries against the known job names (regexes search, unanchored). */
export function matchJobEntries(entries: string[], jobNames: Iterable<string>): JobMatch[] {
  const names = [...new Set(jobNames)].sort();
  return entries.map((entry) => {
    if (isLiteralJobName(entry)) return { entry, pattern: false, jobs: [entry] };
    let re: UserPattern;
    try {
      re = compileRegex(entry, 'promotion job');
    } catch {
      return { entry, pattern: true, jobs: [] };
    }
    return { entry, pattern: true, jobs: names.filter((n) => re.test(n)) };
  });
}

const byStartDesc = (a: GateRun, b: GateRun) => b.started - a.started || (a.buildId < b.buildId ? 1 : a.buildId > b.buildId ? -1 : 0);

const finishedBy = (r: GateRun, at: number) => r.finished !== null && r.finished <= at && r.state !== 'pending';

/** The latest run (by start) among those finished by `at`. */
export function latestFinished(runs: GateRun[], at: number): GateRun | undefined {
  let best: GateRun | undefined;
  for (const r of runs) if (finishedBy(r, at) && (!best || byStartDesc(r, best) < 0)) best = r;
  return best;
}

export interface JobState {
  latest: GateRun | undefined;
  /** finished runs since the last success that did not succeed (failure, error, aborted) */
  consecutiveFailures: number;
  lastSuccess: GateRun | undefined;
  /** runs started by `at` and not finished by then */
  pending: GateRun[];
}

/**
 * One job's state at `at`. `runs` must hold every finished run since the job's last success (or all
 * of them when it never succeeded); `pendingRuns` are runs known to be unfinished now.
 */
export function jobStateAt(runs: GateRun[], pendingRuns: GateRun[], at: number): JobState {
  const done = runs.filter((r) => finishedBy(r, at)).sort(byStartDesc);
  let consecutiveFailures = 0;
  let lastSuccess: GateRun | undefined;
  for (const r of done) {
    if (r.state === 'success') {
      lastSuccess = r;
      break;
    }
    consecutiveFailures++;
  }
  const pending = new Map<string, GateRun>();
  for (const r of [...runs, ...pendingRuns]) {
    if (r.started <= at && !finishedBy(r, at) && !pending.has(r.buildId)) pending.set(r.buildId, r);
  }
  return { latest: done[0], consecutiveFailures, lastSuccess, pending: [...pending.values()].sort(byStartDesc) };
}

export interface GateDecision {
  blocked: boolean;
  /** why, in words a buildcop can paste */
  reason: string;
  /** the blocking jobs whose latest finished run did not succeed */
  blockers: string[];
  noRuns: boolean;
}

function notSucceeded(r: GateRun): string {
  if (r.state === 'aborted') return `was aborted (an aborted run counts as not succeeded)`;
  if (r.state === 'error') return 'ended in an error';
  return r.state === 'failure' ? 'failed' : `ended "${r.state}"`;
}

/**
 * A gate is blocked when the latest finished run of any blocking job did not succeed. A newer run
 * still pending does not unblock it; a gate whose blocking jobs have no finished run is not blocked.
 */
export function decideGate(blocking: { job: string; latest: GateRun | undefined }[]): GateDecision {
  const withRuns = blocking.filter((b) => b.latest);
  const without = blocking.filter((b) => !b.latest).map((b) => b.job);
  if (!withRuns.length) {
    return { blocked: false, reason: without.length ? `no runs yet of ${without.join(', ')}` : 'no runs yet: no blocking job configured or matched', blockers: [], noRuns: true };
  }
  const failing = withRuns.filter((b) => b.latest!.state !== 'success');
  const noRunsNote = without.length ? `; no runs yet of ${without.join(', ')}` : '';
  if (!failing.length) return { blocked: false, reason: `the latest run of every blocking job succeeded${noRunsNote}`, blockers: [], noRuns: false };
  const parts = failing.map((b) => `the latest run of ${b.job} (${b.latest!.buildId}) ${notSucceeded(b.latest!)}`);
  return { blocked: true, reason: parts.join('; ') + noRunsNote, blockers: failing.map((b) => b.job), noRuns: false };
}

export interface TimelineSegment {
  from: number;
  to: number;
  /** blocked | unblocked | no-runs */
  state: 'blocked' | 'unblocked' | 'no-runs';
  /** when blocked: the blocking jobs' runs that blocked it as the segment began */
  blockers: { job: string; buildId: string; state: string }[];
}

/**
 * The gate's state over [from, to]: a new segment at each finished run that flips it. `runsByJob`
 * holds each blocking job's runs finished by `to`, including the latest one finished by `from`.
 */
export function gateTimeline(runsByJob: Map<string, GateRun[]>, from: number, to: number): TimelineSegment[] {
  const latest = new Map<string, GateRun | undefined>();
  for (const [job, runs] of runsByJob) latest.set(job, latestFinished(runs, from));
  const stateNow = (): Pick<TimelineSegment, 'state' | 'blockers'> => {
    const d = decideGate([...latest].map(([job, l]) => ({ job, latest: l })));
    if (d.noRuns) return { state: 'no-runs', blockers: [] };
    if (!d.blocked) return { state: 'unblocked', blockers: [] };
    return { state: 'blocked', blockers: d.blockers.map((job) => ({ job, buildId: latest.get(job)!.buildId, state: latest.get(job)!.state })) };
  };
  const events = [...runsByJob.values()]
    .flat()
    .filter((r) => finishedBy(r, to) && r.finished! > from)
    .sort((a, b) => a.finished! - b.finished! || a.started - b.started);
  const segments: TimelineSegment[] = [{ from, to, ...stateNow() }];
  for (const r of events) {
    const cur = latest.get(r.job);
    if (cur && byStartDesc(r, cur) > 0) continue; // finished late, but an older run than the latest
    latest.set(r.job, r);
    const next = stateNow();
    const last = segments[segments.length - 1];
    if (next.state === last.state) continue;
    if (r.finished! === last.from) segments.pop();
    else last.to = r.finished!;
    const prev = segments[segments.length - 1];
    if (prev && prev.state === next.state) prev.to = to;
    else segments.push({ from: r.finished!, to, ...next });
  }
  return segments;
}
