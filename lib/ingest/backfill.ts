// History beyond Deck's window (`ingest --since`): the builds of the GCS job folders that no pass has
// seen, found by listing only the build ids made within reach (Prow's ids are time-ordered and GCS
// lists in name order), and handed to the pass as runs to read like Deck's (ProwRun.fromGcs).
// Periodic and postsubmit builds are the folders of logs/<job>/; presubmits are named by the objects
// of pr-logs/directory/<job>/, each holding its build's gs:// folder.
import type { Config } from '../config';
import { buildIdOf, buildIdTime, firstBuildIdAt, parseBuildAlias } from '../parse/buildFolders';
import { jobUrlFor } from '../parse/prowMetadata';
import type { GcsLocation, ProwRun } from '../parse/types';
import type { GcsClient } from '../sources/gcs';
import { HttpError } from '../sources/http';
import { backfillReach, readCursors, recordBackfillReach, writeCursors, type Coverage } from '../store/backfillCursors';
import type { Database } from '../store/db';
import { storedBuildIds } from '../store/runs';
import { JOB_FOLDERS, jobsToBackfill, type JobToList } from './backfillJobs';
import type { Progress } from './progress';

/** A range of build id times to list, [from, to) in Unix seconds (to may be Infinity). */
export type IdRange = [from: number, to: number];

/**
 * How long a build folder may stay empty after Prow made its id: it appears with the pod's first
 * upload (started.json), minutes later. The last hour before the present is listed again next pass.
 */
export const FOLDER_SETTLE_SECONDS = 3600;

/**
 * The ranges of a job's build ids a pass lists: from the cutoff up to `deckFrom`, since when Deck's
 * listings have covered the job (or up to the present, `now`, for a job the pass does not take from
 * Deck), less what the cursor covers; and the job's coverage once they are listed (the cursor joined
 * where it reaches the cutoff: a coverage is one unbroken range), short of the last hour (see
 * FOLDER_SETTLE_SECONDS).
 */
export function planJob(cursor: Coverage | undefined, cutoff: number, deckFrom: number | undefined, now: number): { ranges: IdRange[]; next: Coverage } {
  const upTo = deckFrom ?? Infinity;
  const end = Math.max(cutoff, Math.min(deckFrom ?? now, now - FOLDER_SETTLE_SECONDS));
  const ranges: IdRange[] = [];
  if (!cursor) ranges.push([cutoff, upTo]);
  else {
    if (cutoff < cursor.from) ranges.push([cutoff, Math.min(upTo, cursor.from)]);
    if (cursor.to < upTo) ranges.push([Math.max(cutoff, cursor.to), upTo]);
  }
  const joins = !!cursor && cursor.to >= cutoff && cursor.from <= end;
  return {
    ranges: ranges.filter(([from, to]) => from < to),
    next: joins ? { from: Math.min(cursor.from, cutoff), to: Math.max(cursor.to, end) } : { from: cutoff, to: end },
  };
}

export interface BackfillOptions {
  config: Config;
  db: Database;
  gcs: GcsClient;
  /** every run Deck lists, unfiltered */
  deckRuns: readonly ProwRun[];
  /** whether the pass takes a job's runs from Deck (prow.jobs) */
  fromDeck: (job: string) => boolean;
  /** since when Deck's listings have covered the jobs it takes (see deckCoveredFrom), and this listing's start */
  deckCoveredFrom: number;
  deckListedFrom: number;
  /** "job/build" of the runs the pass has already: Deck's and the pending ones */
  known: ReadonlySet<string>;
  /** names the Prow and the job filter (see backfillReach) */
  source: string;
  /** builds whose ids were made before this (Unix seconds) are not read */
  cutoff: number;
  now: number;
  progress: Progress;
}

export interface BackfillFound {
  runs: ProwRun[];
  /** jobs whose folders were listed */
  jobs: number;
  warnings: string[];
  /** Records what was listed: to be called once the pass has stored, or kept pending, every run found. */
  commit(): Promise<void>;
}

const key = (job: string, buildId: string) => `${job}/${buildId}`;

/** A build found in a folder, before it is read (its record comes from the folder). */
function foundRun(o: BackfillOptions, j: JobToList, buildId: string, made: number, loc: GcsLocation): ProwRun {
  return { job: j.job, buildId, type: j.type, state: 'pending', started: made, url: jobUrlFor(o.config.prow.url, loc), fromGcs: true };
}

/**
 * Lists one job's builds in `range` that the pass does not have, and reads each presubmit's alias.
 * Throws when a listing or an alias cannot be read. An alias that names no folder of its build is
 * left out, with a warning, and `complete` is false: the job is listed again by the next pass (an
 * alias written again, or a truncated download, is read then).
 */
async function listJob(o: BackfillOptions, j: JobToList, [from, to]: IdRange, warnings: string[]): Promise<{ runs: ProwRun[]; complete: boolean }> {
  const runs: ProwRun[] = [];
  let complete = true;
  for (const kind of j.kinds) {
    const parent = `${JOB_FOLDERS[kind]}${j.job}/`;
    const level = await o.gcs.listLevel(j.bucket, parent, { startOffset: parent + firstBuildIdAt(from), endOffset: to === Infinity ? undefined : parent + firstBuildIdAt(to) });
    const names = kind === 'logs' ? level.prefixes.map((p) => buildIdOf(parent, p, '/')) : level.objects.map((x) => buildIdOf(parent, x.name, '.txt'));
    // ids in name order but not within reach: a shorter (older) id can sort after the offset
    const inRange: string[] = [];
    for (const id of names) {
      const made = id === undefined ? undefined : buildIdTime(id);
      if (made !== undefined && made >= from && made < to && !o.known.has(key(j.job, id!))) inRange.push(id!);
    }
    const stored = await storedBuildIds(o.db, j.job, inRange);
    const wanted = inRange.filter((id) => !stored.has(id));
    if (kind === 'logs') {
      for (const id of wanted) runs.push(foundRun(o, j, id, buildIdTime(id)!, { bucket: j.bucket, path: `${parent}${id}` }));
      continue;
    }
    const bad: string[] = [];
    await Promise.all(
      wanted.map(async (id) => {
        const alias = `${parent}${id}.txt`;
        let text: string;
        try {
          text = (await o.gcs.download(j.bucket, alias)).toString('utf8');
        } catch (e) {
          if (e instanceof HttpError && e.status === 404) return void bad.push(`${alias}: gone since it was listed`);
          throw new Error(`gs://${j.bucket}/${alias}: ${(e as Error).message}`);
        }
        try {
          runs.push(foundRun(o, j, id, buildIdTime(id)!, parseBuildAlias(text, id)));
        } catch (e) {
          bad.push(`${alias}: ${(e as Error).message}`);
        }
      }),
    );
    if (bad.length) {
      complete = false;
      bad.sort();
      warnings.push(`backfill: ${bad.length} of the builds of ${j.job} in gs://${j.bucket}/${parent} name no build folder, left out (listed again by the next pass): ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? '; ...' : ''}`);
    }
  }
  return { runs, complete };
}

/** Jobs listed at once (each a few listing pages, and the presubmits' aliases). */
const JOBS_IN_FLIGHT = 8;

/**
 * The builds within reach (ids made since `cutoff`) that no pass has listed, of every job to
 * backfill, as runs to read. A job whose folder cannot be listed is reported and left for a later
 * pass; the others go on.
 */
export async function findBackfillRuns(o: BackfillOptions): Promise<BackfillFound> {
  const warnings: string[] = [];
  const [cursors, reach] = await Promise.all([readCursors(o.db), backfillReach(o.db, o.source)]);
  const discover = reach === undefined || o.cutoff < reach;
  const { jobs, discovered } = await jobsToBackfill({ ...o, listedBefore: cursors.keys(), discover }, warnings);
  const plans = jobs.map((j) => {
    const deckFrom = o.fromDeck(j.job) ? (cursors.has(j.job) ? o.deckCoveredFrom : o.deckListedFrom) : undefined;
    return { j, ...planJob(cursors.get(j.job), o.cutoff, deckFrom, o.now) };
  });
  const toList = plans.filter((p) => p.ranges.length);
  const runs: ProwRun[] = [];
  const listed = new Map<string, Coverage>();
  o.progress.start(toList.length, 'jobs', 'to list for the backfill');
  let next = 0;
  const worker = async () => {
    for (let p = toList[next++]; p; p = toList[next++]) {
      try {
        const found: ProwRun[] = [];
        let complete = true;
        for (const range of p.ranges) {
          const r = await listJob(o, p.j, range, warnings);
          found.push(...r.runs);
          complete &&= r.complete;
        }
        runs.push(...found);
        if (complete) listed.set(p.j.job, p.next);
      } catch (e) {
        warnings.push(`backfill: ${p.j.job}: ${(e as Error).message} (listed again by the next pass)`);
      }
      o.progress.tick(p.j.job);
    }
  };
  await Promise.all(Array.from({ length: JOBS_IN_FLIGHT }, worker));
  o.progress.done();
  const commit = async () => {
    await writeCursors(o.db, listed);
    if (discovered) await recordBackfillReach(o.db, o.source, Math.min(reach ?? o.cutoff, o.cutoff));
  };
  return { runs, jobs: toList.length, warnings, commit };
}
