// JUnit XML → RawCase[], with a hand-written indexOf-based scanner (no DOM): junit files reach tens of
// MB, come truncated or malformed from CI, and must never throw. See SOURCES.md section 3.
import { detach } from './testNames';
import type { RawCase } from './types';

export const MAX_FAILURE_TEXT = 16 * 1024;
export const TRUNCATION_MARK = '\n...[truncated]...\n';
/** lines of <system-out> used when a failed case has no failure text (openshift-tests keeps ≤100) */
const SYSTEM_OUT_TAIL_LINES = 100;

/** Caps text at `max` chars, keeping the first and last halves around TRUNCATION_MARK (as triage does). */
export function capText(text: string, max = MAX_FAILURE_TEXT): string {
  if (text.length <= max) return text;
  const half = max >> 1;
  return text.slice(0, half) + TRUNCATION_MARK + text.slice(text.length - half);
}

/** The last `n` lines of `text` (without a trailing newline). */
export function tailLines(text: string, n: number): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--;
  let i = end;
  for (let k = 0; k < n; k++) {
    i = text.lastIndexOf('\n', i - 1);
    if (i < 0) return text.slice(0, end);
  }
  return text.slice(i + 1, end);
}

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
  switch (end - start) {
    case 2: return matchesAt(s, start, 'lt') ? '<' : matchesAt(s, start, 'gt') ? '>' : undefined;
    case 3: return matchesAt(s, start, 'amp') ? '&' : undefined;
    case 4: return matchesAt(s, start, 'quot') ? '"' : matchesAt(s, start, 'apos') ? "'" : undefined;
    default: return undefined;
  }
}

function toText(input: string | Buffer): string {
  let text: string;
  if (typeof input === 'string') text = input;
  else if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) text = input.toString('utf16le', 2);
  else text = input.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const enum Kind { Other, Suite, Case, Capture }

/**
 * Open elements at most (JUnit nests a few: suites, a case, its failure). Bounds the search of the
 * open elements for an end tag: with thousands open, unmatched end tags made a 450 KB file take 11 s.
 */
const MAX_DEPTH = 64;

interface Failure { message: string; body: string[] }
// arrays are created on first use: most cases have no failure and no output
interface OpenCase { name: string; suite: string; durationSec?: number; failures: Failure[] | null; skipped: boolean; out: string[] | null; err: string[] | null }

// Element names we act on, interned so that the scanner does not allocate a string per tag.
const KNOWN_NAMES = ['testsuites', 'testsuite', 'testcase', 'failure', 'error', 'skipped', 'system-out', 'system-err', 'properties', 'property'];

/**
 * Whether `word` occurs in `s` at `pos`. A charCodeAt loop: on multi-MB strings it is several times
 * faster than String.prototype.startsWith with a position.
 */
export function matchesAt(s: string, pos: number, word: string): boolean {
  const n = word.length;
  if (pos + n > s.length) return false;
  for (let k = 0; k < n; k++) if (s.charCodeAt(pos + k) !== word.charCodeAt(k)) return false;
  return true;
}

/** The element name s[start, end), as one of KNOWN_NAMES when it is one. */
function elementName(s: string, start: number, end: number): string {
  const n = end - start;
  for (const known of KNOWN_NAMES) if (known.length === n && matchesAt(s, start, known)) return known;
  return s.slice(start, end);
}

/** A `time` attribute: plain decimals are parsed by hand (no allocation), anything else by parseFloat. */
function parseSeconds(v: string): number {
  let n = 0;
  let scale = 0;
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    if (c >= 48 && c <= 57) { n = n * 10 + (c - 48); if (scale) scale *= 10; }
    else if (c === 46 && !scale) scale = 1;
    else return parseFloat(v);
    if (k > 15) return parseFloat(v); // beyond exact integer precision
  }
  return v.length === 0 ? NaN : scale ? n / scale : n;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

/** The start tag last read by readStartTag (module scratch state: the scanner is synchronous). */
const tag = { name: '', selfClosing: false, end: 0, attrName: undefined as string | undefined, time: undefined as string | undefined, message: undefined as string | undefined };

function isAttr(s: string, start: number, end: number, attr: string): boolean {
  return end - start === attr.length && matchesAt(s, start, attr);
}

/**
 * The start tag of most test cases, as every JUnit writer puts it: `<testcase name="..." time="...">`
 * (or `/>`), each attribute once, double quotes, single spaces, from `at` (after `<testcase `). Read
 * without looking at each character of the attribute names; false (nothing read) for anything else,
 * which the general reader then takes.
 */
function readPlainTestcase(s: string, at: number): boolean {
  if (!matchesAt(s, at, 'name="')) return false;
  const nameEnd = s.indexOf('"', at + 6);
  if (nameEnd < 0 || s.charCodeAt(nameEnd + 1) !== 32 || !matchesAt(s, nameEnd + 2, 'time="')) return false;
  const timeEnd = s.indexOf('"', nameEnd + 8);
  if (timeEnd < 0) return false;
  const c = s.charCodeAt(timeEnd + 1);
  const selfClosing = c === 47 && s.charCodeAt(timeEnd + 2) === 62;
  if (c !== 62 && !selfClosing) return false;
  tag.name = 'testcase';
  tag.attrName = decodeEntities(s.slice(at + 6, nameEnd)); // a view of the file (see detach)
  tag.time = s.slice(nameEnd + 8, timeEnd);
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
function readStartTag(s: string, lt: number): boolean {
  const len = s.length;
  let i = lt + 1;
  if (matchesAt(s, i, 'testcase') && isSpace(s.charCodeAt(i + 8))) {
    // most tags of a file: no need to find where the name ends and look it up
    if (readPlainTestcase(s, i + 9)) return true;
    tag.name = 'testcase';
    i += 8;
  } else {
    while (i < len) {
      const c = s.charCodeAt(i);
      if (isSpace(c) || c === 62 /* > */ || c === 47 /* / */) break;
      i++;
    }
    tag.name = elementName(s, lt + 1, i);
  }
  tag.attrName = tag.time = tag.message = undefined;
  for (;;) {
    while (i < len && isSpace(s.charCodeAt(i))) i++;
    if (i >= len) return false;
    const c = s.charCodeAt(i);
    if (c === 62) { tag.selfClosing = false; tag.end = i + 1; return true; }
    if (c === 47) {
      if (i + 1 >= len) return false;
      if (s.charCodeAt(i + 1) === 62) { tag.selfClosing = true; tag.end = i + 2; return true; }
      i++;
      continue;
    }
    const nameStart = i;
    while (i < len) {
      const d = s.charCodeAt(i);
      if (isSpace(d) || d === 61 /* = */ || d === 62 || d === 47) break;
      i++;
    }
    const nameEnd = i;
    while (i < len && isSpace(s.charCodeAt(i))) i++;
    if (i >= len) return false;
    if (s.charCodeAt(i) !== 61) continue; // attribute without a value
    i++;
    while (i < len && isSpace(s.charCodeAt(i))) i++;
    if (i >= len) return false;
    const q = s.charCodeAt(i);
    let valueStart: number, valueEnd: number;
    if (q === 34 || q === 39) {
      const close = s.indexOf(q === 34 ? '"' : "'", i + 1);
      if (close < 0) return false;
      valueStart = i + 1;
      valueEnd = close;
      i = close + 1;
    } else {
      valueStart = i;
      while (i < len && !isSpace(s.charCodeAt(i)) && s.charCodeAt(i) !== 62) i++;
      valueEnd = i;
    }
    if (isAttr(s, nameStart, nameEnd, 'name')) tag.attrName = decodeEntities(s.slice(valueStart, valueEnd)); // a view of the file (see detach)
    else if (isAttr(s, nameStart, nameEnd, 'time')) tag.time = s.slice(valueStart, valueEnd);
    else if (isAttr(s, nameStart, nameEnd, 'message')) tag.message = decodeEntities(s.slice(valueStart, valueEnd));
  }
}

/** Failure text: message attribute, else body; both → body, prefixed by the message if the body lacks it. */
function failureText(c: OpenCase): string {
  const parts: string[] = [];
  for (const f of c.failures ?? []) {
    const message = f.message.trim();
    const body = f.body.join('').trim();
    if (message && body) parts.push(body.includes(message) ? body : message + '\n' + body);
    else if (message || body) parts.push(message || body);
  }
  let text = parts.join('\n');
  if (!text) text = tailLines((c.out ?? []).join('').trim() || (c.err ?? []).join('').trim(), SYSTEM_OUT_TAIL_LINES);
  return detach(capText(text));
}

function describeOpen(kinds: Kind[], names: string[], suiteNames: string[], c: OpenCase | null): string {
  if (c) return `<testcase name="${c.name}">`;
  for (let k = kinds.length - 1; k >= 0; k--) {
    if (kinds[k] === Kind.Suite) return `<testsuite name="${suiteNames[suiteNames.length - 1] ?? ''}">`;
  }
  return names.length ? `<${names[names.length - 1]}>` : 'the document';
}

/**
 * Parses a JUnit XML file (string or raw bytes). Never throws: on malformed, truncated or non-XML input
 * it returns the cases completed so far and a one-line `error`.
 */
export function parseJunit(xml: string | Buffer): { cases: RawCase[]; error?: string } {
  const cases: RawCase[] = [];
  try {
    return scan(toText(xml), cases);
  } catch (e) {
    return { cases, error: `junit: internal parser error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function scan(s: string, cases: RawCase[]): { cases: RawCase[]; error?: string } {
  const len = s.length;
  if (/^\s*$/.test(s.slice(0, 4096)) && !s.trim()) return { cases, error: 'not XML: the file is empty' };
  if (s.slice(0, 1024).includes('\0')) return { cases, error: 'not XML: binary data' };

  const names: string[] = []; // open elements
  const kinds: Kind[] = [];
  const suiteNames: string[] = [];
  let open: OpenCase | null = null;
  let capture: string[] | null = null;
  let rootSeen = false;
  let nameless = 0;
  let truncatedIn = '';
  let tooDeep = '';
  let pos = 0;

  const finishCase = (): void => {
    const c = open as OpenCase;
    open = null;
    capture = null;
    if (!c.name) { nameless++; return; }
    const failed = c.failures !== null;
    const result = failed ? 'failed' : c.skipped ? 'skipped' : 'passed';
    const message = failed ? failureText(c) : '';
    // two fixed object shapes; a spread or delete would make V8 fall back to slow objects
    cases.push(c.durationSec === undefined
      ? { name: c.name, result, message, suite: c.suite }
      : { name: c.name, result, message, suite: c.suite, durationSec: c.durationSec });
  };
  const closeTop = (): void => {
    const kind = kinds.pop();
    names.pop();
    if (kind === Kind.Suite) suiteNames.pop();
    else if (kind === Kind.Case && open) finishCase();
    else if (kind === Kind.Capture) capture = null;
  };

  while (pos < len) {
    const lt = s.indexOf('<', pos);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd > pos) {
      if (capture) (capture as string[]).push(decodeEntities(s.slice(pos, textEnd)));
      else if (!rootSeen && s.slice(pos, textEnd).trim()) {
        return { cases, error: `not XML: starts with ${JSON.stringify(s.slice(pos, pos + 40))}` };
      }
    }
    if (lt < 0) break;
    const c1 = s.charCodeAt(lt + 1);
    if (c1 === 33 /* ! */) {
      if (matchesAt(s, lt, '<!--')) {
        const e = s.indexOf('-->', lt + 4);
        if (e < 0) { truncatedIn = 'a comment'; break; }
        pos = e + 3;
      } else if (matchesAt(s, lt, '<![CDATA[')) {
        const e = s.indexOf(']]>', lt + 9);
        if (e < 0) { truncatedIn = 'a CDATA section'; break; }
        if (capture) (capture as string[]).push(s.slice(lt + 9, e));
        pos = e + 3;
      } else {
        // <!DOCTYPE ...> possibly with an internal subset [...]
        const gt = s.indexOf('>', lt);
        const br = s.indexOf('[', lt);
        const e = br >= 0 && (gt < 0 || br < gt) ? s.indexOf(']>', br) : gt;
        if (e < 0) { truncatedIn = 'a <!DOCTYPE>'; break; }
        pos = e + (s.charCodeAt(e) === 93 ? 2 : 1);
      }
      continue;
    }
    if (c1 === 63 /* ? */) {
      const e = s.indexOf('?>', lt + 2);
      if (e < 0) { truncatedIn = 'a processing instruction'; break; }
      pos = e + 2;
      continue;
    }
    if (c1 === 47 /* / */) {
      // most end tags close the innermost element, written plainly (`</testcase>`)
      const inner = names.length ? names[names.length - 1] : '';
      if (inner && matchesAt(s, lt + 2, inner) && s.charCodeAt(lt + 2 + inner.length) === 62) {
        closeTop();
        pos = lt + 3 + inner.length;
        continue;
      }
      const gt = s.indexOf('>', lt + 2);
      if (gt < 0) { truncatedIn = 'an end tag'; break; }
      let nameEnd = gt;
      while (nameEnd > lt + 2 && isSpace(s.charCodeAt(nameEnd - 1))) nameEnd--;
      const k = names.lastIndexOf(elementName(s, lt + 2, nameEnd));
      if (k >= 0) while (names.length > k) closeTop(); // unknown end tags are ignored
      pos = gt + 1;
      continue;
    }
    if (lt + 1 >= len) { truncatedIn = 'a tag'; break; }
    if (!readStartTag(s, lt)) {
      const n = s.slice(lt + 1, Math.min(len, lt + 40)).split(/[\s/>]/)[0];
      truncatedIn = `a <${n}> start tag`;
      break;
    }
    pos = tag.end;
    const name = tag.name;
    if (!rootSeen) {
      if (name !== 'testsuites' && name !== 'testsuite') {
        return { cases, error: `not JUnit XML: root element is <${name}>, expected <testsuites> or <testsuite>` };
      }
      rootSeen = true;
    }
    let kind = Kind.Other;
    if (open) {
      const c = open as OpenCase;
      if (name === 'failure' || name === 'error') {
        const f: Failure = { message: tag.message ?? '', body: [] };
        (c.failures ??= []).push(f);
        if (!tag.selfClosing) { kind = Kind.Capture; capture = f.body; }
      } else if (name === 'skipped') {
        c.skipped = true;
      } else if (name === 'system-out' || name === 'system-err') {
        if (!tag.selfClosing) { kind = Kind.Capture; capture = name === 'system-out' ? (c.out ??= []) : (c.err ??= []); }
      } else if (name === 'testcase' && !capture) {
        // a testcase inside a testcase: close the outer one first
        while (kinds.length && kinds[kinds.length - 1] !== Kind.Case) closeTop();
        closeTop();
      }
    }
    if (name === 'testsuite' && !open) {
      kind = Kind.Suite;
      const parent = suiteNames.length ? suiteNames[suiteNames.length - 1] : '';
      suiteNames.push(tag.attrName || parent);
      if (tag.selfClosing) suiteNames.pop();
    } else if (name === 'testcase' && !open) {
      kind = Kind.Case;
      const t = tag.time === undefined ? NaN : parseSeconds(tag.time);
      open = {
        name: tag.attrName ?? '',
        suite: suiteNames.length ? suiteNames[suiteNames.length - 1] : '',
        durationSec: Number.isFinite(t) ? t : undefined,
        failures: null, skipped: false, out: null, err: null,
      };
      if (tag.selfClosing) finishCase();
    }
    if (!tag.selfClosing) {
      if (names.length === MAX_DEPTH) { tooDeep = name; break; }
      names.push(name);
      kinds.push(kind);
    }
  }

  const problems: string[] = [];
  if (!rootSeen && !truncatedIn) return { cases, error: 'not JUnit XML: no <testsuites> or <testsuite> element' };
  if (tooDeep) {
    problems.push(`elements nested deeper than ${MAX_DEPTH} (at <${tooDeep}>): the rest of the file was not read`);
  } else if (truncatedIn || names.length) {
    const where = describeOpen(kinds, names, suiteNames, open);
    problems.push(`truncated: unexpected end of file inside ${truncatedIn ? `${truncatedIn} in ` : ''}${where}`);
  }
  if (nameless) problems.push(`${nameless} testcase${nameless > 1 ? 's' : ''} without a name skipped`);
  return problems.length ? { cases, error: problems.join('; ') } : { cases };
}
