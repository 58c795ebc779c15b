// What `retention` removes in each pass: runs that started before its cutoff, with everything that
// hangs off them. One function, so tables that summarise runs (rollups) are pruned in the same place.
import type { Sql } from './db';
import { dayStart, dropOutcomeDaysBefore } from './partitions';
import { dropEmptyRollups, rollUp } from './rollups';

export interface Pruned {
  runs: number;
  pendingRuns: number;
  /**
   * The days (their starts, Unix seconds) whose outcomes went whole, as one partition each
   * (PostgreSQL; none on SQLite, where every outcome row is deleted with its run)
   */
  outcomeDaysDropped: number[];
}

/**
 * Deletes the runs started before `cutoff` (Unix seconds) with their outcomes and parse errors (ON
 * DELETE CASCADE), and the pending runs started before it, in one transaction. The rollups go first,
 * while the runs' outcomes are there to say what to take away. Then, on PostgreSQL, the whole days
 * before the cutoff's day drop their outcome partitions (the cascade from their runs then finds
 * nothing to delete); the runs of the cutoff's own day before it are deleted row by row, outcomes
 * with them. The catalog tables (jobs, tests, test sets, signatures) keep their rows: ids stay
 * stable, and first_seen stays the first time a run showed them.
 */
export async function pruneRunsBefore(sql: Sql, cutoff: number): Promise<Pruned> {
  return sql.tx(async (tx) => {
    const ids = (await tx.rows('SELECT id FROM run WHERE started < ?', [cutoff])).map(([id]) => Number(id));
    if (ids.length) {
      await dropEmptyRollups(tx, await rollUp(tx, ids, -1));
    }
    const outcomeDaysDropped = await dropOutcomeDaysBefore(tx, dayStart(cutoff));
    return {
      runs: await tx.run('DELETE FROM run WHERE started < ?', [cutoff]),
      pendingRuns: await tx.run('DELETE FROM pending_run WHERE started < ?', [cutoff]),
      outcomeDaysDropped,
    };
  });
}
