// A generated sample world on disk, made once per (end, generator version, seed) and reused: tests use
// the fixed TEST_WORLD_END, the demo the current hour. Generation goes to a temporary directory that is
// renamed into place, so concurrent callers never see a half-written world. Worlds of earlier hours
// are removed a day after they were made (a demo run every morning would otherwise add 125 MB a day).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_WORLD_SEED, generateWorld } from '../world/generate';
import { WORLD_GENERATOR_VERSION } from '../world/types';

export const TEST_WORLD_END = new Date('2026-11-23T00:00:00Z');

/** the folder of buildcop's package.json above this file, else the working directory */
function repoRoot(): string {
  try {
    for (let d = path.dirname(fileURLToPath(import.meta.url)); d !== path.dirname(d); d = path.dirname(d)) {
      const pkg = path.join(d, 'package.json');
      if (fs.existsSync(pkg) && (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'buildcop') return d;
    }
  } catch {
    // not a file URL (bundled): fall through
  }
  return process.cwd();
}

/** the current time rounded down to the hour */
export function currentHour(): Date {
  const d = new Date();
  d.setUTCMinutes(0, 0, 0);
  return d;
}

export function worldDirName(end: Date, seed: number, tests?: number): string {
  const iso = end.toISOString();
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}`;
  const seedPart = seed === DEFAULT_WORLD_SEED ? '' : `-s${seed}`;
  return `world-${stamp}-v${WORLD_GENERATOR_VERSION}${seedPart}${tests === undefined ? '' : `-t${tests}`}`;
}

/** How long a generated world is kept in data/ after it was made, once a newer one is generated. */
export const STALE_WORLD_MS = 24 * 3600_000;

/**
 * Removes the worlds in `dataDir` made more than STALE_WORLD_MS before `now` (and leftovers of
 * generations that died half-way), except `keep` and the tests' world of this generator version.
 * Only folders named as ensureWorld names them are touched. Returns the names removed.
 */
export function removeStaleWorlds(dataDir: string, keep: string, now = Date.now()): string[] {
  const testWorld = worldDirName(TEST_WORLD_END, DEFAULT_WORLD_SEED);
  const removed: string[] = [];
  for (const name of fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : []) {
    if (name === keep || name === testWorld || !/^world-\d{8}T\d{2}-v\d+(-s\d+)?(-t\d+)?(\.tmp-.+)?$/.test(name)) continue;
    try {
      if (now - fs.statSync(path.join(dataDir, name)).mtimeMs <= STALE_WORLD_MS) continue;
      fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // removed by another process meanwhile, or not ours to remove: leave it
    }
  }
  return removed;
}

/** `tests`: openshift-tests suites of that many tests (see lib/world/generatedTests.ts) */
export async function ensureWorld(opts: { end?: Date; dir?: string; seed?: number; tests?: number } = {}): Promise<string> {
  const end = opts.end ?? currentHour();
  const seed = opts.seed ?? DEFAULT_WORLD_SEED;
  const dir = path.resolve(opts.dir ?? path.join(repoRoot(), 'data', worldDirName(end, seed, opts.tests)));
  if (fs.existsSync(path.join(dir, 'world.json'))) return dir;
  if (!opts.dir) removeStaleWorlds(path.dirname(dir), path.basename(dir));
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await generateWorld({ dir: tmp, end, seed, tests: opts.tests });
    try {
      fs.renameSync(tmp, dir);
    } catch (e) {
      // another process finished first: keep theirs
      if (!fs.existsSync(path.join(dir, 'world.json'))) throw e;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}
