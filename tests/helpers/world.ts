// The bundled sample world for integration tests: generated once (cached under data/), served by
// the replay server, with its truth.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateConfig, type Config } from '../../lib/config';
import { replayConfig } from '../../lib/replay/config';
import { ensureWorld, TEST_WORLD_END } from '../../lib/replay/ensureWorld';
import { startReplayServer, type ReplayServer, type ReplayServerOptions } from '../../lib/replay/server';

export { TEST_WORLD_END };
export const END_ISO = TEST_WORLD_END.toISOString();

export interface PeriodStats {
  runs: number;
  failedRuns: number;
  flakedRuns: number;
  jobs: string[];
}

export interface Truth {
  runs: { finished: number; byState: Record<string, number>; pending: number; pendingRuns: { job: string; buildId: string }[] };
  tests: number;
  testResults: { total: number; passed: number; failed: number; flaked: number; skipped: number };
  perTest: Record<string, { window: PeriodStats; previous: PeriodStats }>;
  scenarios: Record<string, any>;
  expectedVerdicts: Record<string, string>;
  specialRuns: Record<string, any>;
  kubeletRaceSignature: { test: string; occurrences: number; windowOccurrences: number };
  tlsSignature: { tests: string[]; occurrences: number };
  bugs: any;
  promotion: any;
  releaseStreams: any;
}

export async function sampleWorld(): Promise<{ dir: string; truth: Truth }> {
  const dir = await ensureWorld({ end: TEST_WORLD_END });
  return { dir, truth: JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Truth };
}

/** Deck lists the whole 14 days (so one pass ingests all of it) unless told otherwise. */
export async function replay(dir: string, opts: Partial<ReplayServerOptions> = {}): Promise<ReplayServer> {
  return startReplayServer({ dir, deckWindowHours: 24 * 15, ...opts });
}

export function configFor(dir: string, url: string, extra: Record<string, unknown> = {}): Config {
  return validateConfig({ ...replayConfig(dir, url), ...extra });
}

export function writeConfig(config: Config): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-config-')), 'buildcop.config.json');
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * A SQLite database holding the ingested sample world, for tests of what comes after ingest.
 * Ingest itself is tested from scratch in tests/ingest; here the database is built once per
 * version of the code that writes it (a hash of lib/ sources and migrations) and copied per caller.
 */
export async function worldDatabaseUrl(): Promise<string> {
  const { createHash } = await import('node:crypto');
  const root = path.resolve(__dirname, '../..');
  const h = createHash('sha1');
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|sql)$/.test(e.name)) h.update(p).update(fs.readFileSync(p));
    }
  };
  for (const d of ['lib/ingest', 'lib/parse', 'lib/store', 'lib/sources', 'lib/world', 'lib/signatures', 'lib/bugs', 'prisma']) walk(path.join(root, d));
  const cached = path.join(root, 'data', `test-world-${h.digest('hex').slice(0, 12)}.db`);
  if (!fs.existsSync(cached)) {
    const { dir } = await sampleWorld();
    const server = await replay(dir, { gcsPageSize: 1000 });
    const tmp = `${cached}.${process.pid}.tmp`;
    const { openDatabase, closeDatabase } = await import('../../lib/store/db');
    const { ingestPass } = await import('../../lib/ingest/pass');
    try {
      const db = await openDatabase(`file:${tmp}`);
      await ingestPass({ config: configFor(dir, server.url), db });
      await db.run('PRAGMA wal_checkpoint(TRUNCATE)');
      await closeDatabase(db);
      fs.renameSync(tmp, cached);
      // databases of earlier versions of the code (one per change while developing) are not used again
      for (const f of fs.readdirSync(path.dirname(cached))) {
        const p = path.join(path.dirname(cached), f);
        if (!/^test-world-[0-9a-f]{12}\.db$/.test(f) || p === cached) continue;
        try {
          if (Date.now() - fs.statSync(p).mtimeMs > 3600_000) fs.rmSync(p, { force: true });
        } catch {
          // removed by another test process meanwhile
        }
      }
    } finally {
      await server.close();
      for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
    }
  }
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-worlddb-')), 'world.db');
  fs.copyFileSync(cached, copy);
  return `file:${copy}`;
}

/**
 * A new database of the given kind holding the sample world as one ingest pass stores it (served by
 * a replay server for that pass only); drop() closes and removes it.
 */
export async function freshWorldDatabase(kind: 'sqlite' | 'postgres'): Promise<{ db: import('../../lib/store/db').Database; url: string; drop(): Promise<void> }> {
  const { closeDatabase, freshDatabase, open } = await import('./databases');
  const { ingestPass } = await import('../../lib/ingest/pass');
  const { dir } = await sampleWorld();
  const server = await replay(dir);
  const target = await freshDatabase(kind);
  try {
    const db = await open(target);
    const drop = async () => {
      await closeDatabase(db);
      await target.drop();
    };
    await ingestPass({ config: configFor(dir, server.url), db }).catch(async (e) => {
      await drop();
      throw e;
    });
    return { db, url: target.url, drop };
  } finally {
    await server.close();
  }
}
