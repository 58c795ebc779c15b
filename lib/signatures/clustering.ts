// Incremental, global clustering of failure texts into signatures with stable ids, following
// Kubernetes triage's rule (triage/summarize/text.go findMatch): a normalised text joins an existing
// signature when it is the same text, or when their ngram distance is within 10% of their mean length
// and their edit distance is below that limit. Among the signatures that qualify, the one with the
// smallest ngram distance wins, ties going to the older signature (triage sorts by ngram distance).
//
// The search is exact, not approximate: candidates are pruned only by conditions that the rule itself
// implies (the length window, the ngram distance, 4-gram lower bounds on the edit distance), and a
// near-duplicate is accepted on a cheap banded alignment whose cost bounds the edit distance from
// above; so the result is what comparing against every signature would give. Each distinct
// normalised text is searched once: remembered matches are only re-checked against newer signatures.
//
// One bound on the work: a search spends at most `editWorkBudget` on exact edit distances. Texts near
// many signatures by their ngrams but within the edit limit of none (log tails: the same kinds of
// lines, other ones, in another order) otherwise cost every earlier such signature a full
// comparison, milliseconds each at 4,000 characters, and a pass stalls as they accumulate. A search
// cut short makes a signature of its own (never a wrong merge); `stats.searchesCutShort` counts them.
// Failure texts of e2e tests stay far below the budget (see tests/signatures/clustering.test.ts).
import { createHash } from 'node:crypto';
import { signatureText } from './normalize';
import { lowerBound } from './sorted';
import { editDistBelow, editWork, matchLimit, ngramCounts, ngramCountsDigest } from './textDistance';

/** A signature as stored in the database. */
export interface StoredSignature {
  id: number;
  hash: string;
  text: string;
}

/** A signature known to the index; `id` is missing until the caller has stored it (see `add`). */
export interface SignatureRecord {
  id?: number;
  hash: string;
  text: string;
}

export interface Assignment {
  /** the joined signature's hash (its public id) */
  hash: string;
  /** the joined signature's text (its normalised representative, not this failure's text) */
  text: string;
  /** true when this call created the signature; the caller should store it, then call `add` */
  isNew: boolean;
  id?: number;
}

export interface SignatureIndexOptions {
  /** raw texts whose normalised form is remembered (two generations of this many); default 20,000 */
  rawCacheSize?: number;
  /** raw texts longer than this are not remembered (hashing them costs more than it saves); default 1024 */
  rawCacheMaxLength?: number;
  /** normalised texts whose fuzzy match is remembered (two generations); default 50,000 */
  matchCacheSize?: number;
  /** the edit-distance work one search may do, in steps of textDistance's editWork; EDIT_WORK_BUDGET */
  editWorkBudget?: number;
}

/**
 * About 50-60 ms of edit distances here (35,000-40,000 steps a millisecond): some 30 full comparisons
 * of two 4,000-character log tails (66,000 steps each), or thousands of e2e failure texts.
 */
export const EDIT_WORK_BUDGET = 2_000_000;

interface Signature extends SignatureRecord {
  rank: number; // creation order: ids ascending for loaded signatures, then new ones
  counts: Int32Array;
}

interface CachedMatch {
  signature: Signature;
  ngramDistance: number;
  checkedUpTo: number; // signatures with rank >= this were created after the match was computed
}

/** A map that keeps about the last `capacity`..2×`capacity` entries: two generations, O(1). */
class TwoGenerationCache<V> {
  private current = new Map<string, V>();
  private previous = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const hit = this.current.get(key);
    if (hit !== undefined) return hit;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }
  set(key: string, value: V): void {
    if (this.capacity <= 0) return;
    if (this.current.size >= this.capacity) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}

export interface SignatureIndexStats {
  assigned: number;
  rawCacheHits: number;
  exactHits: number;
  matchCacheHits: number;
  fuzzySearches: number;
  editDistanceChecks: number;
  /** searches that stopped at the edit-work budget (the text got a signature of its own) */
  searchesCutShort: number;
}

export class SignatureIndex {
  private readonly all: Signature[] = [];
  private readonly byText = new Map<string, Signature>();
  private readonly byHash = new Map<string, Signature>();
  private readonly byLength: Array<Signature[] | undefined> = [];
  private readonly lengths: number[] = []; // the lengths in byLength, ascending
  private keys: Float64Array = new Float64Array(1024); // scratch for findMatch
  private readonly rawCache: TwoGenerationCache<string>;
  private readonly matchCache: TwoGenerationCache<CachedMatch>;
  private readonly rawCacheMaxLength: number;
  private readonly editWorkBudget: number;
  private digestOf: { size: number; digest: string } | undefined; // see digest
  readonly stats: SignatureIndexStats = {
    assigned: 0, rawCacheHits: 0, exactHits: 0, matchCacheHits: 0, fuzzySearches: 0, editDistanceChecks: 0, searchesCutShort: 0,
  };

  /** `existing` are the stored signatures, in any order; they are ranked by id (creation order). */
  constructor(existing: readonly StoredSignature[] = [], options: SignatureIndexOptions = {}) {
    this.rawCache = new TwoGenerationCache(options.rawCacheSize ?? 20_000);
    this.rawCacheMaxLength = options.rawCacheMaxLength ?? 1024;
    this.matchCache = new TwoGenerationCache(options.matchCacheSize ?? 50_000);
    this.editWorkBudget = options.editWorkBudget ?? EDIT_WORK_BUDGET;
    for (const sig of [...existing].sort((a, b) => a.id - b.id)) this.add(sig);
  }

  get size(): number {
    return this.all.length;
  }

  /**
   * What the index holds, as signatureOrderDigest of its hashes in creation order: an index kept from
   * an earlier pass clusters as a new one would exactly when their digests are equal (its caches only
   * remember what its signatures give).
   */
  digest(): string {
    if (this.digestOf?.size !== this.all.length) this.digestOf = { size: this.all.length, digest: signatureOrderDigest(this.all.map((s) => s.hash)) };
    return this.digestOf.digest;
  }

  /** All signatures in creation order (loaded ones by id first). */
  signatures(): SignatureRecord[] {
    return this.all.map(({ id, hash, text }) => (id === undefined ? { hash, text } : { id, hash, text }));
  }

  /**
   * Registers a signature created elsewhere, or records the database id of one that `assign` created.
   * Throws when the record contradicts the index (same text with another hash, or a hash in use by
   * another text): the stored signatures are then inconsistent.
   */
  add(record: SignatureRecord): void {
    const known = this.byText.get(record.text);
    if (known !== undefined) {
      if (known.hash !== record.hash) {
        throw new Error(`signature text already registered under hash ${known.hash}, not ${record.hash}`);
      }
      if (record.id !== undefined) known.id = record.id;
      return;
    }
    if (this.byHash.has(record.hash)) throw new Error(`signature hash ${record.hash} already used by another text`);
    this.register(record.text, record.hash, record.id, ngramCounts(record.text));
  }

  /** The signature that a raw failure text belongs to, creating one when none is close enough. */
  assign(raw: string): Assignment {
    this.stats.assigned++;
    if (raw.length > this.rawCacheMaxLength) return this.assignNormalized(signatureText(raw));
    let text = this.rawCache.get(raw);
    if (text !== undefined) this.stats.rawCacheHits++;
    else this.rawCache.set(raw, (text = signatureText(raw)));
    return this.assignNormalized(text);
  }

  /** Like `assign`, for a text that is already a signature text (signatureText output). */
  assignNormalized(text: string): Assignment {
    const exact = this.byText.get(text);
    if (exact !== undefined) {
      this.stats.exactHits++;
      return result(exact, false);
    }
    let counts: Int32Array | undefined;
    const cached = this.matchCache.get(text);
    if (cached !== undefined) {
      this.stats.matchCacheHits++;
      if (cached.checkedUpTo < this.all.length) {
        // only a signature created since could be closer (an older one would have been found)
        counts = ngramCounts(text);
        const newer = this.findMatch(text, counts, cached.checkedUpTo, cached.ngramDistance - 1);
        if (newer !== null) {
          cached.signature = newer.signature;
          cached.ngramDistance = newer.ngramDistance;
        }
        cached.checkedUpTo = this.all.length;
      }
      return result(cached.signature, false);
    }
    counts ??= ngramCounts(text);
    this.stats.fuzzySearches++;
    const match = this.findMatch(text, counts, 0, Infinity);
    if (match !== null) {
      this.matchCache.set(text, { ...match, checkedUpTo: this.all.length });
      return result(match.signature, false);
    }
    return result(this.register(text, this.newHash(text, counts), undefined, counts), true);
  }

  private register(text: string, hash: string, id: number | undefined, counts: Int32Array): Signature {
    const sig: Signature = { id, hash, text, rank: this.all.length, counts };
    this.all.push(sig);
    this.byText.set(text, sig);
    this.byHash.set(hash, sig);
    const bucket = this.byLength[text.length];
    if (bucket === undefined) {
      this.byLength[text.length] = [sig];
      this.lengths.splice(lowerBound(this.lengths, text.length), 0, text.length);
    } else bucket.push(sig);
    return sig;
  }

  /**
   * Triage's id (the ngram-count digest). Different texts can share it (all texts under 4 characters
   * do); then the sha1 of text + "#2", "#3", ... (first 20 hex digits), the first one not in use.
   */
  private newHash(text: string, counts: Int32Array): string {
    let hash = ngramCountsDigest(counts);
    for (let n = 2; this.byHash.has(hash); n++) hash = collisionHash(text, n);
    return hash;
  }

  /**
   * The best signature with rank >= fromRank that the text may join and whose ngram distance is at
   * most maxNgramDistance, or null.
   */
  private findMatch(
    text: string,
    counts: Int32Array,
    fromRank: number,
    maxNgramDistance: number,
  ): { signature: Signature; ngramDistance: number } | null {
    const length = text.length;
    let found = 0;
    const consider = (sig: Signature, limit: number): void => {
      if (sig.rank < fromRank) return;
      const maxL1 = 4 * Math.min(limit, maxNgramDistance) + 3; // floor(l1 / 4) <= limit
      const l1 = l1AtMost(counts, sig.counts, maxL1);
      if (l1 <= maxL1) {
        // floor(l1 / 4) is triage's ngram distance; sort key: that distance, then rank
        if (found === this.keys.length) this.keys = growFloat64(this.keys);
        this.keys[found++] = (l1 >> 2) * RANK_SPAN + sig.rank;
      }
    };
    if (this.all.length - fromRank <= 256) {
      // few candidates (a small index, or re-checking a remembered match against the signatures
      // created since): look at each
      for (let r = fromRank; r < this.all.length; r++) {
        const sig = this.all[r];
        const limit = matchLimit(length, sig.text.length);
        if (limit > 1 && Math.abs(length - sig.text.length) < limit) consider(sig, limit);
      }
    } else {
      const [low, high] = lengthWindow(length);
      for (let i = lowerBound(this.lengths, low); i < this.lengths.length && this.lengths[i] <= high; i++) {
        const limit = matchLimit(length, this.lengths[i]);
        if (limit <= 1) continue; // a limit of 1 never joins two different texts
        for (const sig of this.byLength[this.lengths[i]]!) consider(sig, limit);
      }
    }
    if (found === 0) return null;
    const keys = this.keys.subarray(0, found).sort();
    const workBefore = editWork();
    for (const key of keys) {
      if (editWork() - workBefore > this.editWorkBudget) {
        this.stats.searchesCutShort++;
        return null;
      }
      const ngramDistance = Math.floor(key / RANK_SPAN);
      const sig = this.all[key - ngramDistance * RANK_SPAN];
      const limit = matchLimit(length, sig.text.length);
      this.stats.editDistanceChecks++;
      if (editDistBelow(text, sig.text, limit, (a, b) => QGRAMS.atLeast(a, b, limit))) {
        return { signature: sig, ngramDistance };
      }
    }
    return null;
  }
}

/** The L1 distance of two count vectors, or some value above `max` as soon as it exceeds it. */
function l1AtMost(a: Int32Array, b: Int32Array, max: number): number {
  let sum = 0;
  for (let i = 0; i < a.length && sum <= max; i += 8) {
    for (let j = i; j < i + 8; j++) {
      const d = a[j] - b[j];
      sum += d < 0 ? -d : d;
    }
  }
  return sum;
}

const RANK_SPAN = 2 ** 32; // ranks stay below this; ngram distances times it stay below 2^53

function growFloat64(a: Float64Array): Float64Array {
  const bigger = new Float64Array(a.length * 2);
  bigger.set(a);
  return bigger;
}

/**
 * The lengths a text of this length may join: |length - other| < matchLimit(length, other). The
 * difference grows by 1 per step away while the limit grows by at most 1 per 20, so the window is an
 * interval and each end can be found by bisection.
 */
function lengthWindow(length: number): [number, number] {
  const inside = (other: number) => Math.abs(length - other) < matchLimit(length, other);
  if (!inside(length)) return [length, length - 1];
  let lo = 0;
  let hi = length; // inside(hi)
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (inside(mid)) hi = mid;
    else lo = mid + 1;
  }
  const low = lo;
  lo = length;
  hi = 2 * length + 100; // outside: the difference there exceeds a tenth of the mean length
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (inside(mid)) lo = mid;
    else hi = mid;
  }
  return [low, lo];
}

/** A digest of signature hashes in creation order (see SignatureIndex.digest). */
export function signatureOrderDigest(hashes: readonly string[]): string {
  return createHash('sha1').update(hashes.join('\n')).digest('hex');
}

export function collisionHash(text: string, n: number): string {
  return createHash('sha1').update(`${text}#${n}`).digest('hex').slice(0, 20);
}

function result(sig: Signature, isNew: boolean): Assignment {
  return sig.id === undefined ? { hash: sig.hash, text: sig.text, isNew } : { hash: sig.hash, text: sig.text, isNew, id: sig.id };
}

const QGRAM_BUCKETS = 4096;

/**
 * Cheap proofs that two texts are at least `limit` edits apart, from their 4-grams hashed into 4096
 * buckets (hashing only merges 4-grams, which weakens the bounds but keeps them valid). One edit
 * (insert, delete or substitute a character) touches at most 4 of a text's 4-grams, so:
 * - the multiset difference of the two texts' 4-grams is at most 8 times the edit distance;
 * - with fewer than `limit` edits, every untouched 4-gram of one text occurs in the other within
 *   `limit - 1` positions of where it was, so at most 4 × (limit - 1) of them may fail to.
 * The first catches texts made of different words, the second texts made of the same lines in another
 * order (stack traces through the same packages), which the 64-bucket counts cannot tell apart.
 */
class QgramBound {
  private readonly counts = new Int32Array(QGRAM_BUCKETS);
  private readonly window = new Int32Array(QGRAM_BUCKETS);
  private loaded: string | null = null;
  private loadedGrams = new Int32Array(1024);
  private otherGrams = new Int32Array(1024);
  private matched = new Int32Array(1024);

  atLeast(text: string, other: string, limit: number): boolean {
    const na = Math.max(0, text.length - 3);
    const nb = Math.max(0, other.length - 3);
    if (this.loaded !== text) {
      if (this.loaded !== null) this.counts.fill(0);
      if (this.loadedGrams.length < na) this.loadedGrams = new Int32Array(na);
      for (let i = 0; i < na; i++) this.counts[(this.loadedGrams[i] = qgramBucket(text, i))]++;
      this.loaded = text;
    }
    if (this.otherGrams.length < nb) {
      this.otherGrams = new Int32Array(nb);
      this.matched = new Int32Array(nb);
    }
    const a = this.loadedGrams;
    const b = this.otherGrams;
    let common = 0;
    for (let j = 0; j < nb; j++) {
      const g = (b[j] = qgramBucket(other, j));
      if (this.counts[g] > 0) {
        this.counts[g]--;
        this.matched[common++] = g;
      }
    }
    for (let k = 0; k < common; k++) this.counts[this.matched[k]]++;
    if (na - common + (nb - common) > 8 * (limit - 1)) return true;
    // b's 4-grams at positions [low, high) are in the window around position i of a
    const shift = limit - 1;
    const w = this.window;
    let low = 0;
    let high = 0;
    let unmatched = 0;
    for (let i = 0; i < na && unmatched <= 4 * shift; i++) {
      for (const end = Math.min(nb, i + shift + 1); high < end; high++) w[b[high]]++;
      for (const start = Math.min(high, i - shift); low < start; low++) w[b[low]]--;
      if (w[a[i]] === 0) unmatched++;
    }
    for (; low < high; low++) w[b[low]]--;
    return unmatched > 4 * shift;
  }
}
const QGRAMS = new QgramBound();

/** True only when editDist(a, b) >= limit is certain from 4-gram counts (false: not known). */
export function provablyAtLeast(a: string, b: string, limit: number): boolean {
  return QGRAMS.atLeast(a, b, limit);
}

function qgramBucket(s: string, i: number): number {
  const packed =
    (s.charCodeAt(i) & 0xff) | ((s.charCodeAt(i + 1) & 0xff) << 8) | ((s.charCodeAt(i + 2) & 0xff) << 16) | (s.charCodeAt(i + 3) << 24);
  return Math.imul(packed, 0x9e3779b1) >>> 20;
}
