// Room kept on a SQLite database's filesystem for writing down that it is full. On a full disk the
// write that records a pass's end (failed, with the runs refused) needs a few pages of WAL, and the
// runs that filled the disk took them (1 pass in 4 on a 1 MB filesystem could not be recorded). A
// small file next to the database is made at a pass's start; when the database answers SQLITE_FULL,
// it is removed to make that room, and made again by a later pass once there is space.
import fs from 'node:fs';
import { sqliteFile, type Database } from './db';

const RESERVE_BYTES = 256 * 1024;

const reserveFile = (db: Database) => `${sqliteFile(db.url)}-reserve`;

/** Makes the reserve where it is missing (SQLite only); never fails: without room there is none. */
export function keepReserve(db: Database): void {
  if (db.dialect !== 'sqlite') return;
  const file = reserveFile(db);
  try {
    if (fs.statSync(file, { throwIfNoEntry: false })?.size === RESERVE_BYTES) return;
    fs.writeFileSync(file, Buffer.alloc(RESERVE_BYTES));
  } catch {
    fs.rmSync(file, { force: true }); // a part written is no reserve, and takes room
  }
}

/** Whether e is SQLite's "database or disk is full", and the reserve was there to remove. */
export function releaseReserveFor(db: Database, e: unknown): boolean {
  if (db.dialect !== 'sqlite' || (e as { code?: unknown } | null)?.code !== 'SQLITE_FULL') return false;
  try {
    fs.unlinkSync(reserveFile(db));
    return true;
  } catch {
    return false;
  }
}
