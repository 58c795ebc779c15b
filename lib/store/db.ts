// The database connection: SQLite (embedded default) or PostgreSQL, chosen by DATABASE_URL.
// Hot paths and aggregates use the driver directly through this small dialect layer; Prisma is the
// schema, the migrations and the client for ordinary reads and writes (lib/store/prisma.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Pool, PoolClient } from 'pg';
import { migrate, type Migration } from './migrate';
import { postgresPoolSize } from './poolSize';
import { ReadRoutedDatabase } from './readReplica';
import type { Database, Dialect, Param, Sql, TxOptions } from './sql';

export type { Database, Dialect, Param, Sql, TxOptions } from './sql';

export const DEFAULT_SQLITE_URL = 'file:./data/buildcop.db';

export function databaseUrl(explicit?: string): string {
  return explicit ?? process.env.DATABASE_URL ?? DEFAULT_SQLITE_URL;
}

/** a mistake of the user's, shown as its message alone (see lib/cli/main.ts) */
const urlError = (message: string) => Object.assign(new Error(message), { expose: true });

export function dialectOf(url: string): Dialect {
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  // Prisma, the dashboard and the CLI each open their own connection: they would each see another,
  // empty in-memory database
  if (/^(file:)?:memory:/.test(url)) throw urlError('DATABASE_URL: an in-memory SQLite database cannot be shared by buildcop\'s connections; use file:PATH');
  if (url.startsWith('file:')) return 'sqlite';
  throw urlError(`DATABASE_URL must be file:PATH (SQLite) or postgresql://... , got ${JSON.stringify(url)}`);
}

export function sqliteFile(url: string): string {
  const p = url.replace(/^file:/, '').replace(/\?.*$/, '');
  return path.resolve(p);
}

/**
 * Whether a string needs changing to be stored: it holds NUL, which PostgreSQL text cannot hold (an
 * INSERT with one fails, and with it a whole batch of runs or tracker bugs), or a lone surrogate,
 * which is not UTF-8 (SQLite kept its bytes, read back as other characters than were written).
 */
const unstorable = (s: string): boolean => s.includes('\0') || !s.isWellFormed();

/** A parameter as stored: strings without NUL, lone surrogates as U+FFFD; the same on both engines. */
function storable(p: Param): Param {
  return typeof p === 'string' && unstorable(p) ? p.replaceAll('\0', '').toWellFormed() : p;
}

/** The parameters as stored (see storable); the same array when nothing changes. */
export function storableParams(params: Param[]): Param[] {
  for (const p of params) if (typeof p === 'string' && unstorable(p)) return params.map(storable);
  return params;
}

const pgTexts = new Map<string, string>();

/**
 * Converts `?` placeholders to `$1, $2 ...` (no `?` appears inside our SQL string literals). Cached:
 * a batch's multi-row INSERTs repeat the same text with thousands of placeholders.
 */
export function toPgPlaceholders(sql: string): string {
  let text = pgTexts.get(sql);
  if (text === undefined) {
    const parts = sql.split('?');
    text = parts[0];
    for (let i = 1; i < parts.length; i++) text += `$${i}${parts[i]}`;
    if (pgTexts.size >= 500) pgTexts.clear();
    pgTexts.set(sql, text);
  }
  return text;
}

class SqliteDb implements Database {
  readonly dialect = 'sqlite' as const;
  private closers: (() => Promise<void>)[] = [];
  onClose(fn: () => Promise<void>): void {
    this.closers.push(fn);
  }
  private stmts = new Map<string, BetterSqlite3.Statement>();
  private depth = 0;
  constructor(readonly url: string, readonly sqlite: BetterSqlite3.Database) {}

  private prep(sql: string): BetterSqlite3.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.sqlite.prepare(sql);
      if (this.stmts.size > 500) this.stmts.clear();
      this.stmts.set(sql, s);
    }
    return s;
  }
  /** SQLite has no booleans: 1 and 0 */
  private static bind(params: Param[]): Param[] {
    return params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : storable(p)));
  }
  async all<T>(sql: string, params: Param[] = []): Promise<T[]> {
    return this.prep(sql).all(...SqliteDb.bind(params)) as T[];
  }
  async get<T>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return this.prep(sql).get(...SqliteDb.bind(params)) as T | undefined;
  }
  async run(sql: string, params: Param[] = []): Promise<number> {
    return this.prep(sql).run(...SqliteDb.bind(params)).changes;
  }
  async rows(sql: string, params: Param[] = []): Promise<unknown[][]> {
    return this.sqlite.prepare(sql).raw(true).all(...SqliteDb.bind(params)) as unknown[][];
  }
  async exec(script: string): Promise<void> {
    this.sqlite.exec(script);
  }
  async tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    // lazyCommit: SQLite in WAL mode with synchronous = NORMAL commits without a sync already
    if (this.depth > 0) return fn(this);
    // BEGIN IMMEDIATE takes the write lock up front so concurrent writers wait (busy_timeout)
    // instead of failing half-way. The callback may await, but only on this connection.
    this.sqlite.exec('BEGIN IMMEDIATE');
    this.depth++;
    try {
      const result = await fn(this);
      this.sqlite.exec('COMMIT');
      return result;
    } catch (e) {
      if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      throw e;
    } finally {
      this.depth--;
    }
  }
  async close(): Promise<void> {
    for (const fn of this.closers.splice(0)) await fn().catch(() => undefined);
    this.stmts.clear();
    if (this.sqlite.open) this.sqlite.close();
  }
}

/** prepared statements' names, by text: the same text has the same name on every connection */
const statementNames = new Map<string, string>();

class PgConn implements Sql {
  readonly dialect = 'postgres' as const;
  constructor(private client: Pool | PoolClient, private inTx: boolean) {}
  async all<T>(sql: string, params: Param[] = []): Promise<T[]> {
    const r = await this.client.query(toPgPlaceholders(sql), storableParams(params));
    return r.rows as T[];
  }
  async get<T>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async run(sql: string, params: Param[] = []): Promise<number> {
    const r = await this.client.query(toPgPlaceholders(sql), storableParams(params));
    return r.rowCount ?? 0;
  }
  async rows(sql: string, params: Param[] = []): Promise<unknown[][]> {
    const r = await this.client.query({ text: toPgPlaceholders(sql), values: storableParams(params), rowMode: 'array' });
    return r.rows as unknown[][];
  }
  async exec(script: string): Promise<void> {
    await this.client.query(script);
  }
  async prepared<T>(sql: string, params: (Param | Param[])[]): Promise<T[]> {
    let name = statementNames.get(sql);
    if (!name) statementNames.set(sql, (name = `buildcop_${crypto.hash('sha1', sql, 'hex').slice(0, 16)}`));
    const r = await this.client.query({ name, text: toPgPlaceholders(sql), values: params });
    return r.rows as T[];
  }
  async tx<T>(fn: (sql: Sql) => Promise<T>, opts?: TxOptions): Promise<T> {
    if (this.inTx) return fn(this);
    const client = await (this.client as Pool).connect();
    // A checked-out client has no listener of the pool's: a connection lost meanwhile (the server
    // restarting, say) would be an unhandled 'error' event, which ends the process. The query in
    // flight, or the next one, fails with it instead; the client is then discarded, not pooled.
    let broken: Error | undefined;
    const onError = (e: Error) => void (broken ??= e);
    client.on('error', onError);
    try {
      // one round trip either way
      await client.query(opts?.lazyCommit ? 'BEGIN; SET LOCAL synchronous_commit = off' : 'BEGIN');
      const result = await fn(new PgConn(client, true));
      await client.query('COMMIT');
      return result;
    } catch (e) {
      if (!broken) await client.query('ROLLBACK').catch((r: Error) => void (broken ??= r));
      throw e;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}

class PgDb extends PgConn implements Database {
  private closers: (() => Promise<void>)[] = [];
  constructor(readonly url: string, private pool: Pool) {
    super(pool, false);
  }
  onClose(fn: () => Promise<void>): void {
    this.closers.push(fn);
  }
  async close(): Promise<void> {
    for (const fn of this.closers.splice(0)) await fn().catch(() => undefined);
    await this.pool.end();
  }
}

const BUSY_TIMEOUT_MS = 10_000;

/**
 * WAL mode, so the dashboard reads while ingest writes. Switching a new database's file to WAL needs
 * it to itself, and SQLite answers SQLITE_BUSY at once, without its busy handler, to processes that
 * open a new database together (1 in 20 of four at once): they wait their turn, as long as the busy
 * timeout.
 */
async function useWal(db: BetterSqlite3.Database): Promise<void> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, wait * (0.5 + Math.random())));
    }
  }
}

async function openSqlite(url: string): Promise<Database> {
  const file = sqliteFile(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    await useWal(db);
  } catch (e) {
    db.close();
    throw e;
  }
  db.pragma('synchronous = NORMAL'); // durable at each WAL checkpoint; a kill -9 loses no committed run
  db.pragma('foreign_keys = ON');
  db.defaultSafeIntegers(false);
  return new SqliteDb(url, db);
}

/**
 * node-postgres, loaded only for PostgreSQL: a SQLite CLI call does not pay for it. On loading, pg
 * asks whether it runs in a Cloudflare Worker by `navigator.userAgent`, and where there is no
 * `navigator` (Node 20; Node 21 and later define one) by making a `Response`, which loads Node's
 * fetch: 30-40 ms of every PostgreSQL CLI call. A `navigator` as Node 21's stands in meanwhile.
 */
async function importPg(): Promise<typeof import('pg')> {
  const g = globalThis as { navigator?: unknown };
  if ('navigator' in g) return import('pg');
  g.navigator = { userAgent: `Node.js/${process.versions.node.split('.')[0]}` };
  try {
    return await import('pg');
  } finally {
    delete g.navigator;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pg } = await importPg();
  // bigint (20) and numeric (1700) arrive as strings by default; our values fit a double.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  pg.types.setTypeParser(1700, (v: string) => Number(v));
  // a server that does not answer (not one that refuses) fails a connection after 10 s instead of never
  const pool = new pg.Pool({
    connectionString: url,
    max: postgresPoolSize(),
    connectionTimeoutMillis: 10_000,
    // No JIT compilation: our reads are index ranges summed, and above its cost threshold PostgreSQL
    // compiled them first (75 ms of a 365 ms read of a day's rollup). Parallel workers only for scans
    // ten times the default's size: a partial day's outcomes of one release's jobs (half a million
    // index entries) took 125-440 ms on three processes where one alone takes 58-170 ms, the
    // workers taking the cores the answers' own threads run on. Set before a new connection's first
    // query; a server without a setting, or a pooler refusing SET, keeps its own.
    onConnect: async (client) => {
      for (const setting of ['jit = off', 'parallel_setup_cost = 10000']) await client.query(`SET ${setting}`).catch(() => undefined);
    },
  });
  pool.on('error', () => undefined); // an idle client's network error must not crash the process
  return new PgDb(url, pool);
}

// One per process, shared by every bundle that holds a copy of this module (Next.js bundles its proxy
// apart from the pages and routes): one pool per database, migrated once.
const opened: Map<string, Promise<Database>> = ((globalThis as { [k: symbol]: unknown })[Symbol.for('buildcop.openedDatabases')] ??= new Map()) as Map<string, Promise<Database>>;

/** Opens a connection (pool) to `url`, and migrates it unless it is a replica's (`migrations` null). */
async function connect(url: string, migrations: Migration[] | undefined | null): Promise<Database> {
  const db = dialectOf(url) === 'sqlite' ? await openSqlite(url) : await openPostgres(url);
  if (migrations === null) return db;
  try {
    await migrate(db, migrations);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
  return db;
}

/** The cache key of a database opened with its reads on a replica (closeDatabase finds it by it). */
const routedKey = (url: string, readUrl: string) => `${url} reads ${readUrl}`;

/**
 * Opens (once per URL per process) and migrates the database. `migrations`: those to apply instead
 * of all (a test makes a database as an earlier version did). Without an explicit URL and with
 * DATABASE_READ_URL set, reads outside transactions go to that replica (lib/store/readReplica.ts):
 * the web tier's and the CLI's answers; an explicit URL (`--db`, ingest) is that database alone.
 */
export function openDatabase(explicitUrl?: string, migrations?: Migration[]): Promise<Database> {
  const url = databaseUrl(explicitUrl);
  const readUrl = explicitUrl === undefined ? process.env.DATABASE_READ_URL || undefined : undefined;
  const key = readUrl ? routedKey(url, readUrl) : url;
  let p = opened.get(key);
  if (!p) {
    p = (async () => {
      if (!readUrl) return connect(url, migrations);
      if (dialectOf(readUrl) !== dialectOf(url)) throw urlError(`DATABASE_READ_URL must be a replica of DATABASE_URL, on the same engine: got ${dialectOf(readUrl)} for ${dialectOf(url)}`);
      const primary = await connect(url, migrations);
      return new ReadRoutedDatabase(primary, await connect(readUrl, null));
    })();
    p.catch(() => opened.delete(key));
    opened.set(key, p);
  }
  return p;
}

// Errors that say the database cannot be reached now, rather than that a query is wrong: the
// network (node-postgres), PostgreSQL refusing or ending connections (57P0x shutting down or
// starting, 53300 too many connections, 08xxx connection exceptions), SQLite unable to open or locked
// past its busy timeout.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED',
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', 'SQLITE_CANTOPEN', 'SQLITE_BUSY',
]);

// node-postgres gives a connection lost mid-session no code, only these messages.
const CONNECTION_LOST = /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect)$/;

/** Whether an error means the database is unavailable for now (worth a 503 and a retry). */
export function isDatabaseUnavailable(e: unknown): boolean {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) || (typeof message === 'string' && CONNECTION_LOST.test(message));
}

/** Closes a database opened with openDatabase and forgets it. */
export async function closeDatabase(db: Database): Promise<void> {
  opened.delete(db instanceof ReadRoutedDatabase ? routedKey(db.primary.url, db.url) : db.url);
  await db.close();
}
