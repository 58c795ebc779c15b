// Automatic bug links: which tests and failure signatures a bug is about, from its text alone.
//
// - By name (what Sippy does): the FULL test name appears in the summary, the description or a
//   comment. Stricter than a plain substring search: the occurrence must not start or end inside a
//   word, and a name that only occurs inside the occurrence of a longer test name is not linked
//   (a bug about "X should work with Y" is not a bug about "X should work").
// - By signature (what ci-search and Sippy do not do): the bug quotes a signature's characteristic
//   text. Only long, specific lines count: the failure message lines of the signature (from the
//   `fail [...]` line on, when there is one), each with enough words left once placeholders, file
//   paths, URLs and stock phrases ("timed out waiting for the condition", "Unexpected error:") are
//   taken out, and not shared by many signatures. The bug text goes through the same normaliser as
//   failure texts (signatureText) before it is compared.
//
// Pure: plain data in, links out. Test names and key lines are indexed (PatternIndex), so the cost
// is proportional to the bug text, not to tests × bugs.
import { SIGNATURE_TEXT_MAX, signatureText, TRUNCATED_SEPARATOR } from '../signatures/normalize';
import { PatternIndex } from '../signatures/patternIndex';

export type AutoReason = 'name-in-summary' | 'name-in-description' | 'name-in-comment' | 'signature';
export type LinkReason = AutoReason | 'manual';
export const LINK_REASONS: readonly LinkReason[] = ['manual', 'name-in-summary', 'name-in-description', 'name-in-comment', 'signature'];

/** lower is stronger: the reason shown when a test is linked to a bug in several ways */
export function reasonRank(reason: string): number {
  const i = LINK_REASONS.indexOf(reason as LinkReason);
  return i < 0 ? LINK_REASONS.length : i;
}

export interface BugText {
  summary: string;
  description: string;
  comments: string[];
}

/** Names shorter than this are too unspecific to link by (a bug mentioning "Overall" is not about it). */
export const MIN_NAME_LENGTH = 8;

const ALNUM = /[A-Za-z0-9]/;

/**
 * Whitespace runs as one space. Only runs that are not a single space already are replaced: bug
 * prose has a space between every two words, and replacing each of them with itself made relinking
 * 5,000 bugs spend about a second here.
 */
export function collapseSpaces(s: string): string {
  return s.replace(/\s{2,}|[^\S ]/g, ' ');
}

/** Markdown quote markers and escapes gone (the tests for them first: most texts have neither). */
function unquote(s: string): string {
  const unquoted = s.includes('>') ? s.replace(/^[ \t]*>+[ \t]?/gm, '') : s;
  return unquoted.includes('\\') ? unquoted.replace(/\\([[\]{}()*_#|`-])/g, '$1') : unquoted;
}

/** Text as the name matcher compares it: markup escapes and quote markers gone, whitespace runs as one space. */
export function canonicalText(s: string): string {
  return collapseSpaces(unquote(s)).trim();
}

export class TestNameIndex {
  private readonly index: PatternIndex;
  /** for each pattern, the indices of the names it stands for (names equal up to whitespace share one) */
  private readonly owners: number[][] = [];
  private readonly byCanonical = new Map<string, number>();
  private names = 0;

  /** `growable`: names will be added (see add). */
  constructor(names: readonly string[], growable = false) {
    const patterns: string[] = [];
    this.take(names, (c) => patterns.push(c) - 1);
    this.index = new PatternIndex(patterns, undefined, growable);
  }

  /** Adds names (numbered after those before); the index must have been built growable. */
  add(names: readonly string[]): void {
    this.take(names, (c) => this.index.push(c));
  }

  private take(names: readonly string[], newPattern: (canonical: string) => number): void {
    for (const name of names) {
      const i = this.names++;
      const c = canonicalText(name);
      if (c.length < MIN_NAME_LENGTH) continue;
      let p = this.byCanonical.get(c);
      if (p === undefined) {
        this.byCanonical.set(c, (p = newPattern(c)));
        this.owners[p] = [];
      }
      this.owners[p].push(i);
    }
  }

  /** Indices of the names that occur in full in text (canonicalised first). */
  find(text: string): Set<number> {
    const out = new Set<number>();
    for (const m of this.occurrences(canonicalText(text))) for (const owner of this.owners[m.pattern]) out.add(owner);
    return out;
  }

  /** The text (canonicalised) with every full-name occurrence blanked out. */
  strip(text: string): string {
    const t = canonicalText(text);
    let out = '';
    let at = 0;
    for (const m of this.occurrences(t)) {
      out += `${t.slice(at, m.start)} `;
      at = m.end;
    }
    return out + t.slice(at);
  }

  /** Occurrences on word boundaries, those inside a longer occurrence left out, in text order. */
  private occurrences(t: string): { pattern: number; start: number; end: number }[] {
    const patterns = this.index.patterns;
    const matches = this.index.findAll(t).filter((m) => {
      const p = patterns[m.pattern];
      if (ALNUM.test(p[0]) && m.start > 0 && ALNUM.test(t[m.start - 1])) return false;
      if (ALNUM.test(p[p.length - 1]) && m.end < t.length && ALNUM.test(t[m.end])) return false;
      return true;
    });
    // Longest match wins: drop occurrences lying inside a longer occurrence.
    matches.sort((a, b) => a.start - b.start || b.end - a.end);
    const out: typeof matches = [];
    let maxEnd = -1;
    for (const m of matches) {
      if (m.end <= maxEnd) continue;
      maxEnd = m.end;
      out.push(m);
    }
    return out;
  }
}

/** The tests a bug names, each with the strongest reason (summary, then description, then comment). */
export function nameLinks(index: TestNameIndex, bug: BugText): Map<number, AutoReason> {
  const out = new Map<number, AutoReason>();
  const mark = (text: string, reason: AutoReason) => {
    if (!text) return;
    for (const t of index.find(text)) if (!out.has(t)) out.set(t, reason);
  };
  mark(bug.summary, 'name-in-summary');
  mark(bug.description, 'name-in-description');
  for (const c of bug.comments) mark(c, 'name-in-comment');
  return out;
}

// ---- signatures ----------------------------------------------------------------------------------

/** Phrases that say nothing about which failure it is; removed before a line's words are counted. */
const STOCK_PHRASES = [
  'timed out waiting for the condition',
  'context deadline exceeded',
  'the server could not find the requested resource',
  'the server was unable to return a response in the time allotted',
  'the object has been modified; please apply your changes to the latest version and try again',
  'Client.Timeout exceeded while awaiting headers',
  'net/http: TLS handshake timeout',
  'net/http: request canceled',
  'connection reset by peer',
  'connection refused',
  'no such host',
  'i/o timeout',
  'unexpected EOF',
  'Unexpected error',
  'not to have occurred',
  'to have occurred',
];
const STOCK_RE = new RegExp(STOCK_PHRASES.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'gi');
const STOP_WORDS = new Set(['fail', 'failed', 'failure', 'error', 'errors', 'err', 'expected', 'occurred', 'info', 'step', 'the', 'and', 'for', 'with', 'equal', 'got', 'want']);
const PLACEHOLDER_RE = /UNIQ|TIME|DURATION|XXXXX|HASH|PORT|CLUSTER|DIGEST|ROUTE/g;
/** where a failure happened (`fail [file.go:NN]:`), and tokens with a slash: paths, URLs, namespace/name */
const LOCATION_RE = /\bfail \[[^\]]*\]:?|[^\s"'<>()]*\/[^\s"'<>()]*/g;

const TRUNCATED_LINE = TRUNCATED_SEPARATOR.trim();

/** Thresholds of a characteristic line: distinct informative words and their letters. */
export const KEY_LINE_MIN_WORDS = 4;
export const KEY_LINE_MIN_LETTERS = 24;
export const KEY_LINE_MIN_LENGTH = 32;
/** lines kept per signature, most informative first */
export const KEY_LINES_PER_SIGNATURE = 3;

/** A normalised line as matching sees it: ordinal numbers dropped, whitespace runs as one space. */
export function keyForm(normalised: string): string {
  return collapseSpaces(normalised.includes('UNIQ') ? normalised.replace(/UNIQ\d+/g, 'UNIQ') : normalised).trim();
}

/** Letters of the words that identify a failure, once placeholders and stock phrases are removed. */
export function informativeLetters(line: string): number {
  const rest = line.replace(STOCK_RE, ' ').replace(LOCATION_RE, ' ').replace(PLACEHOLDER_RE, ' ');
  const words = new Set((rest.match(/[A-Za-z]{3,}/g) ?? []).map((w) => w.toLowerCase()).filter((w) => !STOP_WORDS.has(w)));
  if (words.size < KEY_LINE_MIN_WORDS) return 0;
  let letters = 0;
  for (const w of words) letters += w.length;
  return letters >= KEY_LINE_MIN_LETTERS ? letters : 0;
}

/**
 * The lines of a signature text that could characterise it, in key form, with their informative
 * letters. Test names inside a line do not count (a failure text listing failing tests is about
 * them, and a bug naming a test links to it by name already).
 */
export function candidateKeyLines(signature: string, names?: TestNameIndex): { line: string; letters: number }[] {
  const lines = signature.split('\n');
  let from = 0;
  // the lines either side of the normaliser's cut are fragments
  const cut = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*fail \[/.test(lines[i])) from = i;
    if (lines[i] === TRUNCATED_LINE) cut.add(i - 1).add(i + 1);
  }
  const out = new Map<string, number>();
  for (let i = from; i < lines.length; i++) {
    if (cut.has(i)) continue;
    const line = keyForm(lines[i]);
    if (line.length < KEY_LINE_MIN_LENGTH || out.has(line)) continue;
    const letters = informativeLetters(names ? names.strip(line) : line);
    if (letters > 0) out.set(line, letters);
  }
  return [...out].map(([line, letters]) => ({ line, letters }));
}

/** A test name as it reads inside a normalised failure text (in key form). */
const nameAsInFailureText = (name: string): string => keyForm(signatureText(name));

/**
 * Chooses the key lines of signatures: `add` every signature (so lines shared by many signatures are
 * known to be boilerplate), then `keys` of each. Signatures may be added at any time; each one's
 * candidate lines are found once (finding them is most of the cost: 1.9 s for 50,000 signatures).
 */
export class SignatureKeySelector<K = string> {
  private readonly df = new Map<string, number>();
  /** each signature's candidate lines, most informative first */
  private readonly candidates = new Map<K, { line: string; letters: number }[]>();
  /** the test names as they read inside a normalised failure text */
  private readonly names: TestNameIndex;

  constructor(testNames: readonly string[] = []) {
    this.names = new TestNameIndex(testNames.map(nameAsInFailureText), true);
  }

  /** Adds a signature (once per key). */
  add(key: K, text: string): void {
    if (!this.candidates.has(key)) this.take(key, text);
  }

  private take(key: K, text: string): void {
    const lines = candidateKeyLines(text, this.names).sort((a, b) => b.letters - a.letters || (a.line < b.line ? -1 : 1));
    this.candidates.set(key, lines);
    for (const { line } of lines) this.df.set(line, (this.df.get(line) ?? 0) + 1);
  }

  has(key: K): boolean {
    return this.candidates.has(key);
  }

  /**
   * Takes in test names added since. A name only blanks out its own occurrences in a line, so only
   * signatures whose text holds one of the new names can have other candidate lines now: returns a
   * test of a signature's text that is true at least for those (pass them to `again`).
   */
  addTestNames(testNames: readonly string[]): (text: string) => boolean {
    const forms = testNames.map(nameAsInFailureText);
    this.names.add(forms);
    const added = new TestNameIndex(forms);
    // A text without the longest run of letters of any new name holds none: the forms texts are
    // matched in (key form, canonical text) only drop digits after UNIQ and change what is not a
    // letter, so each run (cut at UNIQ) of a name the form holds is in the text itself.
    const runs = forms.map((f) => f.split(/UNIQ|[^A-Za-z]+/).reduce((a, b) => (b.length > a.length ? b : a)));
    // then the whole text at once: an occurrence in one of its lines is one in the whole
    return (text) => runs.some((r) => text.includes(r)) && added.find(keyForm(text)).size > 0;
  }

  /** Finds the candidate lines of an added signature again (see addTestNames). */
  again(key: K, text: string): void {
    for (const { line } of this.candidates.get(key) ?? []) this.df.set(line, this.df.get(line)! - 1);
    this.take(key, text); // in its place: signatures keep the order they came in
  }

  get size(): number {
    return this.candidates.size;
  }

  /** a line in more signatures than this is boilerplate */
  get maxSharedBy(): number {
    return Math.max(3, Math.ceil(this.candidates.size * 0.02));
  }

  /** The key lines of an added signature, most informative first. */
  keys(key: K): string[] {
    const limit = this.maxSharedBy;
    const out: string[] = [];
    for (const { line } of this.candidates.get(key) ?? []) {
      if (out.length === KEY_LINES_PER_SIGNATURE) break;
      if (this.df.get(line)! <= limit) out.push(line);
    }
    return out;
  }

  /** Every signature added that has key lines, with them. */
  *keyed(): Generator<{ key: K; lines: string[] }> {
    for (const key of this.candidates.keys()) {
      const lines = this.keys(key);
      if (lines.length) yield { key, lines };
    }
  }
}

/** Normalised texts cut at line ends below the normaliser's own truncation length. */
function normalisedPieces(text: string, max = SIGNATURE_TEXT_MAX - 500): string[] {
  const out: string[] = [];
  let rest = unquote(text);
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut <= 0) cut = max;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut + 1);
  }
  if (rest) out.push(rest);
  return out.map((p) => keyForm(signatureText(p)));
}

/** The texts of a bug as quotes are looked for in them: normalised like failure texts, in pieces. */
export function quotablePieces(bug: BugText): string[] {
  const out: string[] = [];
  for (const text of [bug.summary, bug.description, ...bug.comments]) if (text) out.push(...normalisedPieces(text));
  return out;
}

/**
 * The signatures' key lines, to find the signatures a bug quotes. The key lines may be replaced
 * (setKeys) as signatures are added. Every line ever a key keeps its number (a line may stop being
 * one, and be one again), so what was found in a bug's text by number stays true: a bug read before
 * need only be searched for the lines numbered since (see linesFinder). The index is built anew
 * once it has grown to twice the lines it was built with.
 */
export class SignatureQuoteIndex<K> {
  private index!: PatternIndex;
  private readonly byLine = new Map<string, number>();
  private readonly lines: string[] = [];
  private owners: K[][] = [];
  private builtWith = 0;

  constructor(signatures: Iterable<{ key: K; lines: string[] }>) {
    this.setKeys(signatures);
  }

  /** lines numbered so far */
  get size(): number {
    return this.lines.length;
  }

  /** The signatures and their key lines are now these (all of them, not the changes). */
  setKeys(signatures: Iterable<{ key: K; lines: string[] }>): void {
    const numbered = this.lines.length;
    this.owners = this.owners.map(() => []);
    for (const s of signatures) {
      for (const line of s.lines) {
        let p = this.byLine.get(line);
        if (p === undefined) {
          this.byLine.set(line, (p = this.lines.length));
          this.lines.push(line);
        }
        (this.owners[p] ??= []).push(s.key);
      }
    }
    if (!this.index || this.lines.length > 2 * this.builtWith + 1000) {
      this.index = new PatternIndex(this.lines, undefined, true);
      this.builtWith = this.lines.length;
    } else for (let p = numbered; p < this.lines.length; p++) this.index.push(this.lines[p]);
  }

  /** The lines numbered `from` on. */
  linesFrom(from: number): readonly string[] {
    return this.lines.slice(from);
  }

  /**
   * A search of pieces (see quotablePieces) for the lines numbered `from` on, giving their numbers:
   * from 0, every line; else the lines numbered since a bug was searched (an index of just those).
   */
  linesFinder(from = 0): (pieces: readonly string[]) => number[] {
    if (from >= this.lines.length) return () => [];
    const index = from === 0 ? this.index : new PatternIndex(this.lines.slice(from));
    return (pieces) => {
      const found = new Set<number>();
      for (const piece of pieces) for (const m of index.findAll(piece)) found.add(m.pattern + from);
      return [...found];
    };
  }

  /** The signatures whose key line is one of these (numbers from linesFinder). */
  signaturesOf(lines: Iterable<number>): Set<K> {
    const out = new Set<K>();
    for (const p of lines) for (const k of this.owners[p] ?? []) out.add(k);
    return out;
  }

  /** Signatures whose key line the bug quotes (in any of its texts). */
  find(bug: BugText): Set<K> {
    return this.signaturesOf(this.linesFinder()(quotablePieces(bug)));
  }
}

// ---- everything at once ----------------------------------------------------------------------------

export interface AutoLinkInput<B> {
  tests: readonly { hash: string; name: string }[];
  signatures: readonly { hash: string; text: string }[];
  bugs: readonly ({ key: B } & BugText)[];
}

export interface AutoLinks<B> {
  names: { bug: B; test: string; reason: AutoReason }[];
  signatures: { bug: B; signature: string }[];
}

/** The automatic links between bugs and tests (by name) and signatures (by quote). */
export function computeAutoLinks<B>(input: AutoLinkInput<B>): AutoLinks<B> {
  const names = new TestNameIndex(input.tests.map((t) => t.name));
  const selector = new SignatureKeySelector(input.tests.map((t) => t.name));
  for (const s of input.signatures) selector.add(s.hash, s.text);
  const quotes = new SignatureQuoteIndex(selector.keyed());
  const out: AutoLinks<B> = { names: [], signatures: [] };
  for (const bug of input.bugs) {
    for (const [t, reason] of nameLinks(names, bug)) out.names.push({ bug: bug.key, test: input.tests[t].hash, reason });
    for (const signature of quotes.find(bug)) out.signatures.push({ bug: bug.key, signature });
  }
  return out;
}
