// Failure-text normalisation and the text primitives of Kubernetes triage
// (kubernetes/test-infra triage/summarize/text.go, and the older triage/summarize.py), ported so that
// buildcop groups failures the way triage does and passes triage's own test vectors.
//
// Regexes are written out with ASCII classes instead of `.`, `\s`, `\S`: Go's RE2 classes are ASCII
// and its `.` only excludes "\n", while JavaScript's are Unicode-aware and `.` also excludes "\r".

/** Triage's defaultMaxClusterTextLength: longer normalised texts are cut to their two ends. */
export const DEFAULT_MAX_CLUSTER_TEXT_LENGTH = 10000;
export const TRUNCATED_SEPARATOR = '\n...[truncated]...\n';

/**
 * Signature texts are cut to their two ends at this length (triage keeps 10,000). The exact edit
 * distance that decides near matches costs about length² / 10, so 4,000 instead of 10,000 makes
 * clustering long texts (ci-operator step logs, stack traces) six times cheaper, while the lines
 * that tell failures apart (the `fail [...]:` line, the first error, the last lines) stay in.
 */
export const SIGNATURE_TEXT_MAX = 4000;

const SP = '[\\t\\n\\f\\r ]'; // Go's \s
const NS = '[^\\t\\n\\f\\r ]'; // Go's \S
const ANY = '[^\\n]'; // Go's .

// Dates and times → "TIME" (triage's flakeReasonDateRE plus the "12/10/25 13:52:29.244" Ginkgo form).
const DATE_RE = new RegExp(
  [
    `[A-Z][a-z]{2}, \\d+ \\w+ 2\\d{3} [\\d\\x2e-\\x3a ]*(?:[-+]\\d+)?`,
    `\\w{3}${SP}+\\d{1,2} \\d+:\\d+:\\d+(?:\\.\\d+)?`,
    `(?:\\d{4}-\\d\\d-\\d\\d${ANY}|${ANY}\\d{4} )\\d\\d:\\d\\d:\\d\\d(?:${ANY}\\d+)?`,
    `\\d\\d/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?`,
  ].join('|'),
  'g',
);

// Noisy tokens → "UNIQ<n>", numbered by first appearance: triage's flakeReasonOrdinalRE, then the
// node, pod and line-number forms that triage's TestNormalizeNodeNames / TestPodFailureClusteringSameID
// require. This regex is the specification; `replaceOrdinals` below is a hand-written matcher with the
// same leftmost-first semantics (V8 runs a regex this wide slowly), checked against it in the tests.
export const TRIAGE_ORDINAL_RE = new RegExp(
  [
    '0x[0-9a-fA-F]+', // hex constants
    '\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}(?::\\d+)?', // IPs (and versions) + optional port
    `[0-9a-fA-F]{8}-${NS}{4}-${NS}{4}-${NS}{4}-${NS}{12}(?:-\\d+)?`, // UUIDs + trailing digits
    '[0-9a-f]{12,32}', // hex garbage
    '(?:minion-group-|default-pool-)[-0-9a-z]{4,}', // GCE node names
    '\\bnodes-[-0-9a-z]{4,}', // kops/GKE-style node names: nodes-us-west1-a-w0fq
    '\\bi-[0-9a-f]{8,17}\\b', // AWS instance ids
    '\\bkind-(?:control-plane|worker)\\d*', // kind nodes
    '\\b[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*(?:-\\d+){2,}\\b', // pods with numeric suffixes: pod-x-2-14
    '\\.go:\\d+', // Go source lines
    // Kubernetes random name suffixes (vowel-free alphabet, or e2e's numeric ones) and the delimiter
    // after them, as triage's vectors show: `"test-7mhp"` → `"testUNIQ1`
    '-[bcdfghjklmnpqrstvwxz0-9]{4,5}[\\t\\n\\f\\r "/]',
  ].join('|'),
  'g',
);

// Character classes for the scanner, one bit each; bytes 128-255 (non-ASCII) have none.
const DIGIT = 1, LHEX = 2, HEX = 4, LOWER = 8, LALNUM = 16, WORD = 32, SUFFIX = 64, NODE = 128;
const CLASS = (() => {
  const table = new Uint8Array(256);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    const bits: Array<[RegExp, number]> = [
      [/[0-9]/, DIGIT], [/[0-9a-f]/, LHEX], [/[0-9a-fA-F]/, HEX], [/[a-z]/, LOWER], [/[a-z0-9]/, LALNUM],
      [/\w/, WORD], [/[bcdfghjklmnpqrstvwxz0-9]/, SUFFIX], [/[-0-9a-z]/, NODE],
    ];
    for (const [re, bit] of bits) if (re.test(ch)) table[c] |= bit;
  }
  return table;
})();
const PAD = 64; // zero bytes after the text, so look-ahead never needs a bounds check

let bytes: Buffer | undefined; // reused while texts fit in 1 MiB
/** The text as one byte per UTF-16 unit, non-ASCII as 0x80 (no class, not a space), zero padded. */
export function toBytes(s: string): Uint8Array {
  if (bytes === undefined || bytes.length < s.length + PAD) {
    const size = Math.max(s.length + PAD, 2 * (bytes?.length ?? 1 << 15));
    if (size > 1 << 20) return fillBytes(Buffer.alloc(s.length + PAD), s);
    bytes = Buffer.alloc(size);
  }
  return fillBytes(bytes, s);
}
function fillBytes(b: Buffer, s: string): Uint8Array {
  b.write(s, 0, 'latin1');
  if (NON_ASCII_RE.test(s)) for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) b[i] = 0x80;
  b.fill(0, s.length, s.length + PAD);
  return b;
}
export const NON_ASCII_RE = /[^\x00-\x7f]/;

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
function run(b: Uint8Array, i: number, flag: number, max: number): number {
  let j = i;
  const stop = i + max;
  while (j < stop && CLASS[b[j]] & flag) j++;
  return j - i;
}
function bytesAre(b: Uint8Array, i: number, literal: Uint8Array): boolean {
  for (let k = 0; k < literal.length; k++) if (b[i + k] !== literal[k]) return false;
  return true;
}
const ascii = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));
const MINION = ascii('minion-group-'), DEFAULT_POOL = ascii('default-pool-'), NODES = ascii('nodes-');
const KIND = ascii('kind-'), CONTROL_PLANE = ascii('control-plane'), WORKER = ascii('worker'), GO = ascii('.go:');

interface ScanState {
  n: number;
  podFailedUntil: number;
  hexEnd: number; // end of the [0-9a-fA-F] run that the current position is in
  lowerHexEnd: number; // end of the [0-9a-f] run that the current position is in
}

/** End of the TRIAGE_ORDINAL_RE match starting at p, or -1: alternatives tried in regex order. */
function ordinalMatchEnd(b: Uint8Array, p: number, atBoundary: boolean, st: ScanState): number {
  const c = b[p];
  const f = CLASS[c];
  if (f & HEX) {
    if (c === 48 && b[p + 1] === 120 && CLASS[b[p + 2]] & HEX) return p + 2 + run(b, p + 2, HEX, st.n);
    if (f & DIGIT) {
      // \d{1,3}(\.\d{1,3}){3}: a group is the whole digit run (at most 3), then a dot for the first 3
      let q = p;
      let group = 0;
      for (; group < 4; group++) {
        const r = run(b, q, DIGIT, 3);
        if (r === 0 || (group < 3 && b[q + r] !== 46)) break;
        q += group < 3 ? r + 1 : r;
      }
      if (group === 4) {
        if (b[q] === 58 && CLASS[b[q + 1]] & DIGIT) q += 2 + run(b, q + 2, DIGIT, st.n);
        return q;
      }
    }
    if (st.hexEnd - p === 8 && b[p + 8] === 45 && p + 36 <= st.n) {
      let ok = true;
      for (let i = p + 9; i < p + 36 && ok; i++) {
        ok = i === p + 13 || i === p + 18 || i === p + 23 ? b[i] === 45 : !isSpace(b[i]);
      }
      if (ok) {
        let q = p + 36;
        if (b[q] === 45 && CLASS[b[q + 1]] & DIGIT) q += 2 + run(b, q + 2, DIGIT, st.n);
        return q;
      }
    }
    if (f & LHEX && st.lowerHexEnd - p >= 12) return p + Math.min(st.lowerHexEnd - p, 32);
  }
  if ((c === 109 && bytesAre(b, p, MINION)) || (c === 100 && bytesAre(b, p, DEFAULT_POOL))) {
    const r = run(b, p + 13, NODE, st.n);
    if (r >= 4) return p + 13 + r;
  }
  if (f & LOWER && atBoundary) {
    if (c === 110 && bytesAre(b, p, NODES)) {
      const r = run(b, p + 6, NODE, st.n);
      if (r >= 4) return p + 6 + r;
    }
    if (c === 105 && b[p + 1] === 45) {
      const r = run(b, p + 2, LHEX, 18);
      if (r >= 8 && r <= 17 && !(CLASS[b[p + 2 + r]] & WORD)) return p + 2 + r;
    }
    if (c === 107 && bytesAre(b, p, KIND)) {
      const q = bytesAre(b, p + 5, CONTROL_PLANE) ? p + 18 : bytesAre(b, p + 5, WORKER) ? p + 11 : -1;
      if (q >= 0) return q + run(b, q, DIGIT, st.n);
    }
    if (p >= st.podFailedUntil) {
      const end = podNameEnd(b, p, st);
      if (end >= 0) return end;
    }
  }
  if (c === 46 && bytesAre(b, p, GO) && CLASS[b[p + 4]] & DIGIT) return p + 5 + run(b, p + 5, DIGIT, st.n);
  if (c === 45) {
    const r = run(b, p + 1, SUFFIX, 6);
    const d = b[p + 1 + r];
    if ((r === 4 || r === 5) && (isSpace(d) || d === 34 || d === 47)) return p + 2 + r;
  }
  return -1;
}

// \b[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*(?:-\d+){2,}\b at a word start p. Segments are maximal runs
// (a shorter run is followed by an alphanumeric, which nothing in the pattern accepts), so the only
// backtracking is giving back the last numeric segment when no word boundary follows it. When it
// fails, it fails the same way from every later word start of the same chain of words: recording that
// keeps long "a-b-c-..." texts linear.
function podNameEnd(b: Uint8Array, p: number, st: ScanState): number {
  let q = p + run(b, p, LALNUM, st.n);
  while (b[q] === 45 && CLASS[b[q + 1]] & LOWER) q += 1 + run(b, q + 1, LALNUM, st.n);
  const lettersEnd = q;
  let count = 0;
  let previousEnd = -1;
  while (b[q] === 45 && CLASS[b[q + 1]] & DIGIT) {
    previousEnd = q;
    q += 1 + run(b, q + 1, DIGIT, st.n);
    count++;
  }
  if (count >= 2 && !(CLASS[b[q]] & WORD)) return q;
  if (count >= 3) return previousEnd;
  st.podFailedUntil = lettersEnd;
  return -1;
}

/** Same result as `s.replace(TRIAGE_ORDINAL_RE, token)`, tokens numbered by first appearance. */
export function replaceOrdinals(s: string): string {
  const n = s.length;
  const b = toBytes(s);
  const st: ScanState = { n, podFailedUntil: 0, hexEnd: 0, lowerHexEnd: 0 };
  const seen = new Map<string, string>();
  let out = '';
  let copied = 0;
  let previousIsWord = false;
  for (let p = 0; p < n; ) {
    const c = b[p];
    const f = CLASS[c];
    if (f & LOWER && !previousIsWord) {
      // A word of only [a-z] that is not followed by "-" holds no match: every alternative needs a
      // digit, a "-" or 12 letters a-f in a row. Most words are like that, so skip them whole.
      let q = p;
      let hexRun = 0;
      let longestHexRun = 0;
      for (let cq = CLASS[b[q]]; cq & LOWER; cq = CLASS[b[++q]]) {
        hexRun = cq & LHEX ? hexRun + 1 : 0;
        if (hexRun > longestHexRun) longestHexRun = hexRun;
      }
      if (!(CLASS[b[q]] & WORD) && b[q] !== 45 && longestHexRun < 12) {
        previousIsWord = true;
        p = q;
        continue;
      }
    }
    // most letters inside words cannot start a match: only look closer where one can
    let candidate = (f & LOWER && !previousIsWord) || c === 45 || c === 46 || c === 109 || c === 100;
    if (f & HEX && !candidate) {
      if (p >= st.hexEnd) st.hexEnd = p + run(b, p, HEX, n);
      if (f & LHEX && p >= st.lowerHexEnd) st.lowerHexEnd = p + run(b, p, LHEX, n);
      candidate = (f & DIGIT) !== 0 || st.hexEnd - p === 8 || st.lowerHexEnd - p >= 12;
    }
    if (candidate) {
      if (f & HEX) {
        if (p >= st.hexEnd) st.hexEnd = p + run(b, p, HEX, n);
        if (f & LHEX && p >= st.lowerHexEnd) st.lowerHexEnd = p + run(b, p, LHEX, n);
      }
      const end = ordinalMatchEnd(b, p, !previousIsWord, st);
      if (end >= 0) {
        const match = s.slice(p, end);
        let token = seen.get(match);
        if (token === undefined) {
          token = `UNIQ${seen.size + 1}`;
          seen.set(match, token);
        }
        out += s.slice(copied, p) + token;
        copied = p = end;
        previousIsWord = (CLASS[b[end - 1]] & WORD) !== 0;
        continue;
      }
    }
    previousIsWord = (f & WORD) !== 0;
    p++;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

const MAP_RE = /map\[([^\][]*)\]/g;

/** Triage's utils.RemoveDuplicateLines: drops lines equal to the line before them. */
function removeConsecutiveDuplicateLines(text: string): string {
  const lines = text.split('\n');
  const kept = [lines[0]];
  let previous = lines[0];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] !== previous) kept.push(lines[i]);
    previous = lines[i];
  }
  return kept.join('\n');
}

/**
 * Triage's `normalize(s, maxClusterTextLength)`: dates → "TIME", noisy tokens → "UNIQ<n>", Go
 * `map[...]` contents sorted, texts longer than maxLength de-duplicated by line and cut to their first
 * and last maxLength/2 characters. Lengths are UTF-16 code units (Go counts bytes; equal for ASCII).
 */
export function normalizeFailureText(text: string, maxLength = DEFAULT_MAX_CLUSTER_TEXT_LENGTH): string {
  // every date form has a ':' or ', ' in it
  let s = text.includes(':') || text.includes(', ') ? text.replace(DATE_RE, 'TIME') : text;
  if (s.includes('map[')) {
    s = s.replace(MAP_RE, (_m, inner: string) => `map[${inner.split(' ').sort().join(' ')}]`);
  }
  s = replaceOrdinals(s);
  if (s.length > maxLength) s = removeConsecutiveDuplicateLines(s);
  if (s.length > maxLength) {
    const half = Math.floor(maxLength / 2);
    s = s.slice(0, half) + TRUNCATED_SEPARATOR + s.slice(s.length - half);
  }
  return s;
}

// buildcop's extra rules for OpenShift text, applied to triage's output. Quoted words are kept on
// purpose ("Failed" vs "Running" is a different failure); only values that change from run to run go.
// Rules with a literal anchor run only when the text contains it (a cheap indexOf).
const K8S_ALNUM = '[bcdfghjklmnpqrstvwxz2456789]'; // k8s.io/apimachinery utilrand alphabet
const ANCHORED_RULES: Array<{ anchor: string; re: RegExp; to: string }> = [
  { anchor: 'goroutine ', re: /\bgoroutine \d+/g, to: 'goroutine N' },
  { anchor: 'sha256:', re: /\bsha256:(?:UNIQ\d+|[0-9a-f])+/g, to: 'sha256:DIGEST' },
  // OpenShift cluster endpoints: api.<cluster>.<domain>, <route>.apps.<cluster>.<domain>
  { anchor: 'api', re: /\b(api-int|api)\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, to: '$1.CLUSTER' },
  { anchor: '.apps.', re: /\b[A-Za-z0-9-]+\.apps\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, to: 'ROUTE.apps.CLUSTER' },
  { anchor: 'ci-', re: /\bci-(op|ln)-[a-z0-9]{4,}(?:-[a-z0-9]{5})?\b/g, to: 'ci-$1-NS' },
  { anchor: 'e2e-test-', re: /\be2e-test-([a-z0-9-]+?)-[a-z0-9]{5}\b/g, to: 'e2e-test-$1-NS' },
  { anchor: 'esource', re: /(ResourceVersion: a: ")\d+(" b: ")\d+"/g, to: '$1N$2N"' },
  { anchor: 'esource', re: /\b([Rr]esource[Vv]ersion["']?[:=] ?["']?)\d+/g, to: '$1N' },
];
// The rest in one pass, leftmost match first, then in this order at the same position.
const NOISE_RE = new RegExp(
  [
    // replica set / deployment pods: name-<pod-template-hash>-<suffix> (suffix maybe already UNIQ'd)
    `(-${K8S_ALNUM}{6,10}(?:-${K8S_ALNUM}{5}\\b|(?=UNIQ\\d)))`,
    `(-(?=[a-z]{0,4}[0-9])${K8S_ALNUM}{5}\\b)`, // other generated suffixes with a digit
    '-\\d+-(deploy|build|hook-pre|hook-post|hook-mid)\\b', // deployer, builder, hook pods
    // Go durations with a seconds unit: 1m23.5s, 2h0m0s, 500ms, 1.2µs (not quantities like "100m")
    '(\\b(?:\\d+h)?(?:\\d+m)?\\d+(?:\\.\\d+)?(?:ms|us|µs|ns|s)\\b)',
    '(:(?<=(?:\\.[A-Za-z]{2,24}|\\blocalhost|\\]):)\\d{2,5}\\b)', // ports after host names
    '(\\b\\d{4,}(?:\\.\\d+)?\\b)', // resource versions, ports, byte counts, pids...
  ].join('|'),
  'g',
);
const replaceNoise = (_m: string, hash?: string, suffix?: string, pod?: string, duration?: string, port?: string) =>
  hash ? '-HASH-XXXXX' : suffix ? '-XXXXX' : pod ? `-N-${pod}` : duration ? 'DURATION' : port ? ':PORT' : 'N';

/**
 * The text a failure is grouped by: triage's normalisation followed by buildcop's rules for values that
 * differ per OpenShift run (resource versions, durations, ports, ci-op-/e2e-test- namespaces, generated
 * pod names, cluster host names, goroutine numbers, sha256 digests, long decimal numbers).
 */
export function signatureText(raw: string): string {
  let s = normalizeFailureText(raw, SIGNATURE_TEXT_MAX);
  for (const rule of ANCHORED_RULES) if (s.includes(rule.anchor)) s = s.replace(rule.re, rule.to);
  return s.replace(NOISE_RE, replaceNoise);
}
