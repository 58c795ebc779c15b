// What a pass of `ingest --interval` built from the whole history (the known runs, the catalog, the
// bug linking indexes), kept for the next pass on the same database object instead of read and built
// again, and how a pass tells that what was kept still matches the database.
import type { Database, Sql } from './db';

/**
 * One kind of kept state, per database object. A pass takes it at its start, so a pass that fails
 * leaves none (what it held may not all be committed), and keeps it once it has completed.
 */
export class KeptPerDatabase<T> {
  private readonly kept = new WeakMap<Database, T>();

  take(db: Database): T | undefined {
    const value = this.kept.get(db);
    this.kept.delete(db);
    return value;
  }

  keep(db: Database, value: T): void {
    this.kept.set(db, value);
  }
}

export interface TableState {
  count: number;
  /** the newest row's key and id ('' and 0 when empty) */
  newest: [string, number];
}

/**
 * Each table's row count and newest row (by id, with its `key` column), in one query: what tells
 * whether rows read before are all a table holds (see holdsJust).
 */
export async function tableStates(db: Sql, tables: [table: string, key: string][]): Promise<TableState[]> {
  const [row] = await db.rows(`SELECT ${tables.map(([t, key]) => `(SELECT COUNT(*) FROM ${t}), (SELECT MAX(id) FROM ${t}), (SELECT ${key} FROM ${t} ORDER BY id DESC LIMIT 1)`).join(', ')}`);
  return tables.map((_, k) => ({ count: Number(row[3 * k]), newest: [(row[3 * k + 2] as string | null) ?? '', Number(row[3 * k + 1] ?? 0)] }));
}

/**
 * Whether a table in this state holds exactly the `count` rows read, the newest of them `newest` (key
 * and id). Rows of the tables this is used on are never deleted, so equal counts mean the same rows;
 * the newest row is compared too, against a database emptied and filled again.
 */
export function holdsJust(state: TableState, count: number, newest: [string, number]): boolean {
  return state.count === count && (count === 0 || (state.newest[0] === newest[0] && state.newest[1] === newest[1]));
}
