// PostgreSQL's test_outcome is partitioned by day of `started` (UTC days of Unix seconds; see its
// migration, outcomes_by_day): a day's partition is created before its first row is written, and
// retention drops whole days. SQLite has one table: nothing to do there.
import type { Database, Sql } from './db';

export const DAY_SECONDS = 86_400;

/** The start (Unix seconds) of the UTC day holding `t`. */
export const dayStart = (t: number): number => Math.floor(t / DAY_SECONDS) * DAY_SECONDS;

/** The partition of the day starting at `day`: test_outcome_dYYYYMMDD (as the migration names them). */
export function outcomePartition(day: number): string {
  return `test_outcome_d${new Date(day * 1000).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** Serialises partition changes between processes (an ingester, a benchmark's generator, a migration). */
const PARTITION_LOCK = 727275;

/**
 * The days (their starts) that have a partition, ascending; null when test_outcome is not
 * partitioned (a database its migration has not reached yet: one table, nothing to create or drop).
 */
async function partitionDays(sql: Sql): Promise<number[] | null> {
  const rows = await sql.rows(
    `SELECT p.relkind, pg_get_expr(c.relpartbound, c.oid) FROM pg_class p
     LEFT JOIN pg_inherits i ON i.inhparent = p.oid LEFT JOIN pg_class c ON c.oid = i.inhrelid WHERE p.oid = 'test_outcome'::regclass`,
  );
  if (rows[0]?.[0] !== 'p') return null;
  // FOR VALUES FROM ('1763683200') TO ('1763769600')
  return rows.map(([, bound]) => Number(/FROM \('?(-?\d+)/.exec((bound as string | null) ?? '')?.[1])).filter(Number.isFinite).sort((a, b) => a - b);
}

/**
 * Makes sure the day of every start in `starts` has its partition, before rows of those days are
 * written (an INSERT of a row without one fails). One query when they all exist (each batch of runs
 * asks); a missing day is created as a table of its own and then attached, which locks test_outcome
 * only against other partition changes (SHARE UPDATE EXCLUSIVE), never against reads and writes as
 * CREATE TABLE ... PARTITION OF would (ACCESS EXCLUSIVE). Its own transaction: call it outside the
 * one that writes the rows. Returns the days it created.
 */
export async function ensureOutcomeDays(db: Database, starts: Iterable<number>): Promise<number[]> {
  if (db.dialect !== 'postgres') return [];
  const wanted = new Set<number>();
  for (const t of starts) wanted.add(dayStart(t));
  if (!wanted.size) return [];
  const days = await partitionDays(db);
  if (!days) return [];
  const have = new Set(days);
  if ([...wanted].every((d) => have.has(d))) return [];
  return db.tx(async (tx) => {
    await tx.run('SELECT pg_advisory_xact_lock(?)', [PARTITION_LOCK]);
    const present = new Set(await partitionDays(tx)); // another process may have made some meanwhile
    const created: number[] = [];
    for (const day of [...wanted].sort((a, b) => a - b)) {
      if (present.has(day)) continue;
      const name = outcomePartition(day);
      // IF NOT EXISTS: a table of that name made by hand is attached (or refused, if it holds other days)
      await tx.exec(`CREATE TABLE IF NOT EXISTS "${name}" (LIKE "test_outcome" INCLUDING DEFAULTS)`);
      await tx.exec(`ALTER TABLE "test_outcome" ATTACH PARTITION "${name}" FOR VALUES FROM (${day}) TO (${day + DAY_SECONDS})`);
      created.push(day);
    }
    return created;
  });
}

/**
 * Inside the caller's transaction: drops the partitions of the days that end by `before` (a day's
 * start), whole, and returns their starts. Dropping takes test_outcome's ACCESS EXCLUSIVE lock until
 * the transaction ends (readers wait that long), where deleting the rows of a day (some 1.4 million
 * at OpenShift's scale) would take minutes and leave the space to vacuum.
 */
export async function dropOutcomeDaysBefore(sql: Sql, before: number): Promise<number[]> {
  if (sql.dialect !== 'postgres') return [];
  const old = ((await partitionDays(sql)) ?? []).filter((day) => day + DAY_SECONDS <= before);
  if (!old.length) return [];
  await sql.run('SELECT pg_advisory_xact_lock(?)', [PARTITION_LOCK]);
  for (const day of old) await sql.exec(`DROP TABLE IF EXISTS "${outcomePartition(day)}"`);
  return old;
}
