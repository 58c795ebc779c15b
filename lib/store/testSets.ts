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

/** Sorted ids into `out` from position 0 (room for one per byte); returns how many. */
function decodeInto(bytes: Uint8Array, out: Int32Array): number {
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
    out[n++] = prev;
  }
  return n;
}

export function decodeTestSet(bytes: Uint8Array): Int32Array {
  // every id takes at least one byte: that much room, then trimmed (no growing array)
  const ids = new Int32Array(bytes.length);
  const n = decodeInto(bytes, ids);
  return n === ids.length ? ids : ids.slice(0, n);
}

/**
 * A test set's members as they are asked about: whether it holds a test. A bit per id over the
 * range of its ids when that is no larger than its ids themselves (3,000 dense ids: 375 bytes, not
 * 12 KB), else its sorted ids.
 */
export class TestSetMembers {
  private constructor(
    readonly size: number,
    private readonly base: number,
    private readonly bits: Uint8Array | undefined,
    private readonly sorted: Int32Array | undefined,
  ) {}

  static fromSorted(ids: Int32Array): TestSetMembers {
    if (!ids.length) return new TestSetMembers(0, 0, new Uint8Array(0), undefined);
    const base = ids[0];
    const span = ids[ids.length - 1] - base + 1;
    if (span / 8 > ids.length * 4) return new TestSetMembers(ids.length, 0, undefined, ids.slice());
    const bits = new Uint8Array(Math.ceil(span / 8));
    for (let i = 0; i < ids.length; i++) {
      const k = ids[i] - base;
      bits[k >> 3] |= 1 << (k & 7);
    }
    return new TestSetMembers(ids.length, base, bits, undefined);
  }

  has(id: number): boolean {
    if (this.bits) {
      const k = id - this.base;
      return k >= 0 && k >> 3 < this.bits.length && (this.bits[k >> 3] & (1 << (k & 7))) !== 0;
    }
    return binaryHas(this.sorted!, id);
  }

  /** Bytes it takes. */
  get bytes(): number {
    return this.bits ? this.bits.length : this.sorted!.length * 4;
  }

  /** Its ids, sorted. */
  ids(): Int32Array {
    if (this.sorted) return this.sorted;
    const out = new Int32Array(this.size);
    let n = 0;
    for (let i = 0; i < this.bits!.length; i++) for (let b = this.bits![i], j = 0; b; b >>= 1, j++) if (b & 1) out[n++] = this.base + i * 8 + j;
    return out;
  }
}

/** Whether the sorted `a` holds `x`. */
function binaryHas(a: ArrayLike<number>, x: number): boolean {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] === x) return true;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

// Decoding goes through one scratch array: a fresh 12 KB array per set is memory the process has to
// fault in (at 5,000 sets, a quarter of a second on this machine's VM).
let scratch = new Int32Array(4096);

function membersOf(bytes: Uint8Array): TestSetMembers {
  if (scratch.length < bytes.length) scratch = new Int32Array(bytes.length * 2);
  const n = decodeInto(bytes, scratch);
  return TestSetMembers.fromSorted(scratch.subarray(0, n));
}

export function testSetHash(encoded: Buffer): string {
  return crypto.createHash('sha1').update(encoded).digest('hex');
}

// Test sets never change once written, so decoded sets are kept per database for the process, up to
// CACHE_BYTES in all (at OpenShift's scale 5,000 sets of 3,000 tests take 2 MB as bits). Answers
// judged at the same time ask for the same sets: one read each, the others wait for it.
interface SetCache {
  sets: Map<number, TestSetMembers>;
  bytes: number;
  loading: Map<number, Promise<Map<number, TestSetMembers>>>;
}
const caches = new WeakMap<object, SetCache>();
const CACHE_BYTES = 64 * 1024 * 1024;

function remember(c: SetCache, id: number, set: TestSetMembers): void {
  if (c.bytes + set.bytes > CACHE_BYTES) {
    c.sets.clear();
    c.bytes = 0;
  }
  c.sets.set(id, set);
  c.bytes += set.bytes;
}

/** Decoded members (sorted test ids) of the given sets, by id (ids of no set, such as 0, are left out). */
export async function loadTestSets(db: import('./db').Database, ids: Iterable<number>): Promise<Map<number, TestSetMembers>> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = { sets: new Map(), bytes: 0, loading: new Map() }));
  const cache = c;
  const out = new Map<number, TestSetMembers>();
  const missing: number[] = [];
  const waits: [number, Promise<Map<number, TestSetMembers>>][] = [];
  for (const id of ids instanceof Set ? (ids as Set<number>) : new Set(ids)) {
    if (id <= 0) continue;
    const set = cache.sets.get(id);
    if (set) {
      out.set(id, set);
      continue;
    }
    const loading = cache.loading.get(id);
    if (loading) waits.push([id, loading]);
    else missing.push(id);
  }
  // sets are numbered as they first appear, so a lookback's are mostly one range: read it in one scan
  // when it is dense enough, else by id in chunks
  missing.sort((a, b) => a - b);
  const dense = missing.length > 500 && missing[missing.length - 1] - missing[0] < missing.length * 2;
  const chunks = dense ? [missing] : Array.from({ length: Math.ceil(missing.length / 500) }, (_, i) => missing.slice(i * 500, i * 500 + 500));
  for (const chunk of chunks) {
    const read = (async () => {
      const rows = dense
        ? await db.rows('SELECT id, members FROM test_set WHERE id >= ? AND id <= ?', [chunk[0], chunk[chunk.length - 1]])
        : await db.rows(`SELECT id, members FROM test_set WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
      const got = new Map<number, TestSetMembers>();
      for (const [id, members] of rows) {
        const set = membersOf(members as Uint8Array);
        got.set(Number(id), set);
        remember(cache, Number(id), set);
      }
      return got;
    })();
    const done = () => chunk.forEach((id) => cache.loading.get(id) === read && cache.loading.delete(id));
    read.then(done, done);
    for (const id of chunk) {
      cache.loading.set(id, read);
      waits.push([id, read]);
    }
  }
  for (const [id, read] of waits) {
    const set = (await read).get(id);
    if (set) out.set(id, set);
  }
  return out;
}
