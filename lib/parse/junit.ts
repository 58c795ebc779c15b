// JUnit XML → RawCase[], with a hand-written indexOf-based scanner (no DOM) over the file's bytes
// (lib/parse/xmlBytes.ts): junit files reach tens of MB, come truncated or malformed from CI, and must
// never throw. See SOURCES.md section 3.
import { detach } from './testNames';
import type { RawCase } from './types';
import { bytesAt, decodeEntities, elementName, isSpace, nameAt, readStartTag, tag, utf8 } from './xmlBytes';

export { decodeEntities };

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

const enum Kind { Other, Suite, Case, Capture }

/**
 * Open elements at most (JUnit nests a few: suites, a case, its failure). Bounds the search of the
 * open elements for an end tag: with thousands open, unmatched end tags made a 450 KB file take 11 s.
 */
const MAX_DEPTH = 64;

interface Failure { message: string; body: string[] }
// arrays are created on first use: most cases have no failure and no output
interface OpenCase { name: string; suite: string; durationSec?: number; failures: Failure[] | null; skipped: boolean; out: string[] | null; err: string[] | null }

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
 * The file as UTF-8 bytes, and where its content starts (after a byte order mark). UTF-16LE (with its
 * mark, as some Windows tools write it) and strings are encoded to UTF-8 first: the scanner reads bytes.
 */
function toBytes(input: string | Buffer): { b: Buffer; start: number } {
  if (typeof input === 'string') input = Buffer.from(input, 'utf8');
  else if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) input = Buffer.from(input.toString('utf16le', 2), 'utf8');
  return { b: input, start: input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0 };
}

/**
 * Parses a JUnit XML file (string or raw bytes). Never throws: on malformed, truncated or non-XML input
 * it returns the cases completed so far and a one-line `error`.
 */
export function parseJunit(xml: string | Buffer): { cases: RawCase[]; error?: string } {
  const cases: RawCase[] = [];
  try {
    const { b, start } = toBytes(xml);
    return scan(b, start, cases);
  } catch (e) {
    return { cases, error: `junit: internal parser error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The first `chars` characters from byte `pos` (for messages: never more than 4 bytes a character). */
const excerpt = (b: Buffer, pos: number, chars: number) => utf8(b, pos, Math.min(b.length, pos + 4 * chars)).slice(0, chars);

function scan(s: Buffer, from: number, cases: RawCase[]): { cases: RawCase[]; error?: string } {
  const len = s.length;
  if (/^\s*$/.test(utf8(s, from, Math.min(len, from + 4096))) && !utf8(s, from, len).trim()) return { cases, error: 'not XML: the file is empty' };
  if (s.subarray(from, from + 1024).includes(0)) return { cases, error: 'not XML: binary data' };

  const names: string[] = []; // open elements
  const kinds: Kind[] = [];
  const suiteNames: string[] = [];
  let open: OpenCase | null = null;
  let capture: string[] | null = null;
  let rootSeen = false;
  let nameless = 0;
  let truncatedIn = '';
  let tooDeep = '';
  let pos = from;

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
    const lt = s.indexOf(60 /* < */, pos);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd > pos) {
      if (capture) (capture as string[]).push(decodeEntities(utf8(s, pos, textEnd)));
      else if (!rootSeen && utf8(s, pos, textEnd).trim()) {
        return { cases, error: `not XML: starts with ${JSON.stringify(excerpt(s, pos, 40))}` };
      }
    }
    if (lt < 0) break;
    const c1 = s[lt + 1];
    if (c1 === 33 /* ! */) {
      if (bytesAt(s, lt, '<!--')) {
        const e = s.indexOf('-->', lt + 4);
        if (e < 0) { truncatedIn = 'a comment'; break; }
        pos = e + 3;
      } else if (bytesAt(s, lt, '<![CDATA[')) {
        const e = s.indexOf(']]>', lt + 9);
        if (e < 0) { truncatedIn = 'a CDATA section'; break; }
        if (capture) (capture as string[]).push(utf8(s, lt + 9, e));
        pos = e + 3;
      } else {
        // <!DOCTYPE ...> possibly with an internal subset [...]
        const gt = s.indexOf(62, lt);
        const br = s.indexOf(91 /* [ */, lt);
        const e = br >= 0 && (gt < 0 || br < gt) ? s.indexOf(']>', br) : gt;
        if (e < 0) { truncatedIn = 'a <!DOCTYPE>'; break; }
        pos = e + (s[e] === 93 ? 2 : 1);
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
      const n = inner ? nameAt(s, lt + 2, inner) : -1;
      if (n >= 0 && s[lt + 2 + n] === 62) {
        closeTop();
        pos = lt + 3 + n;
        continue;
      }
      const gt = s.indexOf(62, lt + 2);
      if (gt < 0) { truncatedIn = 'an end tag'; break; }
      let nameEnd = gt;
      while (nameEnd > lt + 2 && isSpace(s[nameEnd - 1])) nameEnd--;
      const k = names.lastIndexOf(elementName(s, lt + 2, nameEnd));
      if (k >= 0) while (names.length > k) closeTop(); // unknown end tags are ignored
      pos = gt + 1;
      continue;
    }
    if (lt + 1 >= len) { truncatedIn = 'a tag'; break; }
    if (!readStartTag(s, lt)) {
      const n = excerpt(s, lt + 1, 39).split(/[\s/>]/)[0];
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
      const t = tag.seconds;
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
