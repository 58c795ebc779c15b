// `buildcop demo` (npm run demo): the dashboard on the sample world in one command. Generates the
// world ending this hour, serves it in the real services' URL shapes, ingests it, builds the app when
// the build is missing or older than the sources, and runs `next start` until Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../config';
import { formatSummary, ingestPass } from '../ingest/pass';
import { formatStandingSummary, refreshStandingAnswers } from '../answers/standing';
import { createProgress } from '../ingest/progress';
import { currentHour } from '../replay/ensureWorld';
import type { ReplayServer } from '../replay/server';
import { closeDatabase, databaseUrl, DEFAULT_SQLITE_URL, openDatabase, sqliteFile, type Database } from '../store/db';
import { formatReadIndexes, updateReadIndexes } from '../store/readIndexes';
import { parse, UsageError } from './args';
import type { Command } from './command';
import { startSampleReplay, writeReplayConfig } from './replay';
import { placeDemoConfig, placedConfigMessage } from './demoConfig';
import { nextServerEnv } from '../../scripts/nextServer.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEMO_DIR = path.join(ROOT, 'data/demo');
const CONFIG_FILE = path.join(DEMO_DIR, 'buildcop.config.json');
const STATE_FILE = path.join(DEMO_DIR, 'state.json');
const REINGEST_MS = 5 * 60_000;
const BUILD_INPUTS = ['app', 'lib', 'public', 'proxy.ts', 'next.config.js', 'package.json', 'tsconfig.json'];

const log = (s: string) => process.stderr.write(`demo: ${s}\n`);

/** Newest modification time under the given paths (files and folders, recursively). */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const walk = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) if (e !== 'node_modules' && !e.startsWith('.')) walk(path.join(p, e));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach(walk);
  return newest;
}

/** True when .next holds no production build or one older than its sources. */
export function buildIsStale(root = ROOT): boolean {
  const buildId = path.join(root, '.next/BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  return newestMtime(BUILD_INPUTS.map((p) => path.join(root, p))) > fs.statSync(buildId).mtimeMs;
}

/** Deck lists the last week, as a real Deck lists days rather than weeks; the rest is backfilled from GCS. */
const DEMO_DECK_WINDOW_HOURS = 24 * 7;
/** ingest.since of the demo: the whole sample world (14 days) */
const DEMO_SINCE = '15d';

async function startReplay(end: Date): Promise<{ server: ReplayServer; dir: string }> {
  // A fixed port keeps the Prow links stored by earlier demo runs working; any port when it is taken.
  const port = Number(process.env.BUILDCOP_REPLAY_PORT ?? 8099);
  const deckWindowHours = DEMO_DECK_WINDOW_HOURS;
  try {
    return await startSampleReplay({ end, port, deckWindowHours });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    log(`port ${port} is taken; serving the sample world on a free port`);
    return startSampleReplay({ end, port: 0, deckWindowHours });
  }
}

interface DemoState {
  world?: string;
  db?: string;
  /** digest of the ./buildcop.config.json the demo wrote (see demoConfig.ts) */
  config?: string;
}

function readState(): DemoState {
  try {
    return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as DemoState;
  } catch {
    return {}; // first demo run
  }
}

/** The demo database is rebuilt when it holds another hour's sample world (never a database the user chose). */
/** A relative SQLite file as seen from here: the server runs in the project's folder, not in ours. */
function fromHere(dbUrl: string): string {
  const file = dbUrl.startsWith('file:') ? dbUrl.slice('file:'.length) : '';
  return file && !path.isAbsolute(file) ? `file:${path.resolve(file)}` : dbUrl;
}

function resetIfOtherWorld(dbUrl: string, world: string, previous: DemoState): void {
  if (process.env.DATABASE_URL || dbUrl !== DEFAULT_SQLITE_URL || !previous.world || previous.world === world || previous.db !== dbUrl) return;
  const file = sqliteFile(dbUrl);
  log(`the demo database holds the sample world of ${previous.world}; rebuilding it for ${world}`);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
}

/** After a pass: the configured alerts (their code is loaded only when some are configured), the test set index and day packs, then the standing answers. */
async function afterPass(config: Config, db: Database, quiet = false): Promise<void> {
  if (config.alerts?.length) {
    const { alertAfterPass, formatAlertSummary } = await import('../alerts/afterPass');
    log(formatAlertSummary(await alertAfterPass({ config, db })));
  }
  for (const line of formatReadIndexes(await updateReadIndexes(db), quiet)) log(line);
  const standing = await refreshStandingAnswers(db, config.ignoreTests, Date.now(), config.ingest?.standingReleases);
  if (!quiet || standing.errors.length) log(formatStandingSummary(standing));
}

export const demoCommand: Command = {
  usage: `Usage: buildcop demo [--port P]

Generates the sample world ending this hour, serves it as Prow/GCS would (port $BUILDCOP_REPLAY_PORT,
default 8099; Deck lists its last 7 days, GCS holds all 14, which ingest.since backfills), ingests it into $DATABASE_URL (default file:./data/buildcop.db), runs "next build"
when needed and "next start -p \${PORT:-3000}". Re-ingests every 5 minutes while running.`,
  async run(argv) {
    const { values } = parse(argv, { port: { type: 'string' } } as const);
    const port = values.port ?? process.env.PORT ?? '3000';
    if (!/^\d+$/.test(port) || Number(port) > 65535) throw new UsageError(`invalid port ${JSON.stringify(port)}`);

    const end = currentHour();
    log(`sample world ending ${end.toISOString()} (generated on first use, then cached in data/)`);
    const { server, dir } = await startReplay(end);
    log(`replay of ${path.basename(dir)} at ${server.url}`);
    writeReplayConfig(dir, server.url, CONFIG_FILE, { ingest: { since: DEMO_SINCE } });
    const previous = readState();
    const placed = placeDemoConfig(CONFIG_FILE, process.cwd(), previous.config);
    log(placedConfigMessage(placed, CONFIG_FILE));

    const dbUrl = databaseUrl(values.db);
    resetIfOtherWorld(dbUrl, path.basename(dir), previous);
    const config = loadConfig(CONFIG_FILE);
    let db = await openDatabase(dbUrl);
    fs.writeFileSync(STATE_FILE, JSON.stringify({ world: path.basename(dir), db: dbUrl, config: placed.digest }, null, 2));
    log(`ingesting into ${dbUrl}`);
    const summary = await ingestPass({ config, db, progress: createProgress(process.stderr, false) });
    log(formatSummary(summary));
    await afterPass(config, db);
    await closeDatabase(db); // next start opens its own connection; the periodic ingest reopens

    if (buildIsStale()) {
      log('building the dashboard (next build)');
      const b = spawnSync(path.join(ROOT, 'node_modules/.bin/next'), ['build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
      if (b.status !== 0) {
        await server.close();
        throw Object.assign(new Error(`next build failed (exit ${b.status ?? b.signal})`), { expose: true });
      }
    }

    const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/next'), ['start', '-p', port], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...nextServerEnv(process.env), BUILDCOP_CONFIG: CONFIG_FILE, DATABASE_URL: fromHere(dbUrl) },
    });
    log(`dashboard: http://localhost:${port}/  (Ctrl-C stops it and the replay server)`);

    const timer = setInterval(async () => {
      try {
        db = await openDatabase(dbUrl);
        const s = await ingestPass({ config, db });
        if (s.runsNew || s.runsUpdated) log(formatSummary(s));
        await afterPass(config, db, true);
      } catch (e) {
        log(`periodic ingest failed: ${(e as Error).message}`);
      }
    }, REINGEST_MS);
    timer.unref();

    return new Promise<number>((resolve) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        log(`stopping (${signal})`);
        clearInterval(timer);
        if (child.exitCode === null) child.kill('SIGTERM');
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
      child.on('exit', async (code, signal) => {
        clearInterval(timer);
        await server.close().catch(() => undefined);
        if (!stopping) log(`next start exited (${code ?? signal})`);
        resolve(stopping ? 0 : (code ?? 1));
      });
    });
  },
};
