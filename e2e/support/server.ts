// Reusable pieces of the browser and API tests: the sample world ingested into a fresh SQLite
// database through the replay server, the built dashboard started on it with `next start`, and
// Debian's Chromium driven by playwright-core.
//
// How to add a browser test (bugs, promotion, ...):
//   1. Put it in e2e/<name>.test.ts. vitest.e2e.config.ts runs e2e/support/globalSetup.ts once for
//      all files: it ingests the world and starts one `next start`, then provides `baseUrl`,
//      `dbUrl`, `configFile`, `replayUrl` and `worldDir` (read them with `inject('baseUrl')` from
//      'vitest'; types in e2e/support/context.d.ts).
//   2. Open pages with `const browser = await launchChromium()` and `newPage(browser)` from
//      e2e/support/browser.ts; pages of the sample world need `?at=${END_ISO}` (the world ends at
//      TEST_WORLD_END), e.g. `${baseUrl}/promotion?at=${END_ISO}`.
//   3. Tests that write (bug links) and need their own server or environment (BUILDCOP_ADMIN_TOKEN)
//      can call prepareSampleDatabase() and startNext({ env }) themselves and stop() them after.
//   Screenshots go to test-output/ (TEST_OUTPUT). The build must exist: `npm test` runs `next build`
//   first; `npx vitest run --config vitest.e2e.config.ts` alone expects a current .next.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestPass } from '../../lib/ingest/pass';
import { closeDatabase, openDatabase } from '../../lib/store/db';
import { freePort } from '../../tests/helpers/freePort';
import { configFor, END_ISO, replay, sampleWorld, writeConfig, type Truth } from '../../tests/helpers/world';
import { nextServerEnv } from '../../scripts/nextServer.mjs';

export { END_ISO };
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TEST_OUTPUT = path.join(ROOT, 'test-output');

export interface SampleDatabase {
  dbUrl: string;
  configFile: string;
  replayUrl: string;
  worldDir: string;
  truth: Truth;
  /** stops the replay server and deletes the database */
  close(): Promise<void>;
}

/**
 * The sample world (TEST_WORLD_END) served by an in-process replay server and ingested into a new
 * SQLite file, or into the (empty) database `dbUrl` names (PostgreSQL: see tests/helpers/databases.ts):
 * Deck lists its last 7 days, the first 7 are backfilled from GCS (ingest.since).
 */
export async function prepareSampleDatabase(opts: { dbUrl?: string } = {}): Promise<SampleDatabase> {
  const { dir, truth } = await sampleWorld();
  const server = await replay(dir, { deckWindowHours: 24 * 7 });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-e2e-'));
  const dbUrl = opts.dbUrl ?? `file:${path.join(tmp, 'buildcop.db')}`;
  const config = configFor(dir, server.url, { ingest: { since: '15d' } });
  const db = await openDatabase(dbUrl);
  try {
    await ingestPass({ config, db });
  } finally {
    await closeDatabase(db);
  }
  return {
    dbUrl,
    configFile: writeConfig(config),
    replayUrl: server.url,
    worldDir: dir,
    truth,
    async close() {
      await server.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export { freePort };

export interface NextServer {
  baseUrl: string;
  pid: number;
  /** what the server printed, for failure messages */
  log(): string;
  stop(): Promise<void>;
}

/** Fails early with a clear message when there is no production build to start. */
export function assertBuilt(): void {
  if (!fs.existsSync(path.join(ROOT, '.next/BUILD_ID'))) {
    throw new Error('no production build in .next: run `npx next build` first (`npm test` does it)');
  }
}

/**
 * `./node_modules/.bin/next start -p PORT` on the given database; resolves once /api/health answers
 * 200 (`anyAnswer`: once it answers at all, for a database that cannot be reached).
 */
export async function startNext(opts: { dbUrl: string; configFile?: string; env?: Record<string, string>; anyAnswer?: boolean }): Promise<NextServer> {
  assertBuilt();
  const port = await freePort();
  let output = '';
  // The binary itself, not `npx next`, so the pid is the server's and killing it stops it.
  const child = spawn(path.join(ROOT, 'node_modules/.bin/next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: {
      ...nextServerEnv(process.env),
      NODE_ENV: 'production',
      DATABASE_URL: opts.dbUrl,
      ...(opts.configFile ? { BUILDCOP_CONFIG: opts.configFile } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    try {
      const r = await fetch(`${baseUrl}/api/health`);
      if (r.status === 200 || opts.anyAnswer) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, pid: child.pid!, log: () => output, stop };
}
