// The rollups as they must be: recomputed from the stored runs by the same aggregation, for tests that
// check ingest, backfill and retention kept them exact.
import { expect } from 'vitest';
import type { Database } from '../../lib/store/db';
import { ROLLUP_TABLES } from '../../lib/store/rollups';

const key = (r: unknown[]) => r.map(Number).join('|');

/** Asserts every rollup table equals its aggregation over the stored runs (rows counting nothing aside). */
export async function expectRollupsExact(db: Database): Promise<void> {
  for (const t of ROLLUP_TABLES) {
    const cols = [...t.key, ...t.values];
    const stored = (await db.rows(`SELECT ${cols.join(', ')} FROM ${t.table}`)).filter((r) => r.slice(t.key.length).some((v) => Number(v) !== 0));
    const sql = t.select('SELECT id FROM run');
    const expected = await db.rows(sql, t.values.map(() => 1));
    expect(stored.map(key).sort(), t.table).toEqual(expected.filter((r) => r.slice(t.key.length).some((v) => Number(v) !== 0)).map(key).sort());
  }
}
