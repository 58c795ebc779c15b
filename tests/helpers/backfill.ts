// The sample world as the backfill tests see it: 14 days of builds in GCS, the last 7 in Deck.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../lib/store/db';
import type { WorldManifest, WorldRun } from '../../lib/world/types';
import { logicalDump } from './databases';

/** Deck lists a week; GCS holds the world's 14 days */
export const DECK_WINDOW_HOURS = 24 * 7;
export const DAY = 86_400;

export function worldManifest(dir: string): WorldManifest {
  return JSON.parse(fs.readFileSync(path.join(dir, 'world.json'), 'utf8')) as WorldManifest;
}

/** The present a pass counts back from: the newest start Deck lists at `now`. */
export function deckPresent(runs: WorldRun[], now: number, windowHours = DECK_WINDOW_HOURS): number {
  return Math.max(...runs.filter((r) => r.started <= now && r.started > now - windowHours * 3600).map((r) => r.started));
}

/** The world's runs finished by `now` that Deck does not list then (started before its window). */
export function beyondDeck(runs: WorldRun[], now: number): WorldRun[] {
  return runs.filter((r) => r.finished <= now && r.started <= now - DECK_WINDOW_HOURS * 3600);
}

/** A logical dump of one job's runs and outcomes (signatures aside: clustering one job alone may pick other representatives). */
export async function jobDump(db: Database | Record<string, unknown[]>, job: string): Promise<{ runs: unknown[]; outcomes: unknown[] }> {
  const dump = 'all' in db ? await logicalDump(db as Database) : db;
  return {
    runs: (dump.runs as { job: string }[]).filter((r) => r.job === job),
    outcomes: (dump.outcomes as { job: string; signature?: string }[]).filter((o) => o.job === job).map(({ signature: _, ...o }) => o),
  };
}

/** first_seen of every job and test, by name. */
export async function firstSeen(db: Database): Promise<{ jobs: Record<string, number>; tests: Record<string, number> }> {
  const rows = (table: string) => db.all<{ name: string; first_seen: number }>(`SELECT name, first_seen FROM ${table} ORDER BY name`);
  const byName = (r: { name: string; first_seen: number }[]) => Object.fromEntries(r.map((x) => [x.name, Number(x.first_seen)]));
  return { jobs: byName(await rows('job')), tests: byName(await rows('test')) };
}

/** The build id in a GCS request's path (an object of a build folder, a folder listing, an alias), if any. */
export function buildIdInRequest(requestPath: string): string | undefined {
  return /(?:\/|%2F)(\d{18,19})(?:\/|%2F|\.txt)/.exec(requestPath)?.[1];
}
