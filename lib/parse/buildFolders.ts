// Prow's GCS job folders as the backfill reads them: build ids (time-ordered snowflakes since 2019),
// build folder names in a job's listing, and the pr-logs/directory aliases of presubmit builds.
import { gcsLocationFromUrl } from './prowMetadata';
import type { GcsLocation } from './types';

/** Prow's snowflake epoch (Twitter's, in ms): a build id is (ms since it) << 22 | sequence. */
const SNOWFLAKE_EPOCH_MS = 1288834974657n;
/** Build ids before 2014 are not snowflakes (Jenkins-era and early Prow ids count up from 1). */
const FIRST_SNOWFLAKE_SECONDS = 1_388_534_400;

/**
 * When Prow made a build id (Unix seconds), or undefined for an id that is not one of its snowflakes.
 * Prow makes the id when it schedules the build's pod, at or after the run's start.
 */
export function buildIdTime(buildId: string): number | undefined {
  if (!/^\d{15,19}$/.test(buildId)) return undefined;
  const seconds = Number(((BigInt(buildId) >> 22n) + SNOWFLAKE_EPOCH_MS) / 1000n);
  return seconds >= FIRST_SNOWFLAKE_SECONDS ? seconds : undefined;
}

/**
 * The smallest build id Prow can make at `unixSeconds`: every build scheduled then or later has an id
 * at least this, and (ids having 19 digits since 2018) names at least this in a listing's order.
 */
export function firstBuildIdAt(unixSeconds: number): string {
  return ((BigInt(Math.max(0, Math.floor(unixSeconds))) * 1000n - SNOWFLAKE_EPOCH_MS) << 22n).toString();
}

/**
 * The build id of a folder prefix `…/<job>/<build>/` or an alias `…/<job>/<build>.txt` listed under
 * `parent` (ending in /); undefined for anything else there (latest-build.txt, stray folders).
 */
export function buildIdOf(parent: string, name: string, suffix: '/' | '.txt'): string | undefined {
  if (!name.startsWith(parent) || !name.endsWith(suffix)) return undefined;
  const id = name.slice(parent.length, name.length - suffix.length);
  return /^\d+$/.test(id) ? id : undefined;
}

/**
 * The build folder a `pr-logs/directory/<job>/<build>.txt` object names (`gs://bucket/pr-logs/pull/…/<build>`,
 * as Prow writes it), checked to be that build's. Throws an Error saying what is wrong otherwise.
 */
export function parseBuildAlias(text: string, buildId: string): GcsLocation {
  const t = text.replace(/^\uFEFF/, '').trim();
  const shown = JSON.stringify(t.length > 120 ? `${t.slice(0, 120)}…` : t);
  if (!t.startsWith('gs://')) throw new Error(`does not hold a gs:// folder: ${shown}`);
  const loc = gcsLocationFromUrl(t);
  if (!loc || /\s/.test(t)) throw new Error(`does not hold one gs:// folder: ${shown}`);
  if (loc.path.slice(loc.path.lastIndexOf('/') + 1) !== buildId) throw new Error(`names ${shown}, not a folder of build ${buildId}`);
  return loc;
}
