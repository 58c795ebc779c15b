// History beyond Deck's window (`ingest --since`): the builds of the GCS job folders that no pass has
// seen, found by listing only the build ids made within reach (Prow's ids are time-ordered and GCS
// lists in name order), and handed to the pass as runs to read like Deck's (ProwRun.fromGcs).
// Periodic and postsubmit builds are the folders of logs/<job>/; presubmits are named by the objects
// of pr-logs/directory/<job>/, each holding its build's gs:// folder.
import type { Config } from '../config';
import { isLiteralJobName } from '../analysis/promotionRules';
import { buildIdOf, buildIdTime, firstBuildIdAt, parseBuildAlias } from '../parse/buildFolders';
import { gcsLocationFromUrl, jobUrlFor } from '../parse/prowMetadata';
import type { GcsLocation, ProwRun } from '../parse/types';
import type { GcsClient } from '../sources/gcs';
import { HttpError } from '../sources/http';
import { readCursors, writeCursors, type Coverage } from '../store/backfillCursors';
import type { Database } from '../store/db';
import { storedBuildIds } from '../store/runs';
import type { Progress } from './progress';

/** A range of build id times to list, [from, to) in Unix seconds (to may be Infinity). */
export type IdRange = [from: number, to: number];

/**
 * The ranges of a job's build ids a pass lists: from the cutoff up to `deckFrom`, since when Deck's
 * listings have covered the job (or up to the present, `now`, for a job the pass does not take from
 * Deck), less what the cursor covers; and the job's coverage once they are listed (the cursor joined
 * where it reaches the cutoff: a coverage is one unbroken range).
 */
export function planJob(cursor: Coverage | undefined, cutoff: number, deckFrom: number | undefined, now: number): { ranges: IdRange[]; next: Coverage } {
  const upTo = deckFrom ?? Infinity;
  const end = Math.max(cutoff, deckFrom ?? now);
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

/** A job the backfill lists: where its builds are, and since when Deck's listings cover it. */
interface JobToList {
  job: string;
  bucket: string;
  type: string;
  deckFrom: number | undefined;
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

/** Jobs to backfill: those the pass takes from Deck (listed now, or stored), and the promotion gates' blocking jobs. */
async function jobsToList(o: BackfillOptions): Promise<JobToList[]> {
  const stored = await o.db.all<{ name: string; type: string; gcs_path: string | null }>(
    'SELECT j.name, j.type, (SELECT r.gcs_path FROM run r WHERE r.job_id = j.id ORDER BY r.id DESC LIMIT 1) AS gcs_path FROM job j',
  );
  const info = new Map<string, { type: string; bucket?: string }>();
  for (const s of stored) info.set(s.name, { type: s.type, bucket: s.gcs_path ? gcsLocationFromUrl(s.gcs_path)?.bucket : undefined });
  const buckets = new Map<string, number>();
  for (const r of o.deckRuns) {
    const bucket = gcsLocationFromUrl(r.url)?.bucket;
    if (bucket) buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
    info.set(r.job, { type: r.type || info.get(r.job)?.type || '', bucket: bucket ?? info.get(r.job)?.bucket });
  }
  // the bucket of most runs, for a job that has none of its own yet
  const usual = [...buckets].sort((a, b) => b[1] - a[1])[0]?.[0] ?? stored.map((s) => s.gcs_path && gcsLocationFromUrl(s.gcs_path)?.bucket).find(Boolean);
  const names = new Set([...info.keys()].filter(o.fromDeck));
  for (const entry of (o.config.promotion ?? []).flatMap((g) => g.blockingJobs)) {
    if (isLiteralJobName(entry)) names.add(entry);
    else {
      const re = new RegExp(entry);
      for (const name of info.keys()) if (re.test(name)) names.add(name);
    }
  }
  const jobs: JobToList[] = [];
  for (const job of [...names].sort()) {
    const bucket = info.get(job)?.bucket ?? usual;
    if (bucket) jobs.push({ job, bucket, type: info.get(job)?.type ?? '', deckFrom: undefined });
  }
  return jobs;
}

/** The folders where a job's builds are named: logs/ for periodics and postsubmits, the alias folder for presubmits and batches. */
function folderKinds(type: string): ('logs' | 'directory')[] {
  if (type === 'periodic' || type === 'postsubmit') return ['logs'];
  if (type === 'presubmit' || type === 'batch') return ['directory'];
  return ['logs', 'directory'];
}

const key = (job: string, buildId: string) => `${job}/${buildId}`;

/** A build found in a folder, before it is read. */
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
  for (const kind of folderKinds(j.type)) {
    const parent = kind === 'logs' ? `logs/${j.job}/` : `pr-logs/directory/${j.job}/`;
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
  const [jobs, cursors] = await Promise.all([jobsToList(o), readCursors(o.db)]);
  const plans = jobs.map((j) => {
    const deckFrom = o.fromDeck(j.job) ? (cursors.has(j.job) ? o.deckCoveredFrom : o.deckListedFrom) : undefined;
    return { j, ...planJob(cursors.get(j.job), o.cutoff, deckFrom, o.now) };
  });
  const toList = plans.filter((p) => p.ranges.length);
  const runs: ProwRun[] = [];
  const warnings: string[] = [];
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
  return { runs, jobs: toList.length, warnings, commit: () => writeCursors(o.db, listed) };
}
