// Many fixed strings found in a text in one pass, without testing every pattern at every place:
// each pattern is anchored by its rarest window of W characters (a rolling hash), a text position
// whose window hash is an anchor is a candidate, and only candidates are compared in full. Patterns
// shorter than W are anchored by their whole length (one extra rolling pass per such length).
// Thousands of test names against thousands of bug texts cost a hash per text character.

const BASE = 0x01000193;
/**
 * Bits of the filter in front of the anchor map, per pattern: a position whose window hash hits an
 * unset bit is passed over without a map lookup. At a fixed 2^20 bits, 130,000 key lines left one
 * position in eight to a lookup that found nothing: half of the search time.
 */
const BLOOM_BITS_PER_PATTERN = 32;
/**
 * A window hash's second bit in the filter: the high bits of its product with this odd constant.
 * With one bit, 3% of the positions of bug texts reached the anchor map and nearly all found
 * nothing there (1.9 million lookups for 2,775 hits): a third of the search time.
 */
const SECOND_BIT_MULTIPLIER = 0x9e3779b1;
const BLOOM_MIN_BITS = 1 << 16;
const BLOOM_MAX_BITS = 1 << 24;
const MAX_COUNT_SLOTS = 1 << 22;

export interface PatternMatch {
  pattern: number;
  start: number;
  end: number;
}

interface Anchored {
  width: number;
  /** BASE^(width-1), to roll the oldest character out */
  top: number;
  entries: Map<number, number[]>;
}

function pow(width: number): number {
  let p = 1;
  for (let i = 1; i < width; i++) p = Math.imul(p, BASE);
  return p;
}

function hashAt(s: string, start: number, width: number): number {
  let h = 0;
  for (let i = start; i < start + width; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return h;
}

/** Calls fn(hash, start) for every window of `width` characters of s. */
function rollHashes(s: string, width: number, top: number, fn: (h: number, start: number) => void): void {
  if (s.length < width) return;
  let h = hashAt(s, 0, width);
  fn(h, 0);
  for (let i = 1; i + width <= s.length; i++) {
    h = (Math.imul((h - Math.imul(s.charCodeAt(i - 1), top)) | 0, BASE) + s.charCodeAt(i + width - 1)) | 0;
    fn(h, i);
  }
}

export class PatternIndex {
  private readonly list: string[];
  private readonly byWidth = new Map<number, Anchored>();
  /** the groups with entries (findAll's loop) */
  private anchored: Anchored[] = [];
  private readonly bloom: Uint8Array;
  private readonly bloomMask: number;
  /** shifts a 32-bit product down to a bit number of the filter (see SECOND_BIT_MULTIPLIER) */
  private readonly bloomShift: number;
  /**
   * Approximate window frequencies over the patterns given to the constructor (see anchor),
   * saturating at 255; kept only when `growable` (for push).
   */
  private counts: Uint8Array;

  /**
   * `patterns` must be non-empty strings; duplicates are allowed (each is reported). `growable`:
   * patterns will be pushed.
   */
  constructor(patterns: readonly string[], readonly window = 24, growable = false) {
    this.list = [...patterns];
    const bloomBits = Math.min(BLOOM_MAX_BITS, Math.max(BLOOM_MIN_BITS, 2 ** Math.ceil(Math.log2(patterns.length * BLOOM_BITS_PER_PATTERN + 1))));
    this.bloom = new Uint8Array(bloomBits / 8);
    this.bloomMask = bloomBits - 1;
    this.bloomShift = 32 - Math.log2(bloomBits);
    // A hashed counter: collisions only make a window look commoner than it is, which at worst picks
    // a less rare anchor.
    const top = this.group(window).top;
    let windows = 0;
    for (const p of patterns) windows += Math.max(0, p.length - window + 1);
    const slots = Math.min(MAX_COUNT_SLOTS, 2 ** Math.ceil(Math.log2(Math.max(1024, windows * 2))));
    // saturating at 255: a byte a slot keeps the table in cache (at 4 bytes, building an index of
    // 129,000 key lines spent most of its time waiting on memory)
    const counts = (this.counts = new Uint8Array(slots));
    const mask = slots - 1;
    for (const p of patterns) {
      if (p.length >= window) {
        rollHashes(p, window, top, (h) => {
          if (counts[h & mask] < 255) counts[h & mask]++;
        });
      }
    }
    this.list.forEach((p, index) => this.anchor(p, index));
    this.anchored = [...this.byWidth.values()].filter((g) => g.entries.size > 0);
    if (!growable) this.counts = new Uint8Array(0);
  }

  get patterns(): readonly string[] {
    return this.list;
  }

  /**
   * Adds a pattern; returns its number. Its anchor is chosen by the constructor's window counts, so
   * an index grown far beyond what it was built with finds as before, with commoner anchors.
   */
  push(pattern: string): number {
    if (!this.counts.length) throw new Error('PatternIndex: not built growable');
    const index = this.list.push(pattern) - 1;
    const g = this.anchor(pattern, index);
    if (g && !this.anchored.includes(g)) this.anchored.push(g);
    return index;
  }

  private group(width: number): Anchored {
    let g = this.byWidth.get(width);
    if (!g) this.byWidth.set(width, (g = { width, top: pow(width), entries: new Map() }));
    return g;
  }

  /** Anchors pattern `index` by its rarest window, or by its whole length when shorter than one. */
  private anchor(p: string, index: number): Anchored | undefined {
    if (p.length === 0) return undefined;
    if (p.length < this.window) {
      const g = this.group(p.length);
      this.add(g, hashAt(p, 0, p.length), index, 0);
      return g;
    }
    const main = this.group(this.window);
    const { counts } = this;
    let best = 0;
    let bestHash = 0;
    let bestCount = Infinity;
    rollHashes(p, this.window, main.top, (h, start) => {
      const c = counts[h & (counts.length - 1)];
      if (c < bestCount) {
        bestCount = c;
        best = start;
        bestHash = h;
      }
    });
    this.add(main, bestHash, index, best);
    return main;
  }

  private add(g: Anchored, h: number, pattern: number, offset: number): void {
    let list = g.entries.get(h);
    if (!list) g.entries.set(h, (list = []));
    list.push(pattern, offset);
    const bit = h & this.bloomMask;
    this.bloom[bit >>> 3] |= 1 << (bit & 7);
    const second = Math.imul(h, SECOND_BIT_MULTIPLIER) >>> this.bloomShift;
    this.bloom[second >>> 3] |= 1 << (second & 7);
  }

  /** Every occurrence of every pattern in text (overlapping ones included), unordered. */
  findAll(text: string): PatternMatch[] {
    // Each pattern has one anchor, so each occurrence is found exactly once.
    const out: PatternMatch[] = [];
    const { bloom, bloomMask, bloomShift } = this;
    for (const g of this.anchored) {
      const { width, top, entries } = g;
      if (text.length < width) continue;
      // the rolling hash, inlined: this loop runs once per character of every bug text
      let h = hashAt(text, 0, width);
      for (let pos = 0; ; pos++) {
        const bit = h & bloomMask;
        const second = bloom[bit >>> 3] & (1 << (bit & 7)) ? Math.imul(h, SECOND_BIT_MULTIPLIER) >>> bloomShift : -1;
        if (second >= 0 && bloom[second >>> 3] & (1 << (second & 7))) {
          const list = entries.get(h);
          if (list) {
            for (let i = 0; i < list.length; i += 2) {
              const pattern = list[i];
              const start = pos - list[i + 1];
              const p = this.list[pattern];
              if (start >= 0 && start + p.length <= text.length && text.startsWith(p, start)) out.push({ pattern, start, end: start + p.length });
            }
          }
        }
        if (pos + width >= text.length) break;
        h = (Math.imul((h - Math.imul(text.charCodeAt(pos), top)) | 0, BASE) + text.charCodeAt(pos + width)) | 0;
      }
    }
    return out;
  }
}
