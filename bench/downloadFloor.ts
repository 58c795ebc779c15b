// The I/O floor of ingest: list and download what a pass would, with the same client and the same
// number of runs in flight, and do nothing else with the bytes.
import type { Config } from '../lib/config';
import { FINISHED_STATES, selectFiles } from '../lib/ingest/assemble';
import { RUNS_IN_FLIGHT } from '../lib/ingest/pass';
import { DEFAULT_MAX_FILE_BYTES, httpClientFor, listRunFolder } from '../lib/ingest/run';
import { gcsLocationFromUrl } from '../lib/parse/prowMetadata';
import { fetchDeckRuns } from '../lib/sources/deck';
import { GcsClient } from '../lib/sources/gcs';

export interface Floor {
  seconds: number;
  files: number;
  /** the files' bytes */
  bytes: number;
  /** the bytes received, Deck's listing included (less than bytes where files come gzip-encoded) */
  wireBytes: number;
}

/**
 * Visits the folder of every finished run Deck lists, as many at once as ingest keeps in flight,
 * with a client of ingest's kind; returns the seconds it all took and the bytes received, Deck's
 * listing included.
 */
async function visitRunFolders(config: Config, visit: (gcs: GcsClient, bucket: string, prefix: string) => Promise<void>): Promise<{ seconds: number; wireBytes: number }> {
  const t0 = performance.now();
  const http = httpClientFor(config);
  const gcs = new GcsClient(http, config.gcs!.url);
  const { runs } = await fetchDeckRuns(http, config.prow.url);
  const queue = runs.filter((r) => FINISHED_STATES.has(r.state));
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const loc = gcsLocationFromUrl(r.url)!;
      await visit(gcs, loc.bucket, `${loc.path}/`);
    }
  };
  await Promise.all(Array.from({ length: RUNS_IN_FLIGHT }, worker));
  http.close();
  return { seconds: (performance.now() - t0) / 1000, wireBytes: http.stats.wireBytes };
}

export async function downloadFloor(config: Config): Promise<Floor> {
  let files = 0;
  let bytes = 0;
  const { seconds, wireBytes } = await visitRunFolders(config, async (gcs, bucket, prefix) => {
    await Promise.all(
      selectFiles(await listRunFolder(gcs, bucket, prefix), DEFAULT_MAX_FILE_BYTES).fetch.map(async (o) => {
        const body = await gcs.download(bucket, prefix + o.path);
        bytes += body.length;
        files++;
      }),
    );
  });
  return { seconds, files, bytes, wireBytes };
}

/** Lists every finished run's folder, with the run-files glob or in full; downloads nothing. */
export async function listingCost(config: Config, withGlob: boolean): Promise<{ seconds: number; objects: number }> {
  let objects = 0;
  const { seconds } = await visitRunFolders(config, async (gcs, bucket, prefix) => {
    const listed = withGlob ? await listRunFolder(gcs, bucket, prefix) : await gcs.list(bucket, prefix);
    objects += listed.length; // after the await: `objects += await ...` would add to a stale sum
  });
  return { seconds, objects };
}
