// Generated worlds of earlier hours are removed from data/ a day after they were made; nothing else
// there is touched.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORLD_SEED } from '../../lib/world/generate';
import { removeStaleWorlds, STALE_WORLD_MS, TEST_WORLD_END, worldDirName } from '../../lib/replay/ensureWorld';

let dataDir = '';
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function make(name: string, ageMs: number, file = false): void {
  const p = path.join(dataDir, name);
  if (file) fs.writeFileSync(p, 'x');
  else {
    fs.mkdirSync(p);
    fs.writeFileSync(path.join(p, 'world.json'), '{}');
  }
  const t = new Date(Date.now() - ageMs);
  fs.utimesSync(p, t, t);
}

describe('removeStaleWorlds', () => {
  it('removes worlds and half-made generations older than a day, and keeps the new one, the tests’ world, recent worlds and other files', () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-stale-'));
    const old = STALE_WORLD_MS + 60_000;
    const testWorld = worldDirName(TEST_WORLD_END, DEFAULT_WORLD_SEED);
    make(testWorld, old);
    make('world-20261101T08-v1', old);
    make('world-20261101T09-v0-s7', old);
    make('world-20261101T10-v1.tmp-123-abcd1234', old);
    make('world-20261130T08-v1', 3600_000); // made an hour ago: a demo may still serve it
    make('world-20261130T09-v1', old); // the one being made now
    make('worlds-of-mine', old);
    make('buildcop.db', old, true);

    const removed = removeStaleWorlds(dataDir, 'world-20261130T09-v1');

    expect(removed.sort()).toEqual(['world-20261101T08-v1', 'world-20261101T09-v0-s7', 'world-20261101T10-v1.tmp-123-abcd1234']);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['buildcop.db', testWorld, 'world-20261130T08-v1', 'world-20261130T09-v1', 'worlds-of-mine'].sort());
  });

  it('does nothing when data/ does not exist yet', () => {
    dataDir = path.join(os.tmpdir(), `buildcop-stale-missing-${process.pid}`);
    expect(removeStaleWorlds(dataDir, 'world-20261130T09-v1')).toEqual([]);
  });
});
