// The Prisma client for a database, for the ordinary reads and writes (counts, the ingest log,
// pending runs). The same schema is generated for both engines (prisma/schema.prisma and its
// PostgreSQL twin); the hot paths (bulk writes, window loads) go through the driver in db.ts.
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from './generated/sqlite/client';
import { PrismaClient as PostgresClient } from './generated/postgres/client';
import { sqliteFile, type Database } from './db';

/** Both generated clients have the same models; the SQLite one's type stands for either. */
export type Prisma = InstanceType<typeof SqliteClient>;

const clients = new WeakMap<Database, Prisma>();

export function prismaFor(db: Database): Prisma {
  let client = clients.get(db);
  if (!client) {
    client =
      db.dialect === 'sqlite'
        ? new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: `file:${sqliteFile(db.url)}` }) })
        : (new PostgresClient({ adapter: new PrismaPg({ connectionString: db.url }) }) as unknown as Prisma);
    clients.set(db, client);
    db.onClose(() => client!.$disconnect());
  }
  return client;
}
