// Fetching one run's artifacts from GCS (lib/ingest/runReader.ts assembles them).
import { allowedHosts, type Config } from '../config';
import { gcsLocationFromUrl } from '../parse/prowMetadata';
import type { ParseProblem, ProwRun } from '../parse/types';
import type { GcsClient } from '../sources/gcs';
import { HttpClient, HttpError } from '../sources/http';
import { failedStepLogs, OPERATOR_JUNIT, runFilesGlob, selectFiles, type ListedObject, type RunFile } from './assemble';
import { parseJunit } from '../parse/junit';

/** A run's files as downloaded, before parsing. */
export interface FetchedRun {
  run: ProwRun;
  gcsPath: string;
  files: RunFile[];
  listing: ListedObject[];
  problems: ParseProblem[];
}

export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The HTTP client of a pass, as configured: only the configured hosts, bounded, retrying. */
export function httpClientFor(config: Config): HttpClient {
  const ingest = config.ingest ?? {};
  return new HttpClient({
    allowedHosts: allowedHosts(config),
    concurrency: ingest.concurrency ?? 32,
    retries: ingest.retries ?? 4,
    timeoutMs: ingest.timeoutMs ?? 30_000,
    maxBytes: ingest.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    headers: { 'user-agent': 'buildcop-ingest' },
  });
}

export class RunFetchError extends Error {}

/** The objects of the run folder `prefix` (ending in /) that selectFiles may take, relative to it. */
export async function listRunFolder(gcs: GcsClient, bucket: string, prefix: string): Promise<ListedObject[]> {
  const glob = runFilesGlob(prefix);
  let objects = await gcs.list(bucket, prefix, glob);
  // a finished run has its finished.json: a glob listing without it is not trusted (a server that
  // reads globs otherwise than GCS), the folder is listed in full
  if (glob && !objects.some((o) => o.name === `${prefix}finished.json`)) objects = await gcs.list(bucket, prefix);
  return objects.map((o) => ({ path: o.name.slice(prefix.length), size: o.size, version: o.version }));
}

/** Lists and downloads what a run needs. Throws RunFetchError only when the run cannot be read at all. */
export async function fetchRun(gcs: GcsClient | undefined, run: ProwRun, maxFileBytes: number): Promise<FetchedRun> {
  const loc = gcsLocationFromUrl(run.url);
  if (!gcs || !loc) {
    const why = !gcs ? 'no gcs section in the configuration' : `cannot derive a GCS folder from the run URL ${JSON.stringify(run.url)}`;
    return { run, gcsPath: '', files: [], listing: [], problems: [{ file: '', message: `artifacts not read: ${why}` }] };
  }
  const prefix = `${loc.path}/`;
  let listing: ListedObject[];
  try {
    listing = await listRunFolder(gcs, loc.bucket, prefix);
  } catch (e) {
    throw new RunFetchError(`listing gs://${loc.bucket}/${prefix}: ${(e as Error).message}`);
  }
  const { fetch, problems } = selectFiles(listing, maxFileBytes);
  const download = async (o: ListedObject): Promise<RunFile> => {
    try {
      return { path: o.path, bytes: await gcs.download(loc.bucket, prefix + o.path, { maxBytes: maxFileBytes }) };
    } catch (e) {
      const status = e instanceof HttpError ? e.status : 0;
      return { path: o.path, error: (e as Error).message, overCap: status === 413, missing: status === 404 };
    }
  };
  const files: RunFile[] = await Promise.all(fetch.map(download));
  // then the logs of the steps that failed, which junit_operator.xml names (search reads them)
  const operator = files.find((f) => OPERATOR_JUNIT.test(f.path));
  if (operator && 'bytes' in operator) {
    const steps = failedStepLogs(parseJunit(operator.bytes).cases, listing, new Set(fetch.map((o) => o.path)));
    for (const f of await Promise.all(steps.map((path) => download({ path, size: 0, version: '' })))) {
      if (!('error' in f) || !f.missing) files.push(f);
    }
  }
  return { run, gcsPath: `gs://${loc.bucket}/${loc.path}`, files, listing, problems: problems as ParseProblem[] };
}

/** Whether a run Deck no longer lists has finished: its finished.json exists. */
export async function hasFinished(gcs: GcsClient, run: ProwRun): Promise<boolean> {
  const loc = gcsLocationFromUrl(run.url);
  if (!loc) return false;
  const objects = await gcs.list(loc.bucket, `${loc.path}/finished.json`);
  return objects.some((o) => o.name === `${loc.path}/finished.json`);
}
