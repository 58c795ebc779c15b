// The JUnit scanner's reading of tags, over the file's UTF-8 bytes rather than a string of the whole
// file: V8 puts a string over 128 KB in a page of its own, mapped afresh for each, and on this machine
// decoding a 534 KB junit of 3,000 tests cost 2.4-3 ms where its 3,000 names, decoded one by one, cost
// 0.25 ms (at OpenShift's 24,000 runs a day, a fifth of ingest's main thread). Structure is found on
// ASCII bytes (`<`, `>`, quotes, names), which never occur inside a multi-byte UTF-8 sequence, so a
// value decoded on its own reads as the same characters as in a decoding of the whole file.

/** Decodes the five XML entities and numeric character references; unknown entities stay as written. */
export function decodeEntities(s: string): string {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let out = '';
  let from = 0;
  while (amp >= 0) {
    const semi = s.indexOf(';', amp + 1);
    if (semi < 0) break;
    const decoded = semi - amp <= 12 ? decodeEntity(s, amp + 1, semi) : undefined;
    if (decoded !== undefined) {
      out += s.slice(from, amp) + decoded;
      from = semi + 1;
      amp = s.indexOf('&', from);
    } else {
      amp = s.indexOf('&', amp + 1);
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** The text of the entity s[start, end) (between & and ;), or undefined if it is not one we know. */
function decodeEntity(s: string, start: number, end: number): string | undefined {
  const c = s.charCodeAt(start);
  if (c === 35 /* # */) {
    // digits parsed by hand: a regex, a slice and parseInt per reference cost more than the rest of a test name
    const hex = s.charCodeAt(start + 1) === 120 || s.charCodeAt(start + 1) === 88;
    const from = start + (hex ? 2 : 1);
    if (end - from < 1 || end - from > (hex ? 8 : 10)) return undefined;
    let cp = 0;
    for (let i = from; i < end; i++) {
      const d = s.charCodeAt(i);
      const v = d >= 48 && d <= 57 ? d - 48 : hex && d >= 97 && d <= 102 ? d - 87 : hex && d >= 65 && d <= 70 ? d - 55 : -1;
      if (v < 0) return undefined;
      cp = cp * (hex ? 16 : 10) + v;
    }
    // XML forbids NUL and lone surrogates; fromCodePoint throws above U+10FFFF
    if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\uFFFD';
    return String.fromCodePoint(cp);
  }
  const entity = s.slice(start, end);
  switch (entity) {
    case 'lt': return '<';
    case 'gt': return '>';
    case 'amp': return '&';
    case 'quot': return '"';
    case 'apos': return "'";
    default: return undefined;
  }
}

/** The text of bytes [start, end), UTF-8 (malformed sequences as U+FFFD, as a whole-file decoding has them). */
export function utf8(b: Buffer, start: number, end: number): string {
  return b.toString('utf8', start, end);
}

/** Whether the ASCII `word` occurs in `b` at `pos`. */
export function bytesAt(b: Buffer, pos: number, word: string): boolean {
  const n = word.length;
  if (pos + n > b.length) return false;
  for (let k = 0; k < n; k++) if (b[pos + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** Whether the element name `name` (as decoded) is written at `pos`; its length in bytes there, else -1. */
export function nameAt(b: Buffer, pos: number, name: string): number {
  const n = name.length;
  for (let k = 0; k < n; k++) {
    const c = name.charCodeAt(k);
    if (c >= 128) {
      const bytes = Buffer.byteLength(name);
      return pos + bytes <= b.length && utf8(b, pos, pos + bytes) === name ? bytes : -1;
    }
    if (b[pos + k] !== c) return -1;
  }
  return pos + n <= b.length ? n : -1;
}

// Element names we act on, returned as these strings so that the scanner does not allocate one per tag.
const KNOWN_NAMES = ['testsuites', 'testsuite', 'testcase', 'failure', 'error', 'skipped', 'system-out', 'system-err', 'properties', 'property'];

/** The element name b[start, end), as one of KNOWN_NAMES when it is one. */
export function elementName(b: Buffer, start: number, end: number): string {
  const n = end - start;
  for (const known of KNOWN_NAMES) if (known.length === n && bytesAt(b, start, known)) return known;
  return utf8(b, start, end);
}

/** A `time` attribute, b[start, end): plain decimals are parsed by hand (no allocation), anything else by parseFloat. */
function parseSeconds(b: Buffer, start: number, end: number): number {
  let n = 0;
  let scale = 0;
  for (let k = start; k < end; k++) {
    const c = b[k];
    if (c >= 48 && c <= 57) { n = n * 10 + (c - 48); if (scale) scale *= 10; }
    else if (c === 46 && !scale) scale = 1;
    else return parseFloat(utf8(b, start, end));
    if (k - start > 15) return parseFloat(utf8(b, start, end)); // beyond exact integer precision
  }
  return end === start ? NaN : scale ? n / scale : n;
}

export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

/** The start tag last read by readStartTag (module scratch state: the scanner is synchronous). */
export const tag = { name: '', selfClosing: false, end: 0, attrName: undefined as string | undefined, seconds: NaN, message: undefined as string | undefined };

function isAttr(b: Buffer, start: number, end: number, attr: string): boolean {
  return end - start === attr.length && bytesAt(b, start, attr);
}

/**
 * The start tag of most test cases, as every JUnit writer puts it: `<testcase name="..." time="...">`
 * (or `/>`), each attribute once, double quotes, single spaces, from `at` (after `<testcase `). Read
 * without looking at each character of the attribute names; false (nothing read) for anything else,
 * which the general reader then takes.
 */
function readPlainTestcase(b: Buffer, at: number): boolean {
  if (!bytesAt(b, at, 'name="')) return false;
  const nameEnd = b.indexOf(34, at + 6);
  if (nameEnd < 0 || b[nameEnd + 1] !== 32 || !bytesAt(b, nameEnd + 2, 'time="')) return false;
  const timeEnd = b.indexOf(34, nameEnd + 8);
  if (timeEnd < 0) return false;
  const c = b[timeEnd + 1];
  const selfClosing = c === 47 && b[timeEnd + 2] === 62;
  if (c !== 62 && !selfClosing) return false;
  tag.name = 'testcase';
  tag.attrName = decodeEntities(utf8(b, at + 6, nameEnd));
  tag.seconds = parseSeconds(b, nameEnd + 8, timeEnd);
  tag.message = undefined;
  tag.selfClosing = selfClosing;
  tag.end = timeEnd + (selfClosing ? 3 : 2);
  return true;
}

/**
 * Reads the start tag beginning at `<` index `lt` into `tag`, keeping only the name/time/message
 * attributes. Returns false when the input ends inside it. Quoted values are found with indexOf,
 * so a `>` inside quotes is handled.
 */
export function readStartTag(b: Buffer, lt: number): boolean {
  const len = b.length;
  let i = lt + 1;
  if (bytesAt(b, i, 'testcase') && isSpace(b[i + 8])) {
    // most tags of a file: no need to find where the name ends and look it up
    if (readPlainTestcase(b, i + 9)) return true;
    tag.name = 'testcase';
    i += 8;
  } else {
    while (i < len) {
      const c = b[i];
      if (isSpace(c) || c === 62 /* > */ || c === 47 /* / */) break;
      i++;
    }
    tag.name = elementName(b, lt + 1, i);
  }
  tag.attrName = tag.message = undefined;
  tag.seconds = NaN;
  for (;;) {
    while (i < len && isSpace(b[i])) i++;
    if (i >= len) return false;
    const c = b[i];
    if (c === 62) { tag.selfClosing = false; tag.end = i + 1; return true; }
    if (c === 47) {
      if (i + 1 >= len) return false;
      if (b[i + 1] === 62) { tag.selfClosing = true; tag.end = i + 2; return true; }
      i++;
      continue;
    }
    const nameStart = i;
    while (i < len) {
      const d = b[i];
      if (isSpace(d) || d === 61 /* = */ || d === 62 || d === 47) break;
      i++;
    }
    const nameEnd = i;
    while (i < len && isSpace(b[i])) i++;
    if (i >= len) return false;
    if (b[i] !== 61) continue; // attribute without a value
    i++;
    while (i < len && isSpace(b[i])) i++;
    if (i >= len) return false;
    const q = b[i];
    let valueStart: number, valueEnd: number;
    if (q === 34 || q === 39) {
      const close = b.indexOf(q, i + 1);
      if (close < 0) return false;
      valueStart = i + 1;
      valueEnd = close;
      i = close + 1;
    } else {
      valueStart = i;
      while (i < len && !isSpace(b[i]) && b[i] !== 62) i++;
      valueEnd = i;
    }
    if (isAttr(b, nameStart, nameEnd, 'name')) tag.attrName = decodeEntities(utf8(b, valueStart, valueEnd));
    else if (isAttr(b, nameStart, nameEnd, 'time')) tag.seconds = parseSeconds(b, valueStart, valueEnd);
    else if (isAttr(b, nameStart, nameEnd, 'message')) tag.message = decodeEntities(utf8(b, valueStart, valueEnd));
  }
}
