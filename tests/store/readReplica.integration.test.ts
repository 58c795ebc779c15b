// DATABASE_READ_URL on PostgreSQL: answers read the replica, writes and transactions go to
// DATABASE_URL, ingest and bug links never read the replica. The "replica" is another database on the
// same server, a copy of the primary that then lost its older runs (so every answer tells which one it
// read), reached through a role that may only SELECT (so a write sent there would fail).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hotlist, parseHotlistQuery } from '../../lib/answers/hotlist';
import { getStats } from '../../lib/answers/stats';
import { linkBug, listBugs } from '../../lib/bugs/manage';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { readsOnly } from '../../lib/store/readReplica';
import { pruneRunsBefore } from '../../lib/store/retention';
import { worldManifest } from '../helpers/backfill';
import { describeOnPostgres, freshDatabase, type TestDatabase } from '../helpers/databases';
import { configFor, END_ISO, replay, sampleWorld, writeConfig } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');

async function admin<T>(fn: (c: import('pg').Client) => Promise<T>, database?: string): Promise<T> {
  const pg = (await import('pg')).default;
  const u = new URL(process.env.BUILDCOP_TEST_PG_URL!);
  if (database) u.pathname = `/${database}`;
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** `buildcop ARGS` with this environment: exit code and stdout. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describeOnPostgres('DATABASE_READ_URL', () => {
  let server: ReplayServer;
  let dir: string;
  let primary: TestDatabase;
  const replicaName = `buildcop_test_${crypto.randomBytes(5).toString('hex')}`;
  const reader = `buildcop_reader_${crypto.randomBytes(4).toString('hex')}`;
  let readUrl: string;
  let replicaRuns: number;
  let primaryRuns: number;
  const saved = { url: process.env.DATABASE_URL, read: process.env.DATABASE_READ_URL };

  beforeAll(async () => {
    dir = (await sampleWorld()).dir;
    server = await replay(dir);
    primary = await freshDatabase('postgres');
    const db = await openDatabase(primary.url);
    await ingestPass({ config: configFor(dir, server.url), db });
    primaryRuns = Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM run'))!.n);
    await closeDatabase(db);
    // the replica: a copy, then without the runs before the last three days
    await admin((c) => c.query(`CREATE DATABASE ${replicaName} TEMPLATE ${new URL(primary.url).pathname.slice(1)}`));
    const u = new URL(process.env.BUILDCOP_TEST_PG_URL!);
    u.pathname = `/${replicaName}`;
    const copy = await openDatabase(u.toString());
    await pruneRunsBefore(copy, worldManifest(dir).endUnix - 3 * 86_400);
    replicaRuns = Number((await copy.get<{ n: number }>('SELECT COUNT(*) AS n FROM run'))!.n);
    await closeDatabase(copy);
    await admin((c) => c.query(`CREATE ROLE ${reader} LOGIN; GRANT CONNECT ON DATABASE ${replicaName} TO ${reader}`));
    await admin((c) => c.query(`GRANT USAGE ON SCHEMA public TO ${reader}; GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${reader}`), replicaName);
    u.username = reader;
    readUrl = u.toString();
    process.env.DATABASE_URL = primary.url;
    process.env.DATABASE_READ_URL = readUrl;
  }, 300_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved.url;
    process.env.DATABASE_READ_URL = saved.read;
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    if (saved.read === undefined) delete process.env.DATABASE_READ_URL;
    await server?.close();
    await primary?.drop();
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${replicaName} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${reader}`);
    });
  });

  it('tells reads from writes by their statement', () => {
    expect(['SELECT 1', '  with x AS (SELECT 1) SELECT * FROM x', 'select name from job']).toEqual(['SELECT 1', '  with x AS (SELECT 1) SELECT * FROM x', 'select name from job'].filter(readsOnly));
    for (const s of ['INSERT INTO kv VALUES (1, 2)', 'WITH d AS (DELETE FROM run RETURNING id) SELECT * FROM d', 'SELECT pg_advisory_lock(1)', 'SELECT id FROM run FOR UPDATE', "SELECT setval('run_id_seq', 3)", 'UPDATE run SET state = 1', 'BEGIN']) {
      expect(readsOnly(s), s).toBe(false);
    }
  });

  it('answers read the replica; writes and transactions go to DATABASE_URL', async () => {
    expect(replicaRuns).toBeGreaterThan(0);
    expect(replicaRuns).toBeLessThan(primaryRuns);
    const db = await openDatabase();
    const primaryDb = await openDatabase(primary.url);
    try {
      expect(db.url).toBe(readUrl);
      // the counts (Prisma's client) and the hot list (the driver) are the replica's
      expect((await getStats(db)).runs).toBe(replicaRuns);
      expect((await getStats(primaryDb)).runs).toBe(primaryRuns);
      const q = parseHotlistQuery({ window: '7d', at: END_ISO, limit: '10000' });
      const fromReplica = await hotlist(db, q);
      const fromPrimary = await hotlist(primaryDb, q);
      expect(fromReplica.totalItems).toBeGreaterThan(0);
      expect(fromReplica.items.map((i) => [i.test, i.failedRuns])).not.toEqual(fromPrimary.items.map((i) => [i.test, i.failedRuns]));
      // a write through the read URL is refused (the role only reads); through the database it lands on the primary
      const pg = (await import('pg')).default;
      const asReader = new pg.Client({ connectionString: readUrl });
      await asReader.connect();
      await expect(asReader.query("INSERT INTO kv (key, value) VALUES ('w', '1')")).rejects.toThrow(/permission denied/);
      await asReader.end();
      expect(await db.run("INSERT INTO kv (key, value) VALUES ('w', '1')")).toBe(1);
      expect(await primaryDb.get("SELECT value FROM kv WHERE key = 'w'")).toEqual({ value: '1' });
      expect(await db.get("SELECT value FROM kv WHERE key = 'w'")).toBeUndefined(); // not replicated: another database
      expect(await db.tx((sql) => sql.get("SELECT value FROM kv WHERE key = 'w'"))).toEqual({ value: '1' });
      // a bug linked by hand reads back what it wrote from the primary, though the replica never sees it
      const test = fromReplica.items[0].test;
      const linked = await linkBug(db, { test, bug: 'https://bugzilla.example/show_bug.cgi?id=4242' });
      expect(linked.bug.id).toBe('4242');
      expect((await listBugs(primaryDb)).bugs.map((b) => b.id)).toContain('4242');
      expect((await listBugs(db)).bugs.map((b) => b.id)).not.toContain('4242');
    } finally {
      await closeDatabase(db);
      await closeDatabase(primaryDb);
    }
  }, 120_000);

  it('the CLI answers from the replica, and ingest writes and reads DATABASE_URL only', async () => {
    const env = { DATABASE_URL: primary.url, DATABASE_READ_URL: readUrl };
    const stats = await cli(['stats', '--json'], env);
    expect(stats.code, stats.err).toBe(0);
    expect(JSON.parse(stats.out).runs).toBe(replicaRuns);
    const passes = async () => Number((await admin((c) => c.query('SELECT COUNT(*) AS n FROM ingest_pass'), new URL(primary.url).pathname.slice(1))).rows[0].n);
    const before = await passes();
    const ingest = await cli(['ingest', '--once', '--quiet', '--json', '--config', writeConfig(configFor(dir, server.url))], env);
    expect(ingest.code, ingest.err).toBe(0);
    // it knew every run it had stored: nothing new, nothing stored again
    expect(JSON.parse(ingest.out)).toMatchObject({ status: 'ok', runsNew: 0, runsUpdated: 0 });
    expect(await passes()).toBe(before + 1);
    const again = await cli(['stats', '--json', '--db', primary.url], env);
    expect(JSON.parse(again.out).runs).toBe(primaryRuns);
  }, 120_000);

  it('refuses a read URL of another engine, with a message', async () => {
    process.env.DATABASE_READ_URL = 'file:/tmp/buildcop-not-a-replica.db';
    try {
      await expect(openDatabase()).rejects.toThrow(/DATABASE_READ_URL must be a replica of DATABASE_URL, on the same engine: got sqlite for postgres/);
    } finally {
      process.env.DATABASE_READ_URL = readUrl;
    }
  });
});
