// The search index's view of a text: the set of its 4-grams after a normalisation that every
// substring survives (if L occurs in T, norm(L) occurs in norm(T)): ASCII letters lower-cased, a run
// of digits one "0", a run of other characters (non-ASCII, NUL, \x01, \x02) one \x01. A candidate for
// a literal is then a document holding every 4-gram of the literal; RE2 confirms on the stored text.
// The digit runs and the case fold keep the sets small: logs differ from run to run mostly in times,
// counters and ids.
//
// Why 4-grams: on the sample world's build logs, documents holding every trigram of "Will promote"
// were 711 of 814 (84 hold the text), of "connection refused" 627 (61); with 4-grams exactly 84 and 61.
// The databases' trigram indexes (SQLite FTS5 `trigram`, PostgreSQL pg_trgm) read each 4-gram as one
// token: three letters or digits (32^3 = 32,768 tokens, the 4-gram hashed), tokens separated by
// spaces, so a token is one trigram to either index (pg_trgm indexes letters and digits only) and the
// trigrams across a space are never asked for.

const COLLAPSE = 0x100;
/** byte -> normalised character, with COLLAPSE set on those of which a run counts as one */
const NORM = new Int32Array(256);
for (let b = 0; b < 256; b++) NORM[b] = b >= 0x80 || b <= 2 ? 1 | COLLAPSE : b >= 48 && b <= 57 ? 48 | COLLAPSE : b >= 65 && b <= 90 ? b + 32 : b;

/** Characters of a gram. */
export const GRAM = 4;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz012345';
/** Distinct tokens: three characters of ALPHABET, 2^15. */
export const TOKENS = ALPHABET.length ** 3;

/**
 * The token of a gram (its four normalised characters, 8 bits each): the top 15 bits of a
 * multiplicative hash (its low bits depend on the gram's low bits only; a modulo took 1.2 s of a pass).
 */
const tokenOf = (gram: number): number => Math.imul(gram, 0x9e3779b1) >>> 17;

/** A set of tokens: one bit each (4 KB). */
export class TokenSet {
  readonly bits = new Uint32Array(Math.ceil(TOKENS / 32));
  size = 0;

  constructor(tokens?: ArrayLike<number>) {
    if (tokens) for (let i = 0; i < tokens.length; i++) this.add(tokens[i]);
  }

  has(t: number): boolean {
    return (this.bits[t >>> 5] & (1 << (t & 31))) !== 0;
  }

  add(t: number): void {
    const w = t >>> 5;
    const bit = 1 << (t & 31);
    if (this.bits[w] & bit) return;
    this.bits[w] |= bit;
    this.size++;
  }
}

/**
 * Collects the tokens of one or more texts. The loop over the bytes is the cost of indexing a log:
 * about 4 ns a byte here; its set of seen tokens fits in the processor's first cache.
 */
export class GramCollector {
  private readonly seen = new Uint32Array(Math.ceil(TOKENS / 32));
  private tokens = new Int32Array(1 << 12);
  private n = 0;

  /** Adds a text's grams (no gram spans two texts). */
  add(bytes: Uint8Array): void {
    const seen = this.seen;
    let tokens = this.tokens;
    let n = this.n;
    let gram = 0;
    let k = 0;
    let prev = -1;
    const len = bytes.length;
    for (let i = 0; i < len; i++) {
      const v = NORM[bytes[i]];
      if (v === prev) continue; // a run of digits or other characters
      prev = v & COLLAPSE ? v : -1;
      gram = (gram << 8) | (v & 0xff);
      if (++k < GRAM) continue;
      const t = Math.imul(gram, 0x9e3779b1) >>> 17; // tokenOf, inline
      const w = t >>> 5;
      const bit = 1 << (t & 31);
      const word = seen[w];
      if (word & bit) continue;
      seen[w] = word | bit;
      if (n === tokens.length) {
        const grown = new Int32Array(n * 2);
        grown.set(tokens);
        this.tokens = tokens = grown;
      }
      tokens[n++] = t;
    }
    this.n = n;
  }

  addString(s: string): void {
    if (s) this.add(Buffer.from(s, 'utf8'));
  }

  /** The distinct tokens added since the last take; starts a new set. */
  take(): Int32Array {
    const out = this.tokens.slice(0, this.n);
    for (let j = 0; j < this.n; j++) this.seen[out[j] >>> 5] = 0;
    this.n = 0;
    return out;
  }
}

/** A literal of a pattern as the index holds texts (see the top of this file). */
export function normalizeLiteral(s: string): string {
  let out = '';
  let prev = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const c = cp >= 0x80 ? '\x01' : String.fromCharCode(NORM[cp] & 0xff);
    if (c === prev && (c === '0' || c === '\x01')) continue;
    out += c;
    prev = c;
  }
  return out;
}

/** The tokens of a normalised literal, distinct (none when shorter than a gram). */
export function literalTokens(norm: string): number[] {
  const out = new Set<number>();
  for (let i = 0; i + GRAM <= norm.length; i++) {
    let gram = 0;
    for (let k = 0; k < GRAM; k++) gram = (gram << 8) | norm.charCodeAt(i + k);
    out.add(tokenOf(gram));
  }
  return [...out];
}

/** Every token's text, made once (1,000 documents a pass of the sample world join 480,000 of them). */
const TOKEN_TEXT = Array.from({ length: TOKENS }, (_, t) => ALPHABET[t >>> 10] + ALPHABET[(t >>> 5) & 31] + ALPHABET[t & 31]);

/** A token as the index reads it: three letters or digits, 5 bits each. */
export const tokenText = (t: number): string => TOKEN_TEXT[t];

/** The text of a set of tokens, as a document holds it (in token order, so equal sets give equal texts). */
export function gramText(tokens: ArrayLike<number>): string {
  const sorted = Int32Array.from(tokens).sort();
  let out = '';
  for (let i = 0; i < sorted.length; i++) out += i ? ` ${TOKEN_TEXT[sorted[i]]}` : TOKEN_TEXT[sorted[i]];
  return out;
}

/** The tokens of a document's text (gramText's inverse). */
export function tokensOfText(text: string): number[] {
  const out: number[] = [];
  for (const w of text.split(' ')) if (w.length === 3) out.push((ALPHABET.indexOf(w[0]) << 10) | (ALPHABET.indexOf(w[1]) << 5) | ALPHABET.indexOf(w[2]));
  return out;
}
