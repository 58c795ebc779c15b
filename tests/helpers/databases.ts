// The databases integration tests run on: SQLite always, PostgreSQL when BUILDCOP_TEST_PG_URL
// points at a server (npm test starts one where PostgreSQL is installed; CI installs it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { decodeTestSet } from '../../lib/store/testSets';

export interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database of the given kind. */
export async function freshDatabase(kind: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const name = `buildcop_test_${crypto.randomBytes(5).toString('hex')}`;
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-db-'));
    return { kind, url: `file:${path.join(dir, `${name}.db`)}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = process.env.BUILDCOP_TEST_PG_URL!;
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    kind,
    url: u.toString(),
    drop: async () => {
      const c = new pg.default.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const havePostgres = !!process.env.BUILDCOP_TEST_PG_URL;

/** Runs the suite once per database kind; PostgreSQL reports "did not run" without a server. */
export function describeEachDatabase(name: string, fn: (kind: 'sqlite' | 'postgres') => void): void {
  describe(`${name} [sqlite]`, () => fn('sqlite'));
  describeOnPostgres(name, () => fn('postgres'));
}

/** A suite of PostgreSQL's alone (replicas, advisory locks); it reports "did not run" without a server. */
export function describeOnPostgres(name: string, fn: () => void): void {
  if (havePostgres) describe(`${name} [postgres]`, fn);
  else {
    describe(`${name} [postgres]`, () => {
      it('did not run: no PostgreSQL server (set BUILDCOP_TEST_PG_URL; npm test starts one where PostgreSQL is installed)', () => {
        console.warn(`[postgres] "${name}" did not run: BUILDCOP_TEST_PG_URL is not set`);
      });
    });
  }
}

export async function open(t: TestDatabase): Promise<Database> {
  return openDatabase(t.url);
}

export { closeDatabase };

/**
 * A logical dump of everything ingest wrote, independent of row ids and ingest times, sorted, so
 * two databases can be compared (uninterrupted vs killed-and-restarted, SQLite vs PostgreSQL).
 */
export async function logicalDump(db: Database): Promise<Record<string, unknown[]>> {
  const tests = new Map((await db.all<{ id: number; name: string }>('SELECT id, name FROM test')).map((t) => [t.id, t.name]));
  const sets = new Map(
    (await db.all<{ id: number; members: Uint8Array }>('SELECT id, members FROM test_set')).map((s) => [
      s.id,
      crypto.createHash('sha1').update([...decodeTestSet(s.members)].map((id) => tests.get(id)).sort().join('\n')).digest('hex'),
    ]),
  );
  const runs = await db.all<Record<string, unknown>>(
    `SELECT j.name AS job, r.build_id, r.state, r.started, r.finished, r.url, r.gcs_path, r.pull, r.base_ref, r.commit_sha, r.payload,
            r.test_set_id, r.passed, r.failed, r.flaked, r.skipped, r.install_failed, r.parse_errors, r.meta, r.fingerprint
     FROM run r JOIN job j ON j.id = r.job_id ORDER BY j.name, r.build_id`,
  );
  for (const r of runs) r.test_set_id = r.test_set_id === null ? null : sets.get(r.test_set_id as number);
  const outcomes = await db.all<Record<string, unknown>>(
    `SELECT j.name AS job, r.build_id, t.name AS test, o.outcome, s.hash AS signature, o.message, o.started
     FROM test_outcome o JOIN run r ON r.id = o.run_id JOIN job j ON j.id = r.job_id JOIN test t ON t.id = o.test_id
     LEFT JOIN signature s ON s.id = o.signature_id ORDER BY j.name, r.build_id, t.name`,
  );
  return {
    jobs: await db.all('SELECT name, type FROM job ORDER BY name'),
    tests: await db.all('SELECT hash, name FROM test ORDER BY hash'),
    signatures: await db.all('SELECT hash, text, first_seen FROM signature ORDER BY hash'),
    runs,
    outcomes,
    parseErrors: await db.all(`SELECT j.name AS job, r.build_id, p.file, p.message FROM parse_error p JOIN run r ON r.id = p.run_id JOIN job j ON j.id = r.job_id ORDER BY 1, 2, 3, 4`),
    pending: await db.all('SELECT job, build_id, state, started FROM pending_run ORDER BY job, build_id'),
  };
}
