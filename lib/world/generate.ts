// Entry point of the sample-world generator: 14 days of Prow CI history ending at `end`, written in
// the real services' file shapes so ingest can be tested offline (through lib/replay). Deterministic
// for the same (end, seed): every random choice comes from a seeded PRNG, no clock is read.
import fs from 'node:fs';
import path from 'node:path';
import { BUCKET, PROMOTION_GATES, REPLAY_PLACEHOLDER, STREAMS } from './catalog';
import { ObjectWriter, deckJobsFile, worldRunFor, writeGathered, writeRunArtifacts } from './artifacts';
import { Rng } from './rng';
import { simulate } from './runs';
import { makeSchedule } from './schedule';
import { makeReleaseStreams, makeTrackers } from './trackers';
import { computeTruth } from './truth';
import { WORLD_GENERATOR_VERSION, type WorldManifest, type WorldObject } from './types';

export const DEFAULT_WORLD_SEED = 20191120;

export interface GenerateWorldOptions {
  dir: string;
  end: Date;
  seed?: number;
  /** openshift-tests suites of this many tests (`world --tests N`): generated ones added to the catalog */
  tests?: number;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function lastEvent(created: number, statuses: { at: number }[], comments: { at: number }[], closed?: number): number {
  return Math.max(created, ...statuses.map((s) => s.at), ...comments.map((c) => c.at), closed ?? created);
}

function writeFile(root: string, rel: string, text: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** buildcop.config.json with "http://REPLAY" where the replay server's URL goes */
export function configTemplate(): Record<string, unknown> {
  return {
    prow: { url: REPLAY_PLACEHOLDER },
    gcs: { url: REPLAY_PLACEHOLDER },
    bugzilla: { url: REPLAY_PLACEHOLDER },
    jira: { url: REPLAY_PLACEHOLDER },
    github: { url: REPLAY_PLACEHOLDER, repos: ['kubernetes/kubernetes'] },
    releaseController: { url: REPLAY_PLACEHOLDER, streams: [STREAMS['4.1'], STREAMS['4.2']] },
    promotion: PROMOTION_GATES.map((g) => ({ name: g.name, blockingJobs: g.blockingJobs, informingJobs: g.informingJobs })),
  };
}

export async function generateWorld(opts: GenerateWorldOptions): Promise<WorldManifest> {
  const seed = opts.seed ?? DEFAULT_WORLD_SEED;
  const endUnix = Math.floor(opts.end.getTime() / 1000);
  if (!Number.isFinite(endUnix)) throw new Error(`generateWorld: invalid end ${String(opts.end)}`);
  const root = opts.dir;
  fs.mkdirSync(root, { recursive: true });
  const rng = new Rng(`world:${seed}:${endUnix}`);

  const schedule = makeSchedule(rng.fork('schedule'), endUnix);
  const sim = simulate(schedule, rng.fork('simulate'), opts.tests);

  const writer = new ObjectWriter(root);
  const extraObjects: WorldObject[] = [];
  const worldRuns = sim.runs.map(worldRunFor);
  for (const [i, run] of sim.runs.entries()) extraObjects.push(...writeRunArtifacts(run, worldRuns[i], writer));

  const trackers = makeTrackers(schedule, sim);
  const streams = makeReleaseStreams(schedule, sim);
  const files = {
    bugzilla: 'bugzilla/bugs.json',
    jira: 'jira/issues.json',
    github: Object.fromEntries(Object.keys(trackers.github).map((repo) => [repo, `github/${repo}/issues.json`])),
    deckJobs: 'deck/jobs.json',
    truth: 'truth.json',
  };
  writeFile(root, files.bugzilla, json({ bugs: trackers.bugzilla }));
  writeFile(root, files.jira, json({ issues: trackers.jira }));
  for (const [repo, rel] of Object.entries(files.github)) writeFile(root, rel, json({ issues: trackers.github[repo] }));
  writeFile(root, files.deckJobs, deckJobsFile(worldRuns));
  writeFile(root, 'release-controller/streams.json', json({ streams }));

  const manifest: WorldManifest = {
    generatorVersion: WORLD_GENERATOR_VERSION,
    seed,
    ...(opts.tests !== undefined ? { tests: opts.tests } : {}),
    end: new Date(endUnix * 1000).toISOString(),
    endUnix,
    startUnix: schedule.startUnix,
    bucket: BUCKET,
    runs: worldRuns,
    extraObjects: extraObjects.sort((a, b) => (a.name < b.name ? -1 : 1)),
    gathered: writeGathered(writer),
    releaseStreams: streams,
    bugs: [
      ...trackers.bugzilla.map((b) => ({ tracker: 'bugzilla' as const, id: String(b.id), created: b.created, lastChange: lastEvent(b.created, b.statuses, b.comments) })),
      ...trackers.jira.map((i) => ({ tracker: 'jira' as const, id: i.key, created: i.created, lastChange: lastEvent(i.created, i.statuses, i.comments) })),
      ...Object.entries(trackers.github).flatMap(([repo, issues]) =>
        issues.map((i) => ({ tracker: 'github' as const, id: `${repo}#${i.number}`, created: i.created, lastChange: lastEvent(i.created, [], i.comments, i.closed) })),
      ),
    ],
    files,
  };
  const truth = computeTruth(schedule, sim, worldRuns, trackers, streams);
  writeFile(root, files.truth, json(truth));
  writeFile(root, 'buildcop.config.json.template', json(configTemplate()));
  // world.json last: its presence marks a complete world
  writeFile(root, 'world.json', JSON.stringify(manifest));
  return manifest;
}
