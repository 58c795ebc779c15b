// openshift-tests build-log.txt → per-test cases, the end-of-run lists and summary (SOURCES.md section 4;
// format from openshift/origin pkg/test/ginkgo/status.go and cmd_runsuite.go). One linear pass over the
// lines: logs reach 50 MB, so no per-line regex except on the few lines that start with a known word.
import type { RawCase } from './types';
import { capText, matchesAt } from './junit';
import { detach } from './testNames';

export interface BuildLogResult {
  /** one per end line; a `flaked:` line gives a failed case followed by a passed one */
  cases: RawCase[];
  /** the `Failing tests:` block */
  failing: string[];
  /** the `Flaky tests:` block */
  flaky: string[];
  /** the final `error: F fail, P pass, S skip (dur)` line, or `P pass, S skip (dur)` (fail 0) */
  summary?: { fail: number; pass: number; skip: number };
  /** test name → `fail [file.go:NN]: message…` printed before its failed/flaked line */
  failTexts: Record<string, string>;
  /** release promotion jobs: `Will promote sha256:…, current is sha256:…` */
  promote?: { candidate: string; current: string };
  /**
   * A hint only (junit_operator.xml is the primary source): the first `level=fatal msg="…"` line of
   * openshift-install, as { step: 'install', message }.
   */
  installFailed?: { step: string; message: string };
}

const DURATION_UNITS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, 'µs': 1e-6, ns: 1e-9 };

/** Go duration ("1.2s", "1m2s", "1h2m3s", "300ms") → seconds; undefined if unparseable. */
export function parseGoDuration(s: string): number | undefined {
  let total = 0;
  let i = 0;
  const len = s.length;
  if (len === 0) return undefined;
  while (i < len) {
    const numStart = i;
    while (i < len && ((s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) || s.charCodeAt(i) === 46)) i++;
    if (i === numStart) return undefined;
    const unitStart = i;
    while (i < len && !(s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) && s.charCodeAt(i) !== 46) i++;
    const factor = DURATION_UNITS[s.slice(unitStart, i)];
    const n = Number(s.slice(numStart, unitStart));
    if (factor === undefined || Number.isNaN(n)) return undefined;
    total += n * factor;
  }
  return Math.round(total * 1000) / 1000;
}

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };

/**
 * Undoes Go's %q quoting of `"…"` (status lines print test names with %q). `\x`/octal escapes are bytes
 * of UTF-8. Malformed escapes are kept as written.
 */
export function goUnquote(quoted: string): string {
  const inner = quoted.length >= 2 && quoted[0] === '"' && quoted[quoted.length - 1] === '"' ? quoted.slice(1, -1) : quoted;
  let i = inner.indexOf('\\');
  if (i < 0) return inner;
  const parts: string[] = [];
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length) { parts.push(Buffer.from(bytes).toString('utf8')); bytes = []; }
  };
  let from = 0;
  while (i >= 0 && i + 1 < inner.length) {
    if (i > from) { flush(); parts.push(inner.slice(from, i)); }
    const e = inner[i + 1];
    let next = i + 2;
    const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    const hex = hexLen ? inner.slice(i + 2, i + 2 + hexLen) : '';
    if (e in SIMPLE_ESCAPES) {
      flush();
      parts.push(SIMPLE_ESCAPES[e]);
    } else if (hexLen && hex.length === hexLen && /^[0-9a-fA-F]+$/.test(hex)) {
      const v = parseInt(hex, 16);
      if (e === 'x') bytes.push(v);
      else { flush(); parts.push(v <= 0x10ffff && !(v >= 0xd800 && v <= 0xdfff) ? String.fromCodePoint(v) : '\uFFFD'); }
      next = i + 2 + hexLen;
    } else if (/^[0-7]{3}$/.test(inner.slice(i + 1, i + 4))) {
      bytes.push(parseInt(inner.slice(i + 1, i + 4), 8) & 0xff);
      next = i + 4;
    } else {
      flush();
      parts.push('\\'); // not an escape: keep the backslash, the next character is copied as text
      next = i + 1;
    }
    from = next;
    i = inner.indexOf('\\', next);
  }
  flush();
  parts.push(inner.slice(from));
  return parts.join('');
}

/** The value of a Go-quoted string starting at `start` (a `"`), up to the first unescaped quote. */
function readQuoted(text: string, start: number, limit: number): string {
  let i = start + 1;
  while (i < limit) {
    const c = text.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === 34) return goUnquote(text.slice(start, i + 1));
    else i++;
  }
  return goUnquote(text.slice(start, limit) + '"');
}

function lineBounds(text: string, at: number): [number, number] {
  const start = text.lastIndexOf('\n', at) + 1;
  let end = text.indexOf('\n', at);
  if (end < 0) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return [start, end];
}

function findPromote(text: string): BuildLogResult['promote'] {
  // the last occurrence, found forwards: indexOf is much faster than lastIndexOf on large strings
  let at = -1;
  for (let k = text.indexOf('Will promote '); k >= 0; k = text.indexOf('Will promote ', k + 1)) at = k;
  if (at < 0) return undefined;
  const [, end] = lineBounds(text, at);
  const m = /^Will promote (sha256:[0-9a-fA-F]+), current is (sha256:[0-9a-fA-F]+)/.exec(text.slice(at, end));
  return m ? { candidate: m[1], current: m[2] } : undefined;
}

/**
 * Only the promotion line of a log, found in its bytes without decoding or splitting them into lines:
 * all that is needed of a log where a sound junit gives every result and every failure text (most
 * runs; logs reach 50 MB).
 */
export function buildLogPromotion(bytes: Buffer): BuildLogResult['promote'] {
  let at = -1;
  for (let k = bytes.indexOf('Will promote '); k >= 0; k = bytes.indexOf('Will promote ', k + 1)) at = k;
  if (at < 0) return undefined;
  const end = bytes.indexOf(10, at);
  return findPromote(bytes.toString('utf8', at, end < 0 ? bytes.length : end));
}

function findInstallFatal(text: string): BuildLogResult['installFailed'] {
  const at = text.indexOf('level=fatal');
  if (at < 0) return undefined;
  const [, end] = lineBounds(text, at);
  const msgAt = text.indexOf('msg=', at);
  if (msgAt < 0 || msgAt >= end) return undefined;
  const v = msgAt + 4;
  const message = text.charCodeAt(v) === 34 ? readQuoted(text, v, end) : text.slice(v, end).trim();
  return message ? { step: 'install', message: detach(capText(message)) } : undefined;
}

/** A RawCase with one fixed object shape (spreads are slow on hundreds of thousands of lines). */
function rawCase(name: string, result: RawCase['result'], message: string, durationSec: number | undefined): RawCase {
  return durationSec === undefined ? { name, result, message, suite: '' } : { name, result, message, suite: '', durationSec };
}

const enum List { None, Flaky, Failing, Ignored }

export interface BuildLogOptions {
  /**
   * Return passed and skipped lines as cases too (default). Without them only failures and flakes
   * are cases: enough where a junit file already gives every result, and most lines of a log are
   * passes.
   */
  passes?: boolean;
}

/** Parses an openshift-tests build log. Never throws; unknown lines are ignored. */
export function parseBuildLog(text: string, options: BuildLogOptions = {}): BuildLogResult {
  const result: BuildLogResult = { cases: [], failing: [], flaky: [], failTexts: {} };
  if (typeof text !== 'string') return result;
  try {
    scanLines(text, result, options.passes ?? true);
    const promote = findPromote(text);
    if (promote) result.promote = promote;
    const installFailed = findInstallFatal(text);
    if (installFailed) result.installFailed = installFailed;
  } catch {
    // not expected; a log must never stop an ingest, so keep what was read
  }
  return result;
}

function scanLines(text: string, result: BuildLogResult, passes: boolean): void {
  const len = text.length;
  let list = List.None;
  let listStarted = false; // the header's blank line was consumed
  let failAt = -1; // start of the last `fail [` line since the previous status line
  let pos = 0;
  while (pos < len) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    let end = nl;
    if (end > pos && text.charCodeAt(end - 1) === 13) end--;
    const start = pos;
    pos = nl + 1;

    if (list !== List.None) {
      if (start === end) {
        if (listStarted) list = List.None;
        listStarted = true;
        continue;
      }
      listStarted = true;
      let name = detach(text.slice(start, end));
      if (name.length >= 2 && name[0] === '"' && name[name.length - 1] === '"') name = goUnquote(name);
      if (list === List.Flaky) result.flaky.push(name);
      else if (list === List.Failing) result.failing.push(name);
      continue;
    }
    if (end - start < 6) continue;
    const c = text.charCodeAt(start);
    if (c === 112 /* p */ || c === 102 /* f */ || c === 115 /* s */) {
      if (c === 102 && matchesAt(text, start, 'fail [')) { failAt = start; continue; }
      const kind: '' | 'started' | RawCase['result'] | 'flaked' = matchesAt(text, start, 'passed: (') ? 'passed'
        : matchesAt(text, start, 'failed: (') ? 'failed'
        : matchesAt(text, start, 'skipped: (') ? 'skipped'
        : matchesAt(text, start, 'flaked: (') ? 'flaked'
        : matchesAt(text, start, 'started: (') ? 'started' : '';
      if (!kind) continue;
      const failStart = failAt;
      failAt = -1;
      if (kind === 'started' || (!passes && (kind === 'passed' || kind === 'skipped'))) continue;
      const open = start + kind.length + 2;
      const close = text.indexOf(')', open);
      if (close < 0 || close >= end) continue;
      const q1 = text.indexOf('"', close);
      const q2 = text.lastIndexOf('"', end - 1);
      if (q1 < 0 || q1 >= end || q2 <= q1) continue;
      const name = detach(goUnquote(text.slice(q1, q2 + 1)));
      const durationSec = parseGoDuration(text.slice(open + 1, close));
      if (kind === 'passed' || kind === 'skipped') {
        result.cases.push(rawCase(name, kind, '', durationSec));
        continue;
      }
      let message = '';
      if (failStart >= 0) {
        const block = text.slice(failStart, start).trim();
        message = detach(capText(block.indexOf('\r') >= 0 ? block.replace(/\r\n/g, '\n') : block));
        if (message) result.failTexts[name] = message;
      }
      result.cases.push(rawCase(name, 'failed', message, durationSec));
      if (kind === 'flaked') result.cases.push(rawCase(name, 'passed', '', durationSec));
    } else if (c === 70 /* F */ || c === 83 /* S */) {
      // compare lengths first: ginkgo output has many "STEP: …" lines
      const n = end - start;
      const header = n === 12 && matchesAt(text, start, 'Flaky tests:') ? List.Flaky
        : n === 14 && matchesAt(text, start, 'Failing tests:') ? List.Failing
        : n === 41 && matchesAt(text, start, 'Skipped tests that failed a precondition:') ? List.Ignored : List.None;
      if (header !== List.None) { list = header; listStarted = false; }
    } else if (c === 101 /* e */ || c === 69 /* E */) {
      const m = /^[Ee]rror: (\d+) fail, (\d+) pass, (\d+) skip \(/.exec(text.slice(start, Math.min(end, start + 200)));
      if (m) result.summary = { fail: +m[1], pass: +m[2], skip: +m[3] };
    } else if (c >= 48 && c <= 57) {
      const m = /^(\d+) pass, (\d+) skip \([^)]*\)\s*$/.exec(text.slice(start, Math.min(end, start + 200)));
      if (m) result.summary = { fail: 0, pass: +m[1], skip: +m[2] };
    }
  }
}
