// The I/O floor of ingest: list and download what a pass would, with the same client and the same
// number of runs in flight, and do nothing else with the bytes.
import type { Config } from '../lib/config';
import type { Database } from '../lib/store/db';
import { FINISHED_STATES, selectFiles } from '../lib/ingest/assemble';
import { RUNS_IN_FLIGHT } from '../lib/ingest/pass';
import { DEFAULT_MAX_FILE_BYTES, httpClientFor, listRunFolder } from '../lib/ingest/run';
import { gcsLocationFromUrl } from '../lib/parse/prowMetadata';
import { fetchDeckRuns } from '../lib/sources/deck';
import { GcsClient } from '../lib/sources/gcs';

export interface Floor {
  seconds: number;
  files: number;
  bytes: number;
}

export async function downloadFloor(config: Config): Promise<Floor> {
  const t0 = performance.now();
  const http = httpClientFor(config);
  const gcs = new GcsClient(http, config.gcs!.url);
  const { runs } = await fetchDeckRuns(http, config.prow.url);
  const queue = runs.filter((r) => FINISHED_STATES.has(r.state));
  let files = 0;
  let bytes = 0;
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const loc = gcsLocationFromUrl(r.url)!;
      const prefix = `${loc.path}/`;
      await Promise.all(
        selectFiles(await listRunFolder(gcs, loc.bucket, prefix), DEFAULT_MAX_FILE_BYTES).fetch.map(async (o) => {
          const body = await gcs.download(loc.bucket, prefix + o.path);
          bytes += body.length;
          files++;
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: RUNS_IN_FLIGHT }, worker)); // as many runs in flight as ingest keeps
  http.close();
  return { seconds: (performance.now() - t0) / 1000, files, bytes };
}

/** Lists every finished run's folder, with the run-files glob or in full; downloads nothing. */
export async function listingCost(config: Config, withGlob: boolean): Promise<{ seconds: number; objects: number }> {
  const t0 = performance.now();
  const http = httpClientFor(config);
  const gcs = new GcsClient(http, config.gcs!.url);
  const { runs } = await fetchDeckRuns(http, config.prow.url);
  const queue = runs.filter((r) => FINISHED_STATES.has(r.state));
  let objects = 0;
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const loc = gcsLocationFromUrl(r.url)!;
      const prefix = `${loc.path}/`;
      const listed = withGlob ? await listRunFolder(gcs, loc.bucket, prefix) : await gcs.list(loc.bucket, prefix);
      objects += listed.length; // after the await: `objects += await ...` would add to a stale sum
    }
  };
  await Promise.all(Array.from({ length: RUNS_IN_FLIGHT }, worker));
  http.close();
  return { seconds: (performance.now() - t0) / 1000, objects };
}

/** Empties ingest's tables of a PostgreSQL database that earlier rounds filled (SQLite rounds start from a new file). */
export async function emptyDatabase(db: Database): Promise<void> {
  for (const table of ['test_outcome', 'parse_error', 'run', 'pending_run', 'test_set', 'signature', 'test', 'job', 'ingest_pass']) await db.run(`DELETE FROM ${table}`);
}
