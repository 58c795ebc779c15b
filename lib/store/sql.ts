// What the store's callers hold: the SQL interface both engines implement (lib/store/db.ts opens them).
import type BetterSqlite3 from 'better-sqlite3';

export type Dialect = 'sqlite' | 'postgres';
export type Param = string | number | bigint | null | Buffer | boolean;

/** Minimal async SQL interface with `?` placeholders on both engines. */
export interface Sql {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string, params?: Param[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: Param[]): Promise<T | undefined>;
  run(sql: string, params?: Param[]): Promise<number>;
  /** Rows as arrays (no per-row objects): for large reads on the analysis path. */
  rows(sql: string, params?: Param[]): Promise<unknown[][]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /** Runs fn in one transaction; nested calls join the outer one. */
  tx<T>(fn: (sql: Sql) => Promise<T>, opts?: TxOptions): Promise<T>;
  /**
   * PostgreSQL only: `sql` as a named prepared statement, parsed and planned once per connection (for
   * the bulk inserts' fixed texts; never for texts built per call). A parameter may be an array.
   */
  prepared?<T>(sql: string, params: (Param | Param[])[]): Promise<T[]>;
}

export interface TxOptions {
  /**
   * PostgreSQL: COMMIT returns before the WAL reaches the disk (synchronous_commit off, this
   * transaction only). A server crash may then lose the last fraction of a second of commits, never
   * consistency: for writes that are read again when missing (ingest re-reads a run it has not stored).
   */
  lazyCommit?: boolean;
}

export interface Database extends Sql {
  readonly url: string;
  close(): Promise<void>;
  /** run when the database is closed (e.g. a Prisma client on the same database) */
  onClose(fn: () => Promise<void>): void;
  /** the raw better-sqlite3 handle (SQLite only), for the bulk write path */
  readonly sqlite?: BetterSqlite3.Database;
}

/** Each table's index of a range of time on SQLite (rollup_test_hour's is its primary key). */
const TIME_INDEXES = { rollup_test_hour: 'sqlite_autoindex_rollup_test_hour_1', test_outcome: 'test_outcome_by_start_idx', run: 'run_by_start_idx' } as const;

/**
 * A table read for a range of time, every test's or job's rows: on SQLite held to the time index.
 * With ANALYZE's statistics its planner may instead skip-scan an index led by the test or the job,
 * a seek per test (an 11-hour range of rollup_test_hour at OpenShift's scale: 3,100 page reads and
 * 100 ms in a new process, against 125 pages through the time index). PostgreSQL: the table as is.
 */
export const byTime = (sql: Pick<Sql, 'dialect'>, table: keyof typeof TIME_INDEXES, alias = ''): string =>
  `${table}${alias ? ` ${alias}` : ''}${sql.dialect === 'sqlite' ? ` INDEXED BY ${TIME_INDEXES[table]}` : ''}`;
