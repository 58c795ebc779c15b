// Storing the runs a pass has read, several in one transaction and in a few statements: the commits
// (a WAL write each, on PostgreSQL a flush) and round trips are few, and a kill -9 loses whole runs
// only (the next pass reads them again). Without a savepoint per run (on PostgreSQL, two more round
// trips each): when the database refuses a run, the batch rolls back and its runs are stored one by
// one, so only that run is kept pending.
import type { ProwRun } from '../parse/types';
import type { Catalog } from '../store/catalog';
import { isDatabaseUnavailable, type Database, type Sql } from '../store/db';
import { ensureOutcomeDays } from '../store/partitions';
import { writeRuns, type KnownRun, type RunToWrite } from '../store/runs';
import type { SearchBases } from '../store/searchIndex';
import { FINISHED_STATES } from './assemble';
import { upsertPending } from './bookkeeping';
import type { AssembledRun } from '../store/runs';

export interface RunToStore {
  run: ProwRun;
  /** an earlier version is stored */
  update: boolean;
  /** passes before this one that read it and missed a file */
  readAttempts?: number;
  /** it has a pending_run row */
  wasPending: boolean;
  /** tries before this one that could not take it (its pending_run row's) */
  attempts: number;
  /** the pass whose Deck listing has it; 0 when Deck no longer lists it */
  listedByPass: number;
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
  /** failed because the database refused to store it: what it answered (else it could not be read) */
  notStored?: string;
  /** new or updated: the run as stored (see knownRuns) */
  known?: KnownRun;
}

// A run committed but lost in a crash of the database server is read again by the next pass, as
// one never stored: its commit need not wait for the disk (on PostgreSQL; see TxOptions).
const LAZY = { lazyCommit: true };

const failedTry = (item: RunToStore, error: string) => ({ attempts: item.attempts + 1, error, listedByPass: item.listedByPass });

/** Stores the runs inside the caller's transaction: all runs read in one go, the others pending. */
async function storeAll(sql: Sql, catalog: Catalog, bases: SearchBases, items: RunToStore[], now: number): Promise<StoredRun[]> {
  const out: StoredRun[] = [];
  const writes: RunToWrite[] = [];
  for (const item of items) {
    const { run, read } = item;
    const none = { run, testResults: 0, parseErrors: 0 };
    if (read instanceof Error) {
      await upsertPending(sql, [{ run, tried: failedTry(item, read.message) }], now);
      out.push({ ...none, outcome: 'failed', message: read.message });
    } else if (!FINISHED_STATES.has(read.record.state) || (run.state === 'pending' && !read.record.finished)) {
      // a run Deck no longer lists, whose finished.json was listed but gave no result
      await upsertPending(sql, [{ run, tried: failedTry(item, 'not finished: its finished.json gave no result') }], now);
      out.push({ ...none, outcome: 'pending' });
    } else {
      const { record } = read;
      const readAttempts = record.incomplete ? (item.readAttempts ?? 0) + 1 : 0;
      if (record.incomplete) record.meta.readAttempts = readAttempts;
      writes.push({ assembled: read, replace: item.update, wasPending: item.wasPending });
      const known = { state: record.state, incomplete: record.incomplete, readAttempts, ingestedAt: now, started: record.started };
      out.push({ run, outcome: item.update ? 'updated' : 'new', testResults: record.results.length, parseErrors: record.problems.length, known });
    }
  }
  await writeRuns(sql, catalog, writes, now, bases);
  return out;
}

/**
 * Stores the runs, in order. Throws only when the database cannot be written at all, or cannot be
 * reached (a lost connection, a server restarting): then the pass fails, and its runs, neither
 * stored nor marked as tried, are read again by the next. `bases`: the pass's search bases.
 */
export async function storeBatch(db: Database, catalog: Catalog, items: RunToStore[], now: number, bases: SearchBases): Promise<StoredRun[]> {
  // the day partitions their outcomes go to (PostgreSQL), in a transaction before theirs; when the
  // database refuses one (a full disk, say), the runs of that day are refused, and say why
  let noPartition: Error | undefined;
  await ensureOutcomeDays(db, items.flatMap((item) => (item.read instanceof Error ? [] : [item.read.record.started]))).catch((e: Error) => {
    if (isDatabaseUnavailable(e)) throw e;
    noPartition = e;
  });
  const forgetUncommitted = async () => {
    await catalog.reload(db);
    await bases.reload(db);
  };
  try {
    return await db.tx((sql) => storeAll(sql, catalog, bases, items, now), LAZY);
  } catch (e) {
    if (isDatabaseUnavailable(e)) throw e;
    // Rolled back: ids the catalog learnt and base trigrams the bases took in the batch may not exist. One by one now.
    await forgetUncommitted();
  }
  const out: StoredRun[] = [];
  for (const item of items) {
    try {
      out.push(...(await db.tx((sql) => storeAll(sql, catalog, bases, [item], now), LAZY)));
    } catch (e) {
      if (isDatabaseUnavailable(e)) throw e;
      await forgetUncommitted();
      const refusal = noPartition && /^no partition of relation/.test((e as Error).message) ? `${(e as Error).message} (creating it failed: ${noPartition.message})` : (e as Error).message;
      const message = `storing failed: ${refusal}`;
      try {
        await upsertPending(db, [{ run: item.run, tried: failedTry(item, message) }], now);
      } catch {
        // the run's own values may be what the database refuses (then Deck lists it again next
        // pass); only a database that answers nothing stops the pass, with its error
        await db.get('SELECT 1');
      }
      out.push({ run: item.run, outcome: 'failed', testResults: 0, parseErrors: 0, message, notStored: refusal });
    }
  }
  return out;
}
