// Triage's text distances (kubernetes/test-infra triage/summarize/text.go): ngram counts and their
// digest (the cluster id), the ngram estimate of the edit distance, the exact edit distance with a
// limit, and common spans. Split from normalize.ts; they work on normalised text.
import { createHash } from 'node:crypto';
import { NON_ASCII_RE, toBytes } from './normalize';

// ---- ngram counts: a 64-bucket histogram of crc32(4-character window) ----

export const NGRAM_BUCKETS = 64;

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crc32(bytes: ArrayLike<number>, length: number): number {
  let c = -1;
  for (let i = 0; i < length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c;
}

// crc32 of a 4-byte message is affine in its bits, so its low 6 bits are a constant xor one table
// entry per byte position: four lookups per ngram instead of a full crc.
const NGRAM_BYTE_TABLES = (() => {
  const tables = [new Uint8Array(256), new Uint8Array(256), new Uint8Array(256), new Uint8Array(256)];
  const zero = crc32([0, 0, 0, 0], 4);
  for (let pos = 0; pos < 4; pos++) {
    for (let b = 0; b < 256; b++) {
      const msg = [0, 0, 0, 0];
      msg[pos] = b;
      tables[pos][b] = (crc32(msg, 4) ^ zero) & (NGRAM_BUCKETS - 1);
    }
  }
  return { tables, base: zero & (NGRAM_BUCKETS - 1) };
})();

/**
 * Triage's makeNgramCounts: bucket counts of crc32 over every window of 4 characters (code points,
 * each window UTF-8 encoded, as the Python triage did; for ASCII text this is identical to Go's bytes).
 */
export function ngramCounts(s: string): Int32Array {
  const counts = new Int32Array(NGRAM_BUCKETS);
  if (!NON_ASCII_RE.test(s)) {
    const [t0, t1, t2, t3] = NGRAM_BYTE_TABLES.tables;
    const b = toBytes(s);
    let x0 = b[0], x1 = b[1], x2 = b[2];
    for (let x = 3; x < s.length; x++) {
      const x3 = b[x];
      counts[NGRAM_BYTE_TABLES.base ^ t0[x0] ^ t1[x1] ^ t2[x2] ^ t3[x3]]++;
      x0 = x1;
      x1 = x2;
      x2 = x3;
    }
    return counts;
  }
  const chars = Array.from(s);
  const encoder = new TextEncoder();
  for (let x = 0; x < chars.length - 3; x++) {
    const encoded = encoder.encode(chars[x] + chars[x + 1] + chars[x + 2] + chars[x + 3]);
    counts[crc32(encoded, encoded.length) & (NGRAM_BUCKETS - 1)]++;
  }
  return counts;
}

/** Sum of |a[i]-b[i]| over the buckets: the L1 distance that ngramEditDist divides by 4. */
export function ngramCountsL1(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < NGRAM_BUCKETS; i++) {
    const d = a[i] - b[i];
    sum += d < 0 ? -d : d;
  }
  return sum;
}

/** Triage's ngramEditDist: a cheap estimate of the edit distance from ngram counts. */
export function ngramEditDist(a: string, b: string): number {
  return Math.floor(ngramCountsL1(ngramCounts(a), ngramCounts(b)) / 4);
}

/** sha1 of the counts printed as Python prints a list, first 20 hex digits (triage's cluster id). */
export function ngramCountsDigest(counts: ArrayLike<number>): string {
  return createHash('sha1').update(`[${Array.from(counts).join(', ')}]`).digest('hex').slice(0, 20);
}

/** Triage's makeNgramCountsDigest. */
export function makeNgramCountsDigest(s: string): string {
  return ngramCountsDigest(ngramCounts(s));
}

/**
 * Triage's similarity limit for two texts: int(float32(lenA+lenB) / 2.0 * 0.10), computed in float32
 * as Go does. Two different texts join when their ngram distance is at most this, the limit is above 1,
 * and their edit distance is below it.
 */
export function matchLimit(lengthA: number, lengthB: number): number {
  const f = Math.fround;
  return Math.trunc(f(f(f(lengthA + lengthB) / 2) * f(0.1)));
}

/**
 * Levenshtein distance (unit costs), exact when it is at most `limit`; otherwise some value above
 * `limit`. Diagonal-transition algorithm (Ukkonen), O((|a|+|b|) + d²) for similar texts.
 */
export function editDist(a: string, b: string, limit = a.length + b.length): number {
  return diagonalTransition(a, b, limit, Infinity);
}

/**
 * Whether editDist(a, b) < limit. Near-duplicates are first aligned within a narrow band of diagonals
 * that follows the furthest-reaching one: any alignment found there costs at least the edit distance,
 * so a cost below the limit settles it. Otherwise `provablyNot` (a caller's cheap lower bound, if
 * any) may rule it out, and only then is the full computation made.
 */
export function editDistBelow(
  a: string,
  b: string,
  limit: number,
  provablyNot?: (a: string, b: string) => boolean,
): boolean {
  if (limit <= 0) return false;
  if (diagonalTransition(a, b, limit - 1, 24) < limit) return true;
  if (provablyNot?.(a, b)) return false;
  return diagonalTransition(a, b, limit - 1, Infinity) < limit;
}

const UNREACHED = -(2 ** 30);

// The work of every edit-distance computation so far, in diagonals followed (SignatureIndex bounds
// the work of one search with it).
let editSteps = 0;

/** A running count of edit-distance work (steps), to measure the work of a span of calls. */
export function editWork(): number {
  return editSteps;
}

let rowsA = new Int32Array(256);
let rowsB = new Int32Array(256);

// The furthest row i reached on each diagonal k = j - i with d edits, for d = 0, 1, ... With a finite
// band only the diagonals within `band` of the previous round's furthest-reaching one are followed,
// which finds some alignment, not always the best: the result is then an upper bound.
function diagonalTransition(a: string, b: string, limit: number, band: number): number {
  const n = a.length;
  const m = b.length;
  const target = m - n; // the diagonal on which (n, m) lies
  if (Math.abs(target) > limit) return Math.abs(target);
  const offset = limit + 1;
  if (rowsA.length < 2 * limit + 3) {
    rowsA = new Int32Array(2 * limit + 3);
    rowsB = new Int32Array(2 * limit + 3);
  }
  let prev = rowsA;
  let cur = rowsB;
  let prevLow = 0, prevHigh = -1; // the diagonals computed in the previous round
  let center = 0;
  let steps = 0;
  for (let d = 0; d <= limit; d++) {
    let kLow = Math.max(-d, -n, target - (limit - d));
    let kHigh = Math.min(d, m, target + (limit - d));
    if (band !== Infinity) {
      kLow = Math.max(kLow, center - band);
      kHigh = Math.min(kHigh, center + band);
    }
    if (kLow > kHigh) break;
    steps += kHigh - kLow + 1;
    let furthest = -1;
    for (let k = kLow; k <= kHigh; k++) {
      let i = 0;
      if (d > 0) {
        // substitution (same diagonal), deletion of a[i] (from k+1), insertion of b[j] (from k-1)
        const fromSame = k >= prevLow && k <= prevHigh ? prev[k + offset] + 1 : UNREACHED;
        const fromAbove = k + 1 >= prevLow && k + 1 <= prevHigh ? prev[k + 1 + offset] + 1 : UNREACHED;
        const fromLeft = k - 1 >= prevLow && k - 1 <= prevHigh ? prev[k - 1 + offset] : UNREACHED;
        i = Math.max(fromSame, fromAbove, fromLeft);
        if (i < 0 || i < -k) {
          cur[k + offset] = UNREACHED;
          continue;
        }
        if (i > n) i = n;
        if (i + k > m) i = m - k;
      }
      while (i < n && i + k < m && a.charCodeAt(i) === b.charCodeAt(i + k)) i++;
      cur[k + offset] = i;
      if (k === target && i >= n) {
        editSteps += steps;
        return d;
      }
      if (2 * i + k > furthest) {
        furthest = 2 * i + k;
        center = k;
      }
    }
    const swap = prev;
    prev = cur;
    cur = swap;
    prevLow = kLow;
    prevHigh = kHigh;
  }
  editSteps += steps;
  return limit + 1;
}

const SPAN_RE = /\w+|\W+/g;

/**
 * Triage's commonSpans: lengths of alternating runs of the first text whose words (\w+ or \W+ tokens)
 * occur in every text and runs whose words do not, starting with a common run.
 */
export function commonSpans(texts: readonly string[]): number[] {
  if (texts.length === 0) return [];
  let common: Set<string> | null = null;
  for (const text of texts) {
    const words = text.match(SPAN_RE) ?? [];
    if (common === null) common = new Set(words);
    else {
      const these = new Set(words);
      for (const word of common) if (!these.has(word)) common.delete(word);
    }
  }
  const spans: number[] = [];
  let match = true;
  let spanLength = 0;
  for (const word of texts[0].match(SPAN_RE) ?? []) {
    const isCommon = common!.has(word);
    if (isCommon !== match) {
      match = isCommon;
      spans.push(spanLength);
      spanLength = 0;
    }
    spanLength += word.length;
  }
  if (spanLength !== 0) spans.push(spanLength);
  return spans;
}
