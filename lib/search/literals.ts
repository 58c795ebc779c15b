// What every match of an RE2 pattern must contain, as a query over literals for the search index:
// `(?i)timeout (waiting|after) \d+s` needs "timeout " and ("waiting" or "after"). Conservative: a text
// a pattern matches always satisfies the query (the index never hides a match); a construct it does
// not follow only loses precision (it requires nothing). The literals are normalised as the index's
// texts are (lib/store/searchGrams.ts), so case and digits count for nothing here; RE2 decides.
import { GRAM, normalizeLiteral } from '../store/searchGrams';

export type LiteralQuery = { all: true } | { lit: string } | { and: LiteralQuery[] } | { or: LiteralQuery[] };

export const ALL: LiteralQuery = { all: true };

/** Alternatives a node may match exactly, at most this many (their cross products grow fast). */
const MAX_EXACT = 16;
/** Characters a class may stand for and stay exact. */
const MAX_CLASS = 8;

/** What is known of the strings a part of the pattern matches: exactly one of `exact` (normalised), or it needs `q`. */
interface Info {
  exact?: Set<string>;
  q: LiteralQuery;
}

const anything = (): Info => ({ q: ALL });
const exactly = (strings: Iterable<string>): Info => {
  const exact = new Set([...strings].map(normalizeLiteral));
  return exact.size > MAX_EXACT ? { q: orOf([...exact].map(lit)) } : { exact, q: ALL };
};

function lit(s: string): LiteralQuery {
  return s.length >= GRAM ? { lit: s } : ALL;
}

export function andOf(qs: LiteralQuery[]): LiteralQuery {
  const parts = qs.flatMap((q) => ('all' in q ? [] : 'and' in q ? q.and : [q]));
  return parts.length === 0 ? ALL : parts.length === 1 ? parts[0] : { and: parts };
}

export function orOf(qs: LiteralQuery[]): LiteralQuery {
  if (!qs.length || qs.some((q) => 'all' in q)) return ALL;
  const parts = qs.flatMap((q) => ('or' in q ? q.or : [q]));
  return parts.length === 1 ? parts[0] : { or: parts };
}

/** What a part needs, as a query. */
function need(i: Info): LiteralQuery {
  return i.exact ? orOf([...i.exact].map(lit)) : i.q;
}

function concat(a: Info, b: Info): Info {
  if (a.exact && b.exact && a.exact.size * b.exact.size <= MAX_EXACT) {
    const out: string[] = [];
    for (const x of a.exact) for (const y of b.exact) out.push(x + y);
    return exactly(out);
  }
  return { q: andOf([need(a), need(b)]) };
}

function alternate(infos: Info[]): Info {
  if (infos.every((i) => i.exact)) {
    const all = new Set(infos.flatMap((i) => [...i.exact!]));
    if (all.size <= MAX_EXACT) return { exact: all, q: ALL };
  }
  return { q: orOf(infos.map(need)) };
}

class Unsupported extends Error {}

interface Flags {
  i: boolean;
}

/** The characters a code point may match as the index sees them (case folded; under (?i) K and S also match U+212A, U+017F). */
function charsOf(cp: number, f: Flags, into: Set<string>): void {
  into.add(normalizeLiteral(String.fromCodePoint(cp)));
  if (!f.i) return;
  const lower = cp < 0x80 ? String.fromCharCode(cp).toLowerCase() : '';
  if (lower === 'k' || cp === 0x212a) into.add('k').add('\x01');
  if (lower === 's' || cp === 0x17f) into.add('s').add('\x01');
}

/** A recursive-descent reading of RE2 syntax, enough to find literals; anything else stands for "any". */
class Reader {
  private at = 0;

  constructor(private readonly src: string) {}

  read(): Info {
    const out = this.alternation({ i: false });
    if (this.at < this.src.length) throw new Unsupported();
    return out;
  }

  private peek(): string {
    return this.src[this.at] ?? '';
  }

  /** `f` is the enclosing group's: a `(?i)` in a branch holds for the branches after it too, as in RE2. */
  private alternation(f: Flags): Info {
    const flags = { ...f };
    const branches = [this.concatenation(flags)];
    while (this.peek() === '|') {
      this.at++;
      branches.push(this.concatenation(flags));
    }
    return branches.length === 1 ? branches[0] : alternate(branches);
  }

  /**
   * Exact while every piece is and their product stays small; else it needs each run of exact pieces
   * (as one literal: `a.*bcd` needs "bcd", not "b", "c", "d") and each other piece's needs.
   */
  private concatenation(f: Flags): Info {
    let run: Info = { exact: new Set(['']), q: ALL };
    const needs: LiteralQuery[] = [];
    let exact = true;
    while (this.at < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const piece = this.repeat(f);
      if (!piece) continue;
      if (piece.exact) {
        const joined = concat(run, piece);
        if (joined.exact) run = joined;
        else {
          exact = false;
          needs.push(need(run));
          run = piece;
        }
      } else {
        exact = false;
        needs.push(need(run), piece.q);
        run = { exact: new Set(['']), q: ALL };
      }
    }
    return exact ? run : { q: andOf([...needs, need(run)]) };
  }

  /** An atom and its quantifiers; null for a flag group `(?i)`, which changes `f` for the rest. */
  private repeat(f: Flags): Info | null {
    let info = this.atom(f);
    if (info === null) return null;
    for (;;) {
      const c = this.peek();
      if (c === '*' || c === '?' || c === '+') {
        this.at++;
        if (info.exact && [...info.exact].every((x) => x === '0' || x === '\x01')) {
          // a run of digits (or of other characters) is one character to the index: x+ is x
          info = c === '+' ? info : exactly([...info.exact, '']);
        } else info = c === '+' ? { q: need(info) } : c === '?' && info.exact ? exactly([...info.exact, '']) : anything();
      } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.at))) {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.at))!;
        this.at += m[0].length;
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (min === 0) info = max === 1 && info.exact ? exactly([...info.exact, '']) : anything();
        else if (min === max && info.exact && min <= 4) {
          let acc: Info = info;
          for (let k = 1; k < min; k++) acc = concat(acc, info);
          info = acc;
        } else info = { q: need(info) };
      } else break;
      if (this.peek() === '?') this.at++; // non-greedy: the same strings
    }
    return info;
  }

  private atom(f: Flags): Info | null {
    const c = this.peek();
    if (c === '(') return this.group(f);
    if (c === '[') return this.charClass(f);
    if (c === '\\') return this.escape(f);
    this.at++;
    if (c === '.') return anything();
    if (c === '^' || c === '$') return { exact: new Set(['']), q: ALL };
    if (c === '*' || c === '+' || c === '?' || c === '{') {
      if (c === '{') return single(c.codePointAt(0)!, f); // a { that starts no repeat is literal
      throw new Unsupported();
    }
    const cp = this.src.codePointAt(this.at - 1)!;
    if (cp > 0xffff) this.at++;
    return single(cp, f);
  }

  private group(f: Flags): Info | null {
    this.at++; // (
    let inner: Flags = f;
    if (this.src.startsWith('?', this.at)) {
      const m = /^\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|([imsU-]*)(:|\)))/.exec(this.src.slice(this.at));
      if (!m) throw new Unsupported();
      this.at += m[0].length;
      if (m[1] !== undefined) {
        const flags = { ...f };
        let on = true;
        for (const ch of m[1]) {
          if (ch === '-') on = false;
          else if (ch === 'i') flags.i = on;
        }
        if (m[2] === ')') {
          f.i = flags.i; // (?i) applies to the rest of the enclosing group
          return null;
        }
        inner = flags;
      }
    }
    const out = this.alternation(inner);
    if (this.peek() !== ')') throw new Unsupported();
    this.at++;
    return out;
  }

  private escape(f: Flags): Info {
    const rest = this.src.slice(this.at + 1);
    const c = rest[0];
    if (c === undefined) throw new Unsupported();
    this.at += 2;
    if (c === 'Q') {
      const end = rest.indexOf('\\E', 1);
      const text = end < 0 ? rest.slice(1) : rest.slice(1, end);
      this.at += text.length + (end < 0 ? 0 : 2);
      let acc: Info = { exact: new Set(['']), q: ALL };
      for (const ch of text) acc = concat(acc, single(ch.codePointAt(0)!, f));
      return acc;
    }
    const cp = this.escapedChar(c, rest);
    if (cp !== undefined) return single(cp, f);
    if (c === 'd') return { exact: new Set(['0']), q: ALL };
    if ('bBAz'.includes(c)) return { exact: new Set(['']), q: ALL };
    if ('DwWsSpPC'.includes(c)) {
      if ((c === 'p' || c === 'P') && rest[1] === '{') this.at = this.src.indexOf('}', this.at) + 1 || this.src.length;
      else if (c === 'p' || c === 'P') this.at++;
      return anything();
    }
    throw new Unsupported();
  }

  /** The code point of an escape that stands for one (\n, \x41, \x{263a}, \.), consuming its digits; else undefined. */
  private escapedChar(c: string, rest: string): number | undefined {
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
    if (c in simple) return simple[c];
    if (c === 'x') {
      const m = /^x(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(rest);
      if (!m) throw new Unsupported();
      this.at += m[0].length - 1;
      return parseInt(m[1] ?? m[2], 16);
    }
    if (/[^A-Za-z0-9]/.test(c)) {
      const cp = rest.codePointAt(0)!;
      if (cp > 0xffff) this.at++;
      return cp;
    }
    return undefined;
  }

  private charClass(f: Flags): Info {
    const end = this.classEnd();
    const body = this.src.slice(this.at + 1, end);
    this.at = end + 1;
    if (body.startsWith('^')) return anything();
    const chars = new Set<string>();
    const items = [...body.matchAll(/\[:\^?[a-z]+:\]|\\(?:x\{[0-9A-Fa-f]+\}|x[0-9A-Fa-f]{2}|[pP]\{[^}]*\}|[pP].|.)|[\s\S]/gu)].map((m) => m[0]);
    for (let k = 0; k < items.length; k++) {
      const item = items[k];
      if (item.startsWith('[:') || /^\\[dDwWsSpP]/.test(item)) {
        if (item === '\\d') chars.add('0');
        else return anything();
        continue;
      }
      const cp = this.classChar(item);
      if (items[k + 1] === '-' && k + 2 < items.length) {
        const to = this.classChar(items[k + 2]);
        k += 2;
        if (to - cp > MAX_CLASS * 4) {
          // a wide range: fine if it is all digits or all non-ASCII, else anything
          if (cp >= 0x80) chars.add('\x01');
          else return anything();
          continue;
        }
        for (let x = cp; x <= to; x++) charsOf(x, f, chars);
      } else charsOf(cp, f, chars);
      if (chars.size > MAX_CLASS) return anything();
    }
    return chars.size ? { exact: chars, q: ALL } : anything();
  }

  private classChar(item: string): number {
    if (!item.startsWith('\\')) return item.codePointAt(0)!;
    const save = this.at;
    const cp = this.escapedChar(item[1], item.slice(1));
    this.at = save;
    if (cp === undefined) throw new Unsupported();
    return cp;
  }

  /** The index of the `]` closing the class that starts here ([]] and [^]] hold a literal ]). */
  private classEnd(): number {
    let i = this.at + 1;
    if (this.src[i] === '^') i++;
    if (this.src[i] === ']') i++;
    for (; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '\\') i++;
      else if (c === '[' && this.src[i + 1] === ':') {
        const close = this.src.indexOf(':]', i + 2);
        if (close < 0) throw new Unsupported();
        i = close + 1;
      } else if (c === ']') return i;
    }
    throw new Unsupported();
  }
}

function single(cp: number, f: Flags): Info {
  const chars = new Set<string>();
  charsOf(cp, f, chars);
  return { exact: chars, q: ALL };
}

/** The literals every match of `pattern` (valid RE2 syntax) contains; ALL when nothing can be said. */
export function requiredLiterals(pattern: string): LiteralQuery {
  try {
    return need(new Reader(pattern).read());
  } catch (e) {
    if (e instanceof Unsupported) return ALL;
    throw e;
  }
}
