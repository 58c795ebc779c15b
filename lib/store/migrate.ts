// Applies the Prisma migrations (prisma/migrations for SQLite, prisma/postgres/migrations for
// PostgreSQL) on first use, without Prisma's native schema engine. It keeps Prisma's own
// `_prisma_migrations` bookkeeping, so `prisma migrate status` and this runner agree.
import crypto from 'node:crypto';
import type { Database, Sql } from './sql';
import { MIGRATIONS } from './generated/migrations';

export interface Migration {
  name: string;
  sql: string;
}

const BOOKKEEPING = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`,
  postgres: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`,
};

export function checksum(sql: string): string {
  return crypto.createHash('sha256').update(sql).digest('hex');
}

async function applied(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql.all<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Map(rows.map((r) => [r.migration_name, r.checksum]));
}

/**
 * Runs fn holding the migration lock, in one transaction: PostgreSQL's advisory lock (concurrent
 * CREATE TABLE IF NOT EXISTS of one table fail on pg_type's unique index otherwise), SQLite's write
 * lock (BEGIN IMMEDIATE, waiting out the busy timeout).
 */
function locked<T>(db: Database, fn: (tx: Sql) => Promise<T>): Promise<T> {
  return db.tx(async (tx) => {
    if (db.dialect === 'postgres') await tx.run('SELECT pg_advisory_xact_lock(727274)');
    return fn(tx);
  });
}

/** Brings the schema up to date. Safe to call from several processes at once. */
export async function migrate(db: Database, migrations: Migration[] = MIGRATIONS[db.dialect]): Promise<string[]> {
  // Nothing is created outside the lock, Prisma's bookkeeping table included.
  await locked(db, (tx) => tx.exec(BOOKKEEPING[db.dialect]));
  const done = await applied(db);
  const pending = migrations.filter((m) => !done.has(m.name));
  for (const m of migrations) {
    const sum = done.get(m.name);
    if (sum && sum !== checksum(m.sql)) {
      throw new Error(`migration ${m.name} was edited after it was applied to this database (checksum differs)`);
    }
  }
  const ran: string[] = [];
  for (const m of pending) {
    await locked(db, async (tx) => {
      // Another process may have applied it meanwhile: re-check under the lock.
      if ((await applied(tx)).has(m.name)) return;
      await tx.exec(m.sql);
      const now = new Date().toISOString();
      await tx.run(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
        [crypto.randomUUID(), checksum(m.sql), now, m.name, now],
      );
      ran.push(m.name);
    });
  }
  return ran;
}
