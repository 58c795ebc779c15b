// Which jobs the backfill lists, and where: the jobs the pass takes from Deck (listed now, stored
// before, or listed by an earlier backfill) and the promotion gates' blocking jobs; and, when the
// backfill reaches further back than any before, the job folders GCS holds (a job Deck no longer
// lists, a job renamed: their history is only there).
import { isLiteralJobName } from '../promotion/rules';
import type { Config } from '../config';
import { gcsLocationFromUrl } from '../parse/prowMetadata';
import type { ProwRun } from '../parse/types';
import type { GcsClient } from '../sources/gcs';
import type { Database } from '../store/db';

/** Where a job's builds are named: folders under logs/<job>/ (periodic, postsubmit), aliases under pr-logs/directory/<job>/ (presubmit, batch). */
export type FolderKind = 'logs' | 'directory';
export const JOB_FOLDERS: Record<FolderKind, string> = { logs: 'logs/', directory: 'pr-logs/directory/' };

export interface JobToList {
  job: string;
  bucket: string;
  /** as Deck or a stored run says ('' when unknown) */
  type: string;
  kinds: FolderKind[];
}

function kindsOf(type: string): FolderKind[] {
  if (type === 'periodic' || type === 'postsubmit') return ['logs'];
  if (type === 'presubmit' || type === 'batch') return ['directory'];
  return ['logs', 'directory'];
}

export interface JobsQuery {
  config: Config;
  db: Database;
  gcs: GcsClient;
  /** every run Deck lists, unfiltered */
  deckRuns: readonly ProwRun[];
  /** whether the pass takes a job's runs from Deck (prow.jobs) */
  fromDeck: (job: string) => boolean;
  /** jobs an earlier backfill listed */
  listedBefore: Iterable<string>;
  /** also look through the job folders of GCS */
  discover: boolean;
}

/** A job's type and bucket as known, and where GCS holds its folders when looked through. */
type JobInfo = { type: string; bucket?: string; found: Set<FolderKind> };

/**
 * The jobs to backfill, each with its bucket and folders; `discovered` when GCS's job folders were
 * looked through (a warning instead when they could not be listed).
 */
export async function jobsToBackfill(q: JobsQuery, warnings: string[]): Promise<{ jobs: JobToList[]; discovered: boolean }> {
  const info = new Map<string, JobInfo>();
  const of = (job: string) => info.get(job) ?? info.set(job, { type: '', found: new Set() }).get(job)!;
  const stored = await q.db.all<{ name: string; type: string; gcs_path: string | null }>(
    'SELECT j.name, j.type, (SELECT r.gcs_path FROM run r WHERE r.job_id = j.id ORDER BY r.id DESC LIMIT 1) AS gcs_path FROM job j',
  );
  const buckets = new Map<string, number>();
  const note = (job: string, type: string, location: string | null) => {
    const i = of(job);
    i.type = type || i.type;
    const bucket = location ? gcsLocationFromUrl(location)?.bucket : undefined;
    if (bucket) buckets.set((i.bucket = bucket), (buckets.get(bucket) ?? 0) + 1);
  };
  for (const s of stored) note(s.name, s.type, s.gcs_path);
  for (const r of q.deckRuns) note(r.job, r.type, r.url);
  for (const job of q.listedBefore) of(job);
  // the bucket of most runs, for a job that has none of its own yet
  const usual = [...buckets].sort((a, b) => b[1] - a[1])[0]?.[0];
  let discovered = false;
  if (q.discover && usual) {
    try {
      for (const bucket of buckets.keys()) {
        for (const kind of ['logs', 'directory'] as const) {
          const parent = JOB_FOLDERS[kind];
          for (const p of (await q.gcs.listLevel(bucket, parent)).prefixes) {
            const i = of(p.slice(parent.length, -1));
            i.found.add(kind);
            i.bucket ??= bucket;
          }
        }
      }
      discovered = true;
    } catch (e) {
      warnings.push(`backfill: looking through the job folders of GCS: ${(e as Error).message} (looked through again by the next pass)`);
    }
  }
  const wanted = new Set([...info.keys()].filter(q.fromDeck));
  for (const entry of (q.config.promotion ?? []).flatMap((g) => g.blockingJobs)) {
    if (isLiteralJobName(entry)) wanted.add(entry);
    else {
      const re = new RegExp(entry);
      for (const name of info.keys()) if (re.test(name)) wanted.add(name);
    }
  }
  const jobs: JobToList[] = [];
  for (const job of [...wanted].sort()) {
    const i = info.get(job);
    const bucket = i?.bucket ?? usual;
    if (job && bucket) jobs.push({ job, bucket, type: i?.type ?? '', kinds: i?.found.size ? [...i.found] : kindsOf(i?.type ?? '') });
  }
  return { jobs, discovered };
}
