// A dashboard of its own per database engine for tests that add to the sample world: the world
// ingested into a fresh SQLite file or PostgreSQL database, what the test adds stored through the
// real write path, then `next start` on it. And a probe of /api/health while other requests run.
import { describe, it } from 'vitest';
import { Catalog } from '../../lib/store/catalog';
import { SearchBases } from '../../lib/store/searchIndex';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { RunAssembler } from '../../lib/ingest/runReader';
import { storeBatch } from '../../lib/ingest/storeBatch';
import { SignatureIndex } from '../../lib/signatures/clustering';
import type { RunFile } from '../../lib/ingest/assemble';
import type { ProwRun } from '../../lib/parse/types';
import { freshDatabase, havePostgres, type TestDatabase } from '../../tests/helpers/databases';
import { prepareSampleDatabase, startNext, type NextServer, type SampleDatabase } from './server';

export type Engine = 'sqlite' | 'postgres';

export interface EngineServer {
  sample: SampleDatabase;
  server: NextServer;
  stop(): Promise<void>;
}

/** The sample world on `engine`, `add` run on its database before the server starts. */
export async function startEngine(engine: Engine, add: (db: Database) => Promise<void>): Promise<EngineServer> {
  let pg: TestDatabase | undefined;
  if (engine === 'postgres') pg = await freshDatabase('postgres');
  const sample = await prepareSampleDatabase({ dbUrl: pg?.url });
  const db = await openDatabase(sample.dbUrl);
  try {
    await add(db);
  } finally {
    await closeDatabase(db);
  }
  const server = await startNext({ dbUrl: sample.dbUrl, configFile: sample.configFile });
  return {
    sample,
    server,
    async stop() {
      await server.stop();
      await sample.close();
      await pg?.drop();
    },
  };
}

/** Runs the suite on both engines; PostgreSQL says it did not run without a server. */
export function describeOnEngines(name: string, fn: (engine: Engine) => void): void {
  describe(`${name} [sqlite]`, () => fn('sqlite'));
  if (havePostgres) describe(`${name} [postgres]`, () => fn('postgres'));
  else describe(`${name} [postgres]`, () => it('did not run: no PostgreSQL server (set BUILDCOP_TEST_PG_URL)', () => console.warn(`[postgres] "${name}" did not run`)));
}

/** Stores a run of `job` with these files as ingest would (parsed, clustered, its logs and search documents written). */
export async function storeRun(db: Database, run: ProwRun, files: RunFile[]): Promise<void> {
  const read = new RunAssembler({ prow: { url: 'http://127.0.0.1:9' } }, new SignatureIndex([])).assemble({ run, gcsPath: 'gs://bucket/logs/x', files, listing: files.map((f) => ({ path: f.path, size: 'bytes' in f ? f.bytes.length : 0, version: '1' })), problems: [] });
  const [stored] = await storeBatch(db, await Catalog.load(db), [{ run, update: false, wasPending: false, attempts: 0, listedByPass: 1, read }], Math.floor(Date.now() / 1000), await SearchBases.load(db));
  if (stored.outcome !== 'new') throw new Error(`the run was not stored: ${stored.message}`);
}

/**
 * How long /api/health takes, probed one request after the other for as long as `work` runs (at
 * least `min` times): a server whose one thread runs a backtracking regex answers none of them.
 */
export async function healthWhile<T>(baseUrl: string, work: Promise<T>, min = 5): Promise<{ result: T; healthMs: number[] }> {
  let done = false;
  const finished = work.finally(() => (done = true));
  const healthMs: number[] = [];
  while (!done || healthMs.length < min) {
    const t0 = performance.now();
    const r = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
    await r.text();
    if (r.status !== 200) throw new Error(`/api/health answered ${r.status}`);
    healthMs.push(performance.now() - t0);
  }
  return { result: await finished, healthMs };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
