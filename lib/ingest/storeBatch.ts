// Storing the runs a pass has read, several in one transaction: the commits (a WAL write each, on
// PostgreSQL a flush) are few, and a kill -9 loses whole runs only (the next pass reads them again).
// Without a savepoint per run (on PostgreSQL, two more round trips each): when the database refuses
// a run, the batch rolls back and its runs are stored one by one, so only that run is kept pending.
import type { ProwRun } from '../parse/types';
import type { Catalog } from '../store/catalog';
import type { Database, Sql } from '../store/db';
import { writeRun } from '../store/runs';
import { FINISHED_STATES } from './assemble';
import { upsertPending } from './bookkeeping';
import type { AssembledRun } from './runReader';

export interface RunToStore {
  run: ProwRun;
  /** an earlier version is stored */
  update: boolean;
  /** it has a pending_run row */
  wasPending: boolean;
  /** what reading it gave: the run, or why it could not be read */
  read: AssembledRun | Error;
}

export interface StoredRun {
  run: ProwRun;
  outcome: 'new' | 'updated' | 'pending' | 'failed';
  testResults: number;
  parseErrors: number;
  /** why it failed (it is kept pending and retried by a later pass) */
  message?: string;
}

async function storeOne(sql: Sql, catalog: Catalog, item: RunToStore, now: number): Promise<StoredRun> {
  const { run, read } = item;
  const none = { run, testResults: 0, parseErrors: 0 };
  if (read instanceof Error) {
    await upsertPending(sql, run, now, read.message);
    return { ...none, outcome: 'failed', message: read.message };
  }
  const rec = read.record;
  if (!FINISHED_STATES.has(rec.state) || (run.state === 'pending' && !rec.finished)) {
    await upsertPending(sql, run, now);
    return { ...none, outcome: 'pending' };
  }
  const testResults = await writeRun(sql, catalog, read, now, { replace: item.update, wasPending: item.wasPending });
  return { run, outcome: item.update ? 'updated' : 'new', testResults, parseErrors: rec.problems.length };
}

/** Stores the runs, in order. Throws only when the database cannot be written at all. */
export async function storeBatch(db: Database, catalog: Catalog, items: RunToStore[], now: number): Promise<StoredRun[]> {
  try {
    return await db.tx(async (sql) => {
      const out: StoredRun[] = [];
      for (const item of items) out.push(await storeOne(sql, catalog, item, now));
      return out;
    });
  } catch {
    // Rolled back: ids the catalog learnt in the batch may not exist. One by one now.
    await catalog.reload(db);
  }
  const out: StoredRun[] = [];
  for (const item of items) {
    try {
      out.push(await db.tx((sql) => storeOne(sql, catalog, item, now)));
    } catch (e) {
      await catalog.reload(db);
      const message = `storing failed: ${(e as Error).message}`;
      // if even this fails, the database is unusable: the pass stops with that error
      await upsertPending(db, item.run, now, message);
      out.push({ run: item.run, outcome: 'failed', testResults: 0, parseErrors: 0, message });
    }
  }
  return out;
}
