// When runs happen: periodic cron with jitter, presubmits on a stream of PRs, promotion jobs a few
// times a day; plus the nightly payload tags and the repos' base commits the runs test.
import { INCIDENT, JOBS, PR_AUTHORS, RELEASE_ARTIFACTS, RELEASE_REGISTRY, STREAMS, type JobDef } from './catalog';
import { DAY, HOUR, buildIdFor, tagStamp } from './format';
import type { Rng } from './rng';
import type { WorldRefs } from './types';

export interface ScheduledRun {
  job: JobDef;
  type: JobDef['type'];
  /** the name at the time of the run (a renamed job's runs before the rename carry the old name) */
  name: string;
  seq: number;
  buildId: string;
  prowJobId: string;
  started: number;
  /** duration if the run gets through the tests; the simulation shortens it for install failures etc. */
  plannedSeconds: number;
  payload?: string;
  refs?: WorldRefs;
  /** promotion jobs: the digest under test */
  candidateDigest?: string;
}

export interface PayloadTag {
  stream: string;
  release: '4.1' | '4.2';
  name: string;
  created: number;
  pullSpec: string;
  downloadURL: string;
}

export interface Schedule {
  startUnix: number;
  endUnix: number;
  runs: ScheduledRun[];
  tags: Record<'4.1' | '4.2', PayloadTag[]>;
  regression: { changeAt: number; payloadBefore: string; payloadAfter: string; baseShaBefore: string; baseShaAfter: string };
  /** the intermittent 4.2 regression's payload change */
  intermittent: { changeAt: number; payloadBefore: string; payloadAfter: string };
  /** the mass failure's first 4.2 payload */
  incident: { startAt: number; payload: string };
  /** the fixed flake stops with runs started from here */
  flakeFixedAt: number;
  renamedJob: { from: string; to: string; at: number };
  baseCommits: Record<string, { at: number; sha: string }[]>;
}

function makeTags(rng: Rng, release: '4.1' | '4.2', startUnix: number, endUnix: number): PayloadTag[] {
  const times: number[] = [];
  // newest first, so the latest payload's verification runs have finished by `end`
  let t = endUnix - rng.range(8 * HOUR, 10 * HOUR);
  while (t > startUnix - 14 * HOUR) {
    times.push(Math.round(t));
    t -= rng.range(10.5 * HOUR, 13.5 * HOUR);
  }
  return times.reverse().map((created) => {
    const name = `${STREAMS[release].replace('.nightly', '')}.nightly-${tagStamp(created)}`;
    return { stream: STREAMS[release], release, name, created, pullSpec: `${RELEASE_REGISTRY}:${name}`, downloadURL: `${RELEASE_ARTIFACTS}/${name}` };
  });
}

function latestAt<T extends { created: number }>(items: T[], t: number): T | undefined {
  let found: T | undefined;
  for (const it of items) if (it.created <= t) found = it;
  return found;
}

function commitsFor(rng: Rng, startUnix: number, endUnix: number, forcedAt?: number): { at: number; sha: string }[] {
  const out: { at: number; sha: string }[] = [];
  let t = startUnix - DAY;
  while (t < endUnix) {
    out.push({ at: Math.round(t), sha: rng.hex(40) });
    t += rng.range(3 * HOUR, 9 * HOUR);
  }
  if (forcedAt !== undefined) {
    out.push({ at: forcedAt, sha: rng.hex(40) });
    out.sort((a, b) => a.at - b.at);
  }
  return out;
}

interface OpenPr {
  number: number;
  author: string;
  sha: string;
  until: number;
}

export function makeSchedule(rng: Rng, endUnix: number): Schedule {
  const startUnix = endUnix - 14 * DAY;
  const tags = {
    '4.1': makeTags(rng.fork('tags-4.1'), '4.1', startUnix, endUnix),
    '4.2': makeTags(rng.fork('tags-4.2'), '4.2', startUnix, endUnix),
  };
  // the regression arrives with the first 4.2 payload built ~10.5 days in
  const after = tags['4.2'].find((tg) => tg.created >= startUnix + 10.5 * DAY - 6 * HOUR)!;
  const before = tags['4.2'][tags['4.2'].indexOf(after) - 1];
  const changeAt = after.created;
  const intermittentAfter = tags['4.2'].find((tg) => tg.created >= startUnix + 9 * DAY - 6 * HOUR)!;
  const intermittentBefore = tags['4.2'][tags['4.2'].indexOf(intermittentAfter) - 1];
  const incident = tags['4.2'].find((tg) => tg.created >= endUnix - INCIDENT.startBeforeEndHours * HOUR)!;

  const commitRng = rng.fork('commits');
  const baseCommits: Record<string, { at: number; sha: string }[]> = {
    'openshift/origin': commitsFor(commitRng.fork('origin'), startUnix, endUnix, changeAt),
    'openshift/installer': commitsFor(commitRng.fork('installer'), startUnix, endUnix),
    'openshift/release': commitsFor(commitRng.fork('release'), startUnix, endUnix),
  };
  const originBefore = latestAt(baseCommits['openshift/origin'].map((c) => ({ ...c, created: c.at })), changeAt - 1)!;

  const planned: Omit<ScheduledRun, 'seq' | 'buildId' | 'prowJobId' | 'type'>[] = [];
  const renamed = JOBS.find((j) => j.formerName)!;
  for (const job of JOBS) {
    const jr = rng.fork(`job:${job.name}`);
    const duration = () => Math.round(jr.range(job.minutes[0], job.minutes[1]) * 60);
    const nameAt = (t: number) => (job.formerName && t < startUnix + (job.renameAtDay ?? 0) * DAY ? job.formerName : job.name);
    if (job.type === 'periodic') {
      const every = job.everyHours ? job.everyHours * HOUR : DAY / (job.perDay ?? 1);
      // promotion runs stop early enough that none is still running at `end`
      const stopAt = job.kind === 'promotion' ? endUnix - 2.5 * HOUR : endUnix;
      let t = startUnix + jr.range(0, every);
      while (t < stopAt) {
        const started = Math.round(t);
        const tag = latestAt(tags[job.release], started);
        planned.push({ job, name: nameAt(started), started, plannedSeconds: duration(), payload: tag?.name, candidateDigest: job.kind === 'promotion' ? jr.hex(64) : undefined });
        t += every + jr.range(-0.3 * HOUR, 0.3 * HOUR);
      }
    } else {
      const repoKey = `${job.org}/${job.repo}`;
      let prNumber = job.repo === 'origin' ? 23410 : 2481;
      const open: OpenPr[] = [];
      const gap = DAY / (job.perDay ?? 10);
      let t = startUnix + jr.range(0, gap);
      const times: number[] = [];
      while (t < endUnix) {
        times.push(Math.round(t));
        t += gap * jr.range(0.4, 1.6);
      }
      // one run certainly still pending at `end`
      if (job.repo === 'origin') times.push(endUnix - 25 * 60);
      for (const started of times) {
        for (let i = open.length - 1; i >= 0; i--) if (open[i].until < started) open.splice(i, 1);
        if (open.length === 0 || jr.chance(0.3)) {
          open.push({ number: prNumber, author: jr.pick(PR_AUTHORS), sha: jr.hex(40), until: started + jr.range(1, 3) * DAY });
          prNumber += jr.int(1, 9);
        }
        const pr = jr.pick(open);
        if (jr.chance(0.3)) pr.sha = jr.hex(40);
        const base = latestAt(baseCommits[repoKey].map((c) => ({ ...c, created: c.at })), started)!;
        planned.push({
          job,
          name: job.name,
          started,
          plannedSeconds: duration(),
          refs: { org: job.org!, repo: job.repo!, base_ref: 'master', base_sha: base.sha, pulls: [{ number: pr.number, author: pr.author, sha: pr.sha }] },
        });
      }
    }
  }
  planned.sort((a, b) => a.started - b.started || a.name.localeCompare(b.name));
  const idRng = rng.fork('ids');
  const runs: ScheduledRun[] = planned.map((p, seq) => ({ ...p, type: p.job.type, seq, buildId: buildIdFor(p.started, seq), prowJobId: idRng.uuid() }));
  return {
    startUnix,
    endUnix,
    runs,
    tags,
    regression: {
      changeAt,
      payloadBefore: before.name,
      payloadAfter: after.name,
      baseShaBefore: originBefore.sha,
      baseShaAfter: baseCommits['openshift/origin'].find((c) => c.at === changeAt)!.sha,
    },
    intermittent: { changeAt: intermittentAfter.created, payloadBefore: intermittentBefore.name, payloadAfter: intermittentAfter.name },
    incident: { startAt: incident.created, payload: incident.name },
    flakeFixedAt: Math.round(startUnix + 8.3 * DAY),
    renamedJob: { from: renamed.formerName!, to: renamed.name, at: startUnix + (renamed.renameAtDay ?? 0) * DAY },
    baseCommits,
  };
}
