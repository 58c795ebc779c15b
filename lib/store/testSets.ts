// A run's executed tests, stored once per distinct set: sorted test ids, delta-encoded as LEB128
// varints (about 1.2 bytes per test for dense ids). Runs of one job nearly always share a set.
import crypto from 'node:crypto';

export function encodeTestSet(sortedIds: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(sortedIds.length * 5);
  let pos = 0;
  let prev = 0;
  for (const id of sortedIds) {
    let delta = id - prev;
    if (delta < 0 || !Number.isInteger(delta)) throw new Error('test set ids must be sorted, distinct integers');
    prev = id;
    while (delta >= 0x80) {
      out[pos++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    out[pos++] = delta;
  }
  return out.subarray(0, pos);
}

export function decodeTestSet(bytes: Uint8Array): Int32Array {
  const ids: number[] = [];
  let prev = 0;
  let i = 0;
  while (i < bytes.length) {
    let delta = 0;
    let shift = 0;
    let b: number;
    do {
      b = bytes[i++];
      delta |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80 && i < bytes.length);
    prev += delta;
    ids.push(prev);
  }
  return Int32Array.from(ids);
}

export function testSetHash(encoded: Buffer): string {
  return crypto.createHash('sha1').update(encoded).digest('hex');
}

// Test sets never change once written, so decoded sets are cached per database for the process.
const decoded = new WeakMap<object, Map<number, Int32Array>>();
const CACHE_LIMIT = 50_000;

/** Decoded members (sorted test ids) of the given sets. */
export async function loadTestSets(db: import('./db').Database, ids: Iterable<number>): Promise<Map<number, Int32Array>> {
  let cache = decoded.get(db);
  if (!cache) decoded.set(db, (cache = new Map()));
  const out = new Map<number, Int32Array>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const hit = cache.get(id);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  for (let i = 0; i < missing.length; i += 500) {
    const chunk = missing.slice(i, i + 500);
    const rows = await db.all<{ id: number; members: Uint8Array }>(`SELECT id, members FROM test_set WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    if (cache.size + rows.length > CACHE_LIMIT) cache.clear();
    for (const r of rows) {
      const set = decodeTestSet(r.members);
      cache.set(r.id, set);
      out.set(r.id, set);
    }
  }
  return out;
}

export function setHas(set: Int32Array, id: number): boolean {
  let lo = 0;
  let hi = set.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = set[mid];
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
