// DATABASE_READ_URL: a read replica (a PostgreSQL hot standby, say) the answers read from, so that web
// replicas scale reads without loading the primary. Writes (bug links, forms, the ingest log's
// bookkeeping) and every transaction go to DATABASE_URL. The replica is never migrated (a standby
// refuses writes): the primary's migrations reach it by replication. Ingest never reads from it: it
// must read back what it wrote (lib/cli/ingest.ts opens DATABASE_URL alone).
import type { Database, Param, Sql, TxOptions } from './sql';

/**
 * A statement the replica can answer: one that only reads. Anything else, and anything that names a
 * write, a lock or a sequence, goes to the primary (a false "write" only costs a round trip there).
 */
export function readsOnly(sql: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|MERGE|FOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE)|pg_advisory\w*|nextval|setval)\b/i.test(sql);
}

/** Reads outside transactions from `replica`, everything else from `primary`. */
export class ReadRoutedDatabase implements Database {
  readonly dialect: Database['dialect'];
  /**
   * the replica's: what the answers read, so what their caches are keyed by and what their Prisma
   * client (counts) connects to (writes go to primary.url)
   */
  readonly url: string;
  readonly prepared: Sql['prepared'];

  constructor(
    readonly primary: Database,
    readonly replica: Database,
  ) {
    this.dialect = primary.dialect;
    this.url = replica.url;
    this.prepared = primary.prepared?.bind(primary);
  }

  get sqlite(): Database['sqlite'] {
    return this.primary.sqlite;
  }

  private on(sql: string): Database {
    return readsOnly(sql) ? this.replica : this.primary;
  }

  all<T = Record<string, unknown>>(sql: string, params?: Param[]): Promise<T[]> {
    return this.on(sql).all<T>(sql, params);
  }
  get<T = Record<string, unknown>>(sql: string, params?: Param[]): Promise<T | undefined> {
    return this.on(sql).get<T>(sql, params);
  }
  rows(sql: string, params?: Param[]): Promise<unknown[][]> {
    return this.on(sql).rows(sql, params);
  }
  run(sql: string, params?: Param[]): Promise<number> {
    return this.primary.run(sql, params);
  }
  exec(script: string): Promise<void> {
    return this.primary.exec(script);
  }
  tx<T>(fn: (sql: Sql) => Promise<T>, opts?: TxOptions): Promise<T> {
    return this.primary.tx(fn, opts);
  }
  onClose(fn: () => Promise<void>): void {
    this.primary.onClose(fn);
  }
  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.replica.close()]);
  }
}

/** The database writes read back from: the primary of a database whose reads go to a replica. */
export const primaryOf = (db: Database): Database => (db instanceof ReadRoutedDatabase ? db.primary : db);
