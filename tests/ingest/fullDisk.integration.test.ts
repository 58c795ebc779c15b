// Ingest onto a database that fills up mid-pass: the pass that could not store runs is a failed
// pass (`ingest --once` exits 1, `health` says degraded with the count, the ingest log shows it
// failed), and once there is room again the next passes store what was refused. Two ways of filling
// up: a real small filesystem (a tmpfs; needs root, else it says it did not run), and SQLite's own
// SQLITE_FULL through PRAGMA max_page_count, which needs nothing.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { health } from '../../lib/answers/health';
import { ingestLog } from '../../lib/answers/ingestLog';
import { getStats } from '../../lib/answers/stats';
import { main } from '../../lib/cli/main';
import type { ReplayServer } from '../../lib/replay/server';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { configFor, replay, sampleWorld, writeConfig, type Truth } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
const FULL = /could not be stored: database or disk is full/;

let world: { dir: string; truth: Truth };
let server: ReplayServer;
let configFile: string;

beforeAll(async () => {
  world = await sampleWorld();
  server = await replay(world.dir);
  configFile = writeConfig(configFor(world.dir, server.url));
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** What the pass that filled the database left: a failed pass, and health saying degraded. */
async function expectFailedPass(db: Database) {
  const log = await ingestLog(db, { limit: 5 });
  const pass = log.passes[0];
  expect(pass).toMatchObject({ status: 'failed', message: expect.stringMatching(FULL) });
  expect(pass.runsNotStored).toBeGreaterThan(0);
  expect(pass.runsFailed).toBeGreaterThanOrEqual(pass.runsNotStored);
  expect(pass.runsNew).toBeGreaterThan(0); // it filled up mid-pass
  expect(await health(async () => db)).toMatchObject({ status: 'degraded', lastIngestStatus: 'failed', lastIngestRunsNotStored: pass.runsNotStored });
  return pass;
}

/** Once there is room: the refused runs (pending ones as soon as their wait is over) are all stored. */
async function expectRecovered(db: Database) {
  await db.run('UPDATE pending_run SET next_check = 0'); // as if their 5 minutes had passed
  const stats = await getStats(db);
  expect([stats.runs, stats.testResults, stats.failures]).toEqual([world.truth.runs.finished, world.truth.testResults.total, world.truth.testResults.failed]);
  expect(await health(async () => db)).toMatchObject({ status: 'ok', lastIngestStatus: 'ok', lastIngestRunsNotStored: 0 });
}

/** `buildcop ingest --once` in a process of its own: exit code and output. */
function ingestOnce(dbUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--once', '--quiet', '--config', configFile, '--db', dbUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A tmpfs of `size` mounted on a new folder, or why it cannot be (not root, no mount). */
function mountTmpfs(size: string): { dir: string; grow(size: string): void; unmount(): void } | string {
  if (process.getuid?.() !== 0) return 'not running as root (mounting a small filesystem needs it)';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    return `mount failed: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`;
  }
  return {
    dir,
    grow: (bigger) => void execFileSync('mount', ['-o', `remount,size=${bigger}`, dir]),
    unmount() {
      execFileSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('ingest onto a full disk', () => {
  // room for the migrated database and its first batches of runs, not for the sample world
  const smallFs = mountTmpfs('2m');
  if (typeof smallFs === 'string') {
    it(`did not run on a real small filesystem: ${smallFs} (the max_page_count test below still runs)`, () => {
      console.warn(`[full disk] the tmpfs test did not run: ${smallFs}`);
    });
  } else {
    afterAll(() => smallFs.unmount());
    it('a real filesystem of 2 MB: ingest --once exits 1, health is degraded, the log shows the pass failed; with room again all is stored', async () => {
      const url = `file:${path.join(smallFs.dir, 'buildcop.db')}`;
      const full = await ingestOnce(url);
      expect(full.code, full.stderr).toBe(1);
      expect(full.stdout, full.stderr).toMatch(/runs new, .* failed \(tried again later; [\d,]+ not stored\)/);
      expect(full.stderr).toMatch(/ingest: pass failed: [\d,]+ runs? could not be stored: database or disk is full/);
      const cli = await new Promise<string>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'health', '--db', url], { stdio: ['ignore', 'pipe', 'ignore'] });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b));
        child.once('exit', (code) => resolve(`${code} ${out}`));
      });
      expect(cli).toMatch(/^1 degraded: .*latest pass failed; the latest pass could not store [\d,]+ runs? \(buildcop ingest-log\)/);
      const db = await openDatabase(url);
      try {
        await expectFailedPass(db);
        smallFs.grow('64m');
        await db.run('UPDATE pending_run SET next_check = 0');
        const again = await ingestOnce(url);
        expect(again.code, again.stderr).toBe(0);
        await expectRecovered(db);
      } finally {
        await closeDatabase(db);
      }
    }, 240_000);
  }

  it("SQLite's SQLITE_FULL (max_page_count): the same, ingest --once through the CLI's own entry", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-full-'));
    const url = `file:${path.join(dir, 'buildcop.db')}`;
    // the CLI's openDatabase finds this connection open (one per URL per process), limit included
    const db = await openDatabase(url);
    try {
      const pages = Number(db.sqlite!.pragma('page_count', { simple: true }));
      db.sqlite!.pragma(`max_page_count = ${pages + 150}`);
      expect(await main(['ingest', '--once', '--quiet', '--config', configFile, '--db', url])).toBe(1);
      await expectFailedPass(db);
      db.sqlite!.pragma('max_page_count = 1073741823');
      await db.run('UPDATE pending_run SET next_check = 0');
      expect(await main(['ingest', '--once', '--quiet', '--config', configFile, '--db', url])).toBe(0);
      await expectRecovered(db);
    } finally {
      await closeDatabase(db);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
