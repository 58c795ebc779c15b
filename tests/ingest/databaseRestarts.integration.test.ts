// `ingest --interval` while its PostgreSQL server stops and starts under it (a server of the test's
// own: tests/helpers/pgCluster.ts). A lost connection fails only the pass it hit; the daemon stays
// alive, carries on once the server is back, and ends with what a clean ingest of the world stores.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { health } from '../../lib/answers/health';
import { getStats } from '../../lib/answers/stats';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import { closeDatabase, openDatabase } from '../../lib/store/db';
import { logicalDump } from '../helpers/databases';
import { describeWithOwnPostgres, startOwnPostgres, type OwnPostgres } from '../helpers/pgCluster';
import { configFor, replay, sampleWorld, writeConfig, type Truth } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
// 6 in each mode: before the fix the daemon died in 7 of 18 restarts, so all 12 would pass by chance
// only 0.3% of the time
const RESTARTS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The run count and the latest finished pass, read with a client of its own (null while the server is down). */
async function progressOf(url: string): Promise<{ runs: number; last: { status: string; runs_new: number } | undefined } | null> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    const runs = Number((await c.query('SELECT COUNT(*) AS n FROM run')).rows[0].n);
    const last = (await c.query('SELECT status, runs_new FROM ingest_pass WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 1')).rows[0];
    return { runs, last };
  } catch {
    return null;
  } finally {
    await c.end().catch(() => undefined);
  }
}

describeWithOwnPostgres('ingest --interval through PostgreSQL restarts', () => {
  let world: { dir: string; truth: Truth };
  let server: ReplayServer;
  let pg: OwnPostgres;

  beforeAll(async () => {
    world = await sampleWorld();
    server = await replay(world.dir);
    pg = await startOwnPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await pg?.destroy();
  });

  it.each([['the main thread', 0], ['a reader thread', 1]])(
    `stays alive through ${RESTARTS} stops and starts (reading on %s) and ends with the database of a clean ingest`,
    async (_, workers) => {
      const url = await pg.createDatabase();
      const config = configFor(world.dir, server.url, { ingest: { workers } });
      // slowed down, so that the restarts land while runs are being read and stored
      server.setFaults({ delayMs: 6 });
      let output = '';
      const daemon: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--interval', '200ms', '--config', writeConfig(config), '--db', url, '--quiet'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      daemon.stdout!.on('data', (b: Buffer) => (output += b));
      daemon.stderr!.on('data', (b: Buffer) => (output += b));
      const alive = () => daemon.exitCode === null && daemon.signalCode === null;
      // this process reads through the restarts as the dashboard does (its pool, and Prisma's)
      const reader = await openDatabase(url);
      const readable = async () => (await health(async () => reader)).status !== 'unavailable';
      try {
        let before = 0;
        const counts: number[] = [];
        for (let round = 0; round < RESTARTS; round++) {
          // once the daemon is storing again (or everything is stored)
          for (let i = 0; i < 200; i++) {
            const p = await progressOf(url);
            if (p && (p.runs > before || p.runs === world.truth.runs.finished)) break;
            await sleep(100);
          }
          await sleep(Math.random() * 400);
          counts.push((await progressOf(url))?.runs ?? before);
          // every third a crash of the server, else a fast shutdown (every session ended)
          await pg.stop(round % 3 === 2 ? 'immediate' : 'fast');
          await sleep(200 + Math.random() * 800);
          expect(alive(), output).toBe(true);
          expect(await readable()).toBe(false);
          await pg.start();
          let back = false;
          for (let i = 0; i < 50 && !back; i++) if (!(back = await readable())) await sleep(100);
          expect(back).toBe(true);
          before = (await progressOf(url))?.runs ?? before;
        }
        server.setFaults({});
        // the daemon carries on by itself: a pass that found nothing new, everything stored
        let done = false;
        for (let i = 0; i < 600 && !done && alive(); i++) {
          const p = await progressOf(url);
          done = !!p && p.runs === world.truth.runs.finished && p.last?.status === 'ok' && Number(p.last.runs_new) === 0;
          if (!done) await sleep(200);
        }
        expect(alive(), output).toBe(true);
        expect(done, output).toBe(true);
        // the restarts landed mid-ingest: runs came in between them, and passes failed
        expect(counts[0]).toBeLessThan(world.truth.runs.finished);
        expect(output).toMatch(/pass failed/);
        daemon.kill('SIGTERM');
        await new Promise((r) => daemon.once('exit', r));

        const db = reader;
        const clean = await openDatabase(await pg.createDatabase());
        try {
          // passes cut short by a stop stay recorded as running (the log calls them interrupted)
          const passes = Object.fromEntries((await db.all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM ingest_pass GROUP BY status')).map((r) => [r.status, Number(r.n)]));
          console.log(`[restarts] reading on ${_}: passes by status ${JSON.stringify(passes)}; runs stored at each stop ${counts.join(', ')}`);
          expect(passes.running).toBeGreaterThan(0);
          await ingestPass({ config, db: clean });
          const stats = await getStats(db);
          expect([stats.runs, stats.pendingRuns, stats.testResults, stats.failures]).toEqual([
            world.truth.runs.finished, world.truth.runs.pending, world.truth.testResults.total, world.truth.testResults.failed,
          ]);
          expect(await logicalDump(db)).toEqual(await logicalDump(clean));
        } finally {
          await closeDatabase(clean);
        }
      } finally {
        await closeDatabase(reader);
        server.setFaults({});
        if (alive()) daemon.kill('SIGKILL');
        await pg.start(); // for the next test, whatever became of this one
      }
    },
    600_000,
  );
});
