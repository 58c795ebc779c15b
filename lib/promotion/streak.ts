// A release stream blocked by rejections: the payloads rejected in a row at its head, since when,
// and since when none was accepted. Pure over the stored tags (lib/promotion/streams.ts).
import type { StoredReleaseTag } from './streams';

const REJECTED = new Set(['Rejected', 'Failed']);
const FINAL = new Set(['Accepted', 'Rejected', 'Failed']);

/** "4.2.0-0.nightly-2026-11-21-031937": nightly and CI payload names end in their creation time (UTC). */
const NAME_TIME = /(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})$/;

/**
 * When a payload was created, in Unix seconds: from its name where it says, else the earliest time
 * one of its verification jobs changed state (soon after), else null.
 */
export function tagTime(tag: Pick<StoredReleaseTag, 'tag' | 'results'>): number | null {
  const m = NAME_TIME.exec(tag.tag);
  if (m) {
    const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
    if (Number.isFinite(t)) return Math.floor(t / 1000);
  }
  const times = [...Object.values(tag.results.blockingJobs), ...Object.values(tag.results.informingJobs)]
    .map((j) => (j.transitionTime ? Date.parse(j.transitionTime) : NaN))
    .filter(Number.isFinite);
  return times.length ? Math.floor(Math.min(...times) / 1000) : null;
}

export interface RejectionStreak {
  /** the rejected (or failed) payloads in a row, newest first, from the newest decided one down */
  rejected: StoredReleaseTag[];
  lastAccepted: StoredReleaseTag | undefined;
}

/**
 * The newest payloads still being verified (Ready, Pending) are passed over: they decide nothing yet,
 * and the rejections below them still block. The streak ends at the first payload that is neither
 * rejected nor still undecided (accepted, or a phase of its own).
 */
export function rejectionStreak(tags: StoredReleaseTag[]): RejectionStreak {
  const sorted = [...tags].sort((a, b) => a.position - b.position);
  const lastAccepted = sorted.find((t) => t.phase === 'Accepted');
  const rejected: StoredReleaseTag[] = [];
  let i = 0;
  while (i < sorted.length && !FINAL.has(sorted[i].phase)) i++;
  for (; i < sorted.length && REJECTED.has(sorted[i].phase); i++) rejected.push(sorted[i]);
  return { rejected, lastAccepted };
}

export interface FailingJobCount<J> {
  name: string;
  /** how many payloads of the streak it failed */
  payloads: number;
  /** its failure in the newest of them */
  latest: J;
}

/** The blocking jobs that failed across the streak (newest payload first), most often failing first. */
export function failingJobsOfStreak<J extends { name: string }>(payloads: J[][]): FailingJobCount<J>[] {
  const byName = new Map<string, FailingJobCount<J>>();
  for (const jobs of payloads) {
    for (const j of jobs) {
      const e = byName.get(j.name);
      if (e) e.payloads++;
      else byName.set(j.name, { name: j.name, payloads: 1, latest: j });
    }
  }
  return [...byName.values()].sort((a, b) => b.payloads - a.payloads || (a.name < b.name ? -1 : 1));
}
