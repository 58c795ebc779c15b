// The release controller's view of a payload tag at a given time (openshift/release-controller
// APIReleaseInfo / VerificationJobsSummary). Shared by the replay server and truth.json.
import { rfc3339 } from './format';
import type { ReleaseJobRef, WorldReleaseStream, WorldReleaseTag, WorldRun } from './types';

export type JobState = 'Succeeded' | 'Failed' | 'Pending';
export type TagPhase = 'Ready' | 'Accepted' | 'Rejected';

export interface VerificationStatus {
  state: JobState;
  url: string;
  transitionTime?: string;
}

export type RunIndex = Map<string, WorldRun>;

export function runIndex(runs: WorldRun[]): RunIndex {
  return new Map(runs.map((r) => [`${r.job}/${r.buildId}`, r]));
}

function runOf(ref: ReleaseJobRef, runs: RunIndex): WorldRun | undefined {
  return ref.job && ref.buildId ? runs.get(`${ref.job}/${ref.buildId}`) : undefined;
}

export function verificationStatus(ref: ReleaseJobRef, runs: RunIndex, now: number, baseUrl: string): VerificationStatus {
  const run = runOf(ref, runs);
  if (!run || run.started > now) return { state: 'Pending', url: '' };
  const url = `${baseUrl}${run.urlPath}`;
  if (run.finished > now) return { state: 'Pending', url };
  return { state: run.state === 'success' ? 'Succeeded' : 'Failed', url, transitionTime: rfc3339(run.finished) };
}

export function tagPhase(tag: WorldReleaseTag, runs: RunIndex, now: number): TagPhase {
  const states = Object.values(tag.blockingJobs).map((ref) => verificationStatus(ref, runs, now, '').state);
  if (states.includes('Failed')) return 'Rejected';
  if (states.length > 0 && states.every((s) => s === 'Succeeded')) return 'Accepted';
  return 'Ready';
}

/** tags that exist at `now`, newest first (release-controller sorts by semantic version, descending) */
export function visibleTags(stream: WorldReleaseStream, now: number): WorldReleaseTag[] {
  return stream.tags.filter((t) => t.created <= now).sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

export function releaseInfo(tag: WorldReleaseTag, runs: RunIndex, now: number, baseUrl: string): Record<string, unknown> {
  const jobs = (m: Record<string, ReleaseJobRef>) => Object.fromEntries(Object.entries(m).map(([k, ref]) => [k, verificationStatus(ref, runs, now, baseUrl)]));
  const info: Record<string, unknown> = {
    name: tag.name,
    phase: tagPhase(tag, runs, now),
    results: { blockingJobs: jobs(tag.blockingJobs), informingJobs: jobs(tag.informingJobs) },
  };
  const done = (tag.upgradeRuns ?? []).map((ref) => runOf(ref, runs)).filter((r): r is WorldRun => !!r && r.finished <= now);
  if (tag.upgradesFrom && done.length) {
    const history = Object.fromEntries(
      done.map((r) => {
        const url = `${baseUrl}${r.urlPath}`;
        return [url, { state: r.state === 'success' ? 'Succeeded' : 'Failed', url }];
      }),
    );
    const success = done.filter((r) => r.state === 'success').length;
    info.upgradesTo = [{ From: tag.upgradesFrom, To: tag.name, Success: success, Failure: done.length - success, Total: done.length, History: history }];
  }
  return info;
}

export function apiTag(tag: WorldReleaseTag, runs: RunIndex, now: number): Record<string, string> {
  return { name: tag.name, phase: tagPhase(tag, runs, now), pullSpec: tag.pullSpec, downloadURL: tag.downloadURL };
}
