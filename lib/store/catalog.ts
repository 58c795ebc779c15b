// In-memory maps of the small, append-only tables (jobs, tests, test sets, signatures) so the write
// path resolves names to ids without a query per name. Loaded once per ingest pass.
import { testId } from '../ids';
import type { StoredSignature } from '../analysis/signatures';
import type { Param, Sql } from './db';
import { insertMany, selectIn } from './bulk';
import { encodeTestSet, testSetHash } from './testSets';

/** The id of a row inserted if new: one statement, and a second only when it already existed. */
async function insertOrSelect(sql: Sql, insert: string, values: Param[], select: string, keys: Param[]): Promise<number> {
  const inserted = await sql.get<{ id: number }>(`${insert} RETURNING id`, values);
  return inserted ? inserted.id : (await sql.get<{ id: number }>(select, keys))!.id;
}

export class Catalog {
  private jobs = new Map<string, number>();
  private tests = new Map<string, number>();
  /** name -> id for names seen this pass: saves hashing every name of every run */
  private testsByName = new Map<string, number>();
  private testSets = new Map<string, number>();
  private signatureIds = new Map<string, number>();
  /** the stored signatures in creation order, to seed the clustering index */
  signatures: StoredSignature[] = [];

  static async load(db: Sql): Promise<Catalog> {
    const c = new Catalog();
    for (const r of await db.all<{ id: number; name: string }>('SELECT id, name FROM job')) c.jobs.set(r.name, r.id);
    for (const r of await db.all<{ id: number; hash: string }>('SELECT id, hash FROM test')) c.tests.set(r.hash, r.id);
    for (const r of await db.all<{ id: number; hash: string }>('SELECT id, hash FROM test_set')) c.testSets.set(r.hash, r.id);
    const sigs = await db.all<{ id: number; hash: string; text: string }>('SELECT id, hash, text FROM signature ORDER BY id');
    for (const s of sigs) c.signatureIds.set(s.hash, s.id);
    c.signatures = sigs;
    return c;
  }

  async jobId(sql: Sql, name: string, type: string, now: number): Promise<number> {
    const known = this.jobs.get(name);
    if (known !== undefined) return known;
    const id = await insertOrSelect(sql, 'INSERT INTO job (name, type, first_seen) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [name, type, now], 'SELECT id FROM job WHERE name = ?', [name]);
    this.jobs.set(name, id);
    return id;
  }

  /** Ids of the named tests, creating the missing ones. */
  async testIds(sql: Sql, names: string[], now: number): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing: { name: string; hash: string }[] = [];
    for (const name of names) {
      const cached = this.testsByName.get(name);
      if (cached !== undefined) {
        out.set(name, cached);
        continue;
      }
      const hash = testId(name);
      const id = this.tests.get(hash);
      if (id !== undefined) {
        out.set(name, id);
        this.testsByName.set(name, id);
      } else missing.push({ name, hash });
    }
    if (missing.length) {
      await insertMany(sql, 'test', ['hash', 'name', 'first_seen'], missing.map((m) => [m.hash, m.name, now]), 'ON CONFLICT (hash) DO NOTHING');
      const rows = await selectIn<{ id: number; hash: string }>(sql, (p) => `SELECT id, hash FROM test WHERE hash IN (${p})`, missing.map((m) => m.hash));
      const byHash = new Map(rows.map((r) => [r.hash, r.id]));
      for (const m of missing) {
        const id = byHash.get(m.hash)!;
        this.tests.set(m.hash, id);
        this.testsByName.set(m.name, id);
        out.set(m.name, id);
      }
    }
    return out;
  }

  /** Id of the set of these tests, creating it if new. */
  async testSetId(sql: Sql, ids: number[]): Promise<number> {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    const members = encodeTestSet(sorted);
    const hash = testSetHash(members);
    const known = this.testSets.get(hash);
    if (known !== undefined) return known;
    const id = await insertOrSelect(sql, 'INSERT INTO test_set (hash, size, members) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING', [hash, sorted.length, members], 'SELECT id FROM test_set WHERE hash = ?', [hash]);
    this.testSets.set(hash, id);
    return id;
  }

  /** The id of a signature the clustering index chose, creating its row if new. */
  async signatureId(sql: Sql, sig: { hash: string; text: string }, firstSeen: number): Promise<number> {
    const known = this.signatureIds.get(sig.hash);
    if (known !== undefined) return known;
    const id = await insertOrSelect(sql, 'INSERT INTO signature (hash, text, first_seen) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING', [sig.hash, sig.text, firstSeen], 'SELECT id FROM signature WHERE hash = ?', [sig.hash]);
    this.signatureIds.set(sig.hash, id);
    return id;
  }

  /** After a rolled-back transaction: forget ids that may not have been committed. */
  async reload(db: Sql): Promise<void> {
    const fresh = await Catalog.load(db);
    Object.assign(this, fresh);
  }
}
