// A bug's texts reduced to the hashes of their runs of letters: what tells, without the texts, that
// they cannot quote a line (lib/ingest/linkIndexes.ts keeps these per bug between relinks).
import { lowerBound } from '../signatures/sorted';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** FNV-1a of s[start, end). */
function hashOf(s: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

const LETTER_RUN = /[A-Za-z]{3,}/g;

/**
 * The hashes (FNV-1a) of the runs of three letters or more in pieces, sorted and distinct: a compact
 * stand-in for a bug's texts that tells which key lines they cannot quote (see quoteRunKey). One
 * loop over the characters (a regex match per run took ten times as long); each hash is kept once as
 * it comes (open addressing), so only the distinct ones are sorted: prose repeats its words, and
 * sorting every run was most of the time.
 */
export function letterRunHashes(pieces: readonly string[]): Int32Array {
  // 0 marks an empty slot; a hash of 0 is noted apart
  let table: Int32Array = new Int32Array(256);
  let mask = table.length - 1;
  let n = 0;
  let zero = false;
  for (const p of pieces) {
    let h = FNV_OFFSET;
    let run = 0;
    for (let i = 0; i <= p.length; i++) {
      const c = i < p.length ? p.charCodeAt(i) : 0;
      if (isLetter(c)) {
        h = Math.imul(h ^ c, FNV_PRIME);
        run++;
        continue;
      }
      if (run >= 3) {
        const v = h | 0;
        if (v === 0) zero = true;
        else {
          let at = Math.imul(v, SLOT_MULTIPLIER) & mask;
          while (table[at] !== 0 && table[at] !== v) at = (at + 1) & mask;
          if (table[at] === 0) {
            table[at] = v;
            if (++n * 2 > table.length) [table, mask] = rehash(table);
          }
        }
      }
      h = FNV_OFFSET;
      run = 0;
    }
  }
  const out = new Int32Array(n + (zero ? 1 : 0)); // a hash of 0 is the slot left at 0
  let k = 0;
  for (let i = 0; i < table.length; i++) if (table[i] !== 0) out[k++] = table[i];
  return out.sort();
}

const SLOT_MULTIPLIER = 0x9e3779b1;

/** The table twice the size, with the same hashes. */
function rehash(table: Int32Array): [Int32Array, number] {
  const bigger = new Int32Array(table.length * 2);
  const mask = bigger.length - 1;
  for (let i = 0; i < table.length; i++) {
    const v = table[i];
    if (v === 0) continue;
    let at = Math.imul(v, SLOT_MULTIPLIER) & mask;
    while (bigger[at] !== 0) at = (at + 1) & mask;
    bigger[at] = v;
  }
  return [bigger, mask];
}

/**
 * The hash of a line's longest run of three letters or more that neither starts nor ends it
 * (undefined when it has none). A text holding the line holds that run whole, between two
 * characters that are not letters: the line cannot be in pieces whose letterRunHashes lack it.
 */
export function quoteRunKey(line: string): number | undefined {
  let best: RegExpExecArray | undefined;
  for (const r of line.matchAll(LETTER_RUN)) {
    if (r.index > 0 && r.index + r[0].length < line.length && (!best || r[0].length > best[0].length)) best = r;
  }
  return best ? hashOf(line, best.index, best.index + best[0].length) : undefined;
}

/** Whether sorted `hashes` holds h. */
export function holdsHash(hashes: Int32Array, h: number): boolean {
  const at = lowerBound(hashes, h);
  return at < hashes.length && hashes[at] === h;
}
