// A run's executed tests, stored once per distinct set: sorted test ids, delta-encoded as LEB128
// varints (about 1.2 bytes per test for dense ids). Runs of one job nearly always share a set.
import crypto from 'node:crypto';

export function encodeTestSet(sortedIds: ArrayLike<number>): Buffer {
  const out = Buffer.allocUnsafe(sortedIds.length * 5);
  let pos = 0;
  let prev = 0;
  for (let i = 0; i < sortedIds.length; i++) {
    const id = sortedIds[i];
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
  // every id takes at least one byte: decode into that much room, then trim (no growing array)
  const ids = new Int32Array(bytes.length);
  let n = 0;
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
    ids[n++] = prev;
  }
  return n === ids.length ? ids : ids.slice(0, n);
}

export function testSetHash(encoded: Buffer): string {
  return crypto.createHash('sha1').update(encoded).digest('hex');
}

// Test sets never change once written, so decoded sets are cached per database for the process.
const decoded = new WeakMap<object, Map<number, Int32Array>>();
const CACHE_LIMIT = 50_000;

/** Decoded members (sorted test ids) of the given sets (the returned map may hold others too). */
export async function loadTestSets(db: import('./db').Database, ids: Iterable<number>): Promise<Map<number, Int32Array>> {
  let cache = decoded.get(db);
  if (!cache) decoded.set(db, (cache = new Map()));
  const wanted = ids instanceof Set ? (ids as Set<number>) : new Set(ids);
  const missing: number[] = [];
  for (const id of wanted) if (!cache.has(id)) missing.push(id);
  // Normally the cache itself is the answer; when it would outgrow its limit, start it afresh.
  if (cache.size + missing.length > CACHE_LIMIT) {
    const kept = new Map<number, Int32Array>();
    for (const id of wanted) if (cache.has(id)) kept.set(id, cache.get(id)!);
    decoded.set(db, (cache = kept));
  }
  for (let i = 0; i < missing.length; i += 500) {
    const chunk = missing.slice(i, i + 500);
    const rows = await db.all<{ id: number; members: Uint8Array }>(`SELECT id, members FROM test_set WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const r of rows) cache.set(r.id, decodeTestSet(r.members));
  }
  return cache;
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
