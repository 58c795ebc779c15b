// The promotion status in sentences a buildcop can paste into a channel:
// "machine-os-content 4.1 is blocked by <job>: failing T1 (flaky, bug 123), T2 (regression, no bug)".
import type { FailingTest, PromotionGate, PromotionJob, ReleaseStreamStatus, StreamJob } from './types';

export function describeTest(t: FailingTest): string {
  const bugs = t.bugs.length ? t.bugs.map((b) => `bug ${b.id}${b.recurred ? ' (closed, failing again)' : ''}`).join(', ') : 'no bug';
  return `${t.test} (${t.classification}, ${bugs})`;
}

/** At most `max` tests by name (a run where everything failed would not fit in a chat message). */
export function describeTests(tests: FailingTest[], max = 8): string {
  if (!tests.length) return 'no failing test recorded';
  const more = tests.length > max ? ` and ${tests.length - max} more` : '';
  return `failing ${tests.slice(0, max).map(describeTest).join(', ')}${more}`;
}

function streak(j: PromotionJob): string {
  const parts = [];
  if (j.consecutiveFailures > 1) parts.push(`${j.consecutiveFailures} runs in a row`);
  parts.push(j.lastSuccess ? `last success ${j.lastSuccess}` : 'no success yet');
  return parts.join(', ');
}

/** What a pending run Deck stopped listing unfinished adds to its mention: its result may never come. */
export function lostTrack(p: PromotionJob['pending'][number]): string {
  return p.listed ? '' : `; Deck stopped listing it${p.lastListed ? ` after ${p.lastListed}` : ''}, no result yet`;
}

function pendingText(jobs: PromotionJob[]): string {
  const pending = jobs.flatMap((j) => j.pending.map((p) => `${j.job} ${p.buildId} (started ${p.started}${lostTrack(p)})`));
  return pending.length ? `Pending: ${pending.join(', ')}.` : '';
}

/** Whether every failing test of the blockers is a known flake with a bug (then a retest may do). */
export function onlyKnownFlakes(blockers: PromotionJob[]): boolean {
  const tests = blockers.flatMap((j) => j.failingTests);
  return tests.length > 0 && tests.every((t) => t.classification === 'flaky' && t.bugs.length > 0);
}

export function gateSummary(g: PromotionGate): string {
  const blocking = g.jobs.filter((j) => j.kind === 'blocking');
  const pending = pendingText(blocking);
  if (!g.blocked) {
    const ok = blocking.filter((j) => j.latest);
    if (!ok.length) return `${g.name} is not blocked: ${g.reason}.${pending ? ` ${pending}` : ''}`;
    const latest = ok.map((j) => `${j.job} ${j.latest!.buildId} succeeded ${j.latest!.finished}`).join('; ');
    return `${g.name} is not blocked: ${latest}.${pending ? ` ${pending}` : ''}`;
  }
  const blockers = blocking.filter((j) => j.latest && j.latest.state !== 'success');
  const parts = blockers.map((j) => {
    const how = j.latest!.state === 'aborted' ? `its latest run ${j.latest!.buildId} was aborted (counts as not succeeded)` : describeTests(j.failingTests);
    return `${j.job} (${j.latest!.state}, ${streak(j)}): ${how}`;
  });
  const tests = blockers.flatMap((j) => j.failingTests);
  const noBug = tests.filter((t) => !t.bugs.length).length;
  let verdict = '';
  if (onlyKnownFlakes(blockers)) verdict = 'Looks like those are known flakes with bugs: a retest may get it through.';
  else if (noBug) verdict = `${noBug} of ${tests.length} failing tests have no bug yet.`;
  return [`${g.name} is blocked by ${parts.join('; ')}.`, pending, verdict].filter(Boolean).join(' ');
}

/** One blocking job of a payload, with its Prow run and that run's failing tests where ingested. */
function streamJobText(j: StreamJob): string {
  return `${j.name}${j.run ? ` (${j.run.job} ${j.run.buildId}${j.failingTests.length ? `: ${describeTests(j.failingTests)}` : ''})` : ' (run not ingested)'}`;
}

/** "4 payloads rejected in a row since T; none accepted since T' (tag)": why a stream blocks, or ''. */
export function rejectionText(s: ReleaseStreamStatus): string {
  if (!s.rejectedInARow) return '';
  const n = s.rejectedInARow;
  const since = s.rejectedSince ? ` since ${s.rejectedSince}` : '';
  const accepted = s.lastAccepted ? `none accepted since ${s.lastAcceptedAt ?? s.lastAccepted.tag}${s.lastAcceptedAt ? ` (${s.lastAccepted.tag})` : ''}` : 'no accepted payload listed';
  const jobs = s.failingBlockingJobs.map((j) => `${j.name} in ${j.payloads} of ${n}`);
  return `${n === 1 ? '1 payload rejected' : `${n} payloads rejected in a row`}${since}; ${accepted}${jobs.length ? `; failing blocking job${jobs.length > 1 ? 's' : ''} ${jobs.join(', ')}` : ''}`;
}

export function streamSummary(s: ReleaseStreamStatus): string {
  if (!s.latest) return `${s.name}: no payloads known yet (the release controller was not read).`;
  const failed = s.blockingJobs.filter((j) => j.state === 'Failed');
  const why = failed.length ? `, failed blocking job${failed.length > 1 ? 's' : ''} ${failed.map(streamJobText).join('; ')}` : '';
  const rejection = rejectionText(s);
  if (rejection) return `${s.name}: latest ${s.latest.tag} ${s.latest.phase}${why}; ${rejection}.`;
  const accepted = s.lastAccepted ? `last accepted ${s.lastAccepted.tag}` : 'no accepted payload listed';
  return `${s.name}: latest ${s.latest.tag} ${s.latest.phase}${why}; ${accepted}.`;
}

/** Every blocker at once: the blocking jobs of blocked gates and the release streams rejecting payloads. */
export function blockerNames(gates: PromotionGate[], streams: ReleaseStreamStatus[]): string[] {
  const jobs = gates.filter((g) => g.blocked).flatMap((g) => g.jobs.filter((j) => j.kind === 'blocking' && j.latest && j.latest.state !== 'success').map((j) => j.job));
  return [...new Set(jobs), ...streams.filter((s) => s.rejectedInARow > 0).map((s) => `release stream ${s.name}`)];
}

export function overallSummary(gates: PromotionGate[], streams: ReleaseStreamStatus[]): string {
  const blocked = gates.filter((g) => g.blocked);
  const rejected = streams.filter((s) => s.rejectedInARow > 0);
  const lines: string[] = [];
  if (!gates.length) lines.push('No promotion gates configured.');
  else if (blocked.length) lines.push(`Promotion blocked: ${blocked.map((g) => g.name).join(', ')}.`);
  else lines.push('No promotion gate is blocked.');
  if (rejected.length) lines.push(`Release stream${rejected.length > 1 ? 's' : ''} rejecting payloads: ${rejected.map((s) => `${s.name} (${rejectionText(s)})`).join('; ')}.`);
  for (const g of gates) lines.push(g.summary);
  const pending = gates.flatMap((g) => g.jobs.filter((j) => j.kind === 'blocking').flatMap((j) => j.pending.map((p) => `${j.job} ${p.buildId}${p.listed ? '' : ' (lost track)'}`)));
  if (gates.length) lines.push(pending.length ? `Pending promotion jobs are ${pending.join(', ')}.` : 'No promotion job is pending.');
  const blockers = blockerNames(gates, streams);
  if (blockers.length) {
    lines.push(blockers.length === 1 ? `Looks like ${blockers[0]} is the only blocker.` : `Blockers: ${blockers.join(', ')}.`);
  }
  for (const s of streams) lines.push(s.summary || streamSummary(s));
  return lines.join('\n');
}
