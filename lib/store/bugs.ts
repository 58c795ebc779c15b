// Bug rows: upsert of fetched bugs, what is known of a tracker's bugs, refresh cursors in kv.
import { joinComments, type Tracker, type TrackerBug } from '../sources/trackerBug';
import { writeKv } from './kv';
import { selectIn } from './bulk';
import type { Sql } from './db';
import { writeBugDocs } from './searchIndex';
import { GramCollector } from './searchGrams';

export interface StoredBug {
  id: number;
  tracker: Tracker;
  bug_id: string;
  url: string;
  summary: string;
  status: string;
  resolution: string;
  last_change: number | null;
  closed_at: number | null;
  fetched_at: number;
}

const UPSERT = `INSERT INTO bug (tracker, bug_id, url, summary, status, resolution, description, comments, component, last_change, closed_at, fetched_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (tracker, bug_id) DO UPDATE SET url = excluded.url, summary = excluded.summary, status = excluded.status,
    resolution = excluded.resolution, description = excluded.description, comments = excluded.comments,
    component = excluded.component, last_change = excluded.last_change, closed_at = excluded.closed_at, fetched_at = excluded.fetched_at`;

let bugGrams: GramCollector | undefined;

/** The trigrams search finds a bug by: those of its summary, description and comments. */
export function bugTextCodes(summary: string, description: string, comments: string): Int32Array {
  bugGrams ??= new GramCollector();
  for (const t of [summary, description, comments]) bugGrams.addString(t);
  return bugGrams.take();
}

/** Inserts or updates bugs (never deletes: links hang off bug rows), and their search documents. */
export async function upsertBugs(db: Sql, bugs: TrackerBug[], now: number): Promise<void> {
  if (!bugs.length) return;
  await db.tx(async (sql) => {
    const docs: { pk: number; codes: Int32Array }[] = [];
    for (const b of bugs) {
      const comments = joinComments(b.comments);
      const row = await sql.get<{ id: number }>(`${UPSERT} RETURNING id`, [
        b.tracker, b.bugId, b.url, b.summary, b.status, b.resolution, b.description, comments, b.component,
        b.lastChange, b.closedAt, now,
      ]);
      docs.push({ pk: row!.id, codes: bugTextCodes(b.summary, b.description, comments) });
    }
    await writeBugDocs(sql, docs);
  });
}

/** A bug known only by reference (linked by hand before any refresh saw it); a refresh fills it in. */
export async function ensureBugStub(db: Sql, tracker: Tracker, bugId: string, url: string): Promise<number> {
  await db.run(
    `INSERT INTO bug (tracker, bug_id, url, fetched_at) VALUES (?, ?, ?, 0) ON CONFLICT (tracker, bug_id) DO NOTHING`,
    [tracker, bugId, url],
  );
  return (await db.get<{ id: number }>('SELECT id FROM bug WHERE tracker = ? AND bug_id = ?', [tracker, bugId]))!.id;
}

export async function findBug(db: Sql, tracker: string, bugId: string): Promise<StoredBug | undefined> {
  return db.get<StoredBug>(
    'SELECT id, tracker, bug_id, url, summary, status, resolution, last_change, closed_at, fetched_at FROM bug WHERE tracker = ? AND bug_id = ?',
    [tracker, bugId],
  );
}

/** last change and close time of a tracker's stored bugs (for skipping unchanged ones) */
export async function knownBugs(db: Sql, tracker: Tracker, idPrefix = ''): Promise<Map<string, { lastChange: number | null; closedAt: number | null }>> {
  const rows = await db.all<{ bug_id: string; last_change: number | null; closed_at: number | null; fetched_at: number }>(
    'SELECT bug_id, last_change, closed_at, fetched_at FROM bug WHERE tracker = ?',
    [tracker],
  );
  const out = new Map<string, { lastChange: number | null; closedAt: number | null }>();
  for (const r of rows) {
    if (idPrefix && !r.bug_id.startsWith(idPrefix)) continue;
    // a stub was never fetched: whatever its time, fetch it
    out.set(r.bug_id, { lastChange: r.fetched_at ? r.last_change : null, closedAt: r.closed_at });
  }
  return out;
}

/**
 * Bugs a refresh fetches by id: those linked by hand before any refresh saw them, and those linked by
 * hand that were last fetched before `staleBefore` (the configured query may never return them, so
 * their status would otherwise stay what it was when they were linked).
 */
export async function bugIdsToFetch(db: Sql, tracker: Tracker, staleBefore: number): Promise<string[]> {
  const rows = await db.all<{ bug_id: string }>(
    `SELECT b.bug_id FROM bug b WHERE b.tracker = ? AND (b.fetched_at = 0 OR (b.fetched_at < ?
       AND EXISTS (SELECT 1 FROM bug_link l WHERE l.bug_pk = b.id AND l.manual = 1 AND l.removed = 0))) ORDER BY b.bug_id`,
    [tracker, staleBefore],
  );
  return rows.map((r) => r.bug_id);
}

/** test hashes per signature hash, from the outcomes that carry it */
export async function testsOfSignatures(db: Sql, sigHashes: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!sigHashes.length) return out;
  const ids = await selectIn<{ id: number; hash: string }>(db, (p) => `SELECT id, hash FROM signature WHERE hash IN (${p})`, sigHashes);
  const hashOf = new Map(ids.map((r) => [r.id, r.hash]));
  const rows = await selectIn<{ signature_id: number; hash: string }>(
    db,
    (p) => `SELECT DISTINCT o.signature_id, t.hash FROM test_outcome o JOIN test t ON t.id = o.test_id WHERE o.signature_id IN (${p})`,
    ids.map((r) => r.id),
  );
  for (const r of rows) {
    const s = hashOf.get(r.signature_id)!;
    let list = out.get(s);
    if (!list) out.set(s, (list = []));
    list.push(r.hash);
  }
  return out;
}

export async function testsOfSignature(db: Sql, sigHash: string): Promise<string[]> {
  return (await testsOfSignatures(db, [sigHash])).get(sigHash) ?? [];
}

// ---- cursors ----------------------------------------------------------------------------------

export interface Cursor {
  /** Unix seconds: the next refresh asks for changes at or after this */
  since: number;
  /** what the cursor was made for (URL and query): another source starts over */
  source: string;
}

export async function readCursor(db: Sql, key: string, source: string): Promise<number | null> {
  const row = await db.get<{ value: string }>('SELECT value FROM kv WHERE key = ?', [key]);
  if (!row) return null;
  try {
    const c = JSON.parse(row.value) as Cursor;
    return c.source === source && typeof c.since === 'number' ? c.since : null;
  } catch {
    return null;
  }
}

export async function writeCursor(db: Sql, key: string, cursor: Cursor): Promise<void> {
  await writeKv(db, key, cursor);
}
