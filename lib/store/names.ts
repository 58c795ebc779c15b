// Names of tests and texts of signatures by row id. Both tables only grow and rows never change,
// so test names are cached per database and only rows not seen yet are read.
import type { Database } from './db';
import { selectIn } from './bulk';

const nameCache = new WeakMap<Database, { maxId: number; byId: Map<number, { name: string; hash: string }> }>();

/** Names and public ids of tests, by row id (the map returned may hold more tests). */
export async function testNames(db: Database, ids: number[]): Promise<Map<number, { name: string; hash: string }>> {
  let c = nameCache.get(db);
  if (!c) nameCache.set(db, (c = { maxId: 0, byId: new Map() }));
  if (ids.some((id) => id > c.maxId)) {
    for (const r of await db.all<{ id: number; name: string; hash: string }>('SELECT id, name, hash FROM test WHERE id > ? ORDER BY id', [c.maxId])) {
      c.byId.set(r.id, { name: r.name, hash: r.hash });
      c.maxId = r.id;
    }
  }
  return c.byId;
}

export async function signatureInfo(db: Database, ids: number[]): Promise<Map<number, { hash: string; text: string }>> {
  const rows = await selectIn<{ id: number; hash: string; text: string }>(db, (p) => `SELECT id, hash, text FROM signature WHERE id IN (${p})`, ids);
  return new Map(rows.map((r) => [r.id, { hash: r.hash, text: r.text }]));
}
