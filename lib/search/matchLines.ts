// Where a pattern matches in a text, as ci-search shows it: the matching lines, numbered, with
// `context` lines before and after, and the matches marked in each line.
import type { UserPattern } from '../patterns';

export interface MatchedLine {
  /** 1-based, in the text searched */
  line: number;
  text: string;
  /** the matches in `text`, [start, end) */
  marks: [number, number][];
  before: string[];
  after: string[];
}

export interface TextMatches {
  /** matches in the whole text (counted up to MAX_COUNTED) */
  matches: number;
  lines: MatchedLine[];
}

/** Matches counted per text at most (a pattern such as `e` matches everywhere). */
export const MAX_COUNTED = 10_000;
/** Context lines at most. */
export const MAX_CONTEXT = 20;
/** Characters of a line shown at most (a log line can be megabytes). */
const MAX_LINE = 2_000;

const clip = (s: string) => (s.length > MAX_LINE ? `${s.slice(0, MAX_LINE)}…` : s);

/** Where `re` (with the g flag) matches in `text`: the first `maxLines` matching lines with their context. */
export function matchLines(re: UserPattern, text: string, context: number, maxLines: number): TextMatches {
  const lines: MatchedLine[] = [];
  let matches = 0;
  let lineNo = 1;
  let counted = 0; // text[0, counted) holds lineNo - 1 newlines
  let current: MatchedLine | undefined;
  let currentStart = -1;
  re.lastIndex = 0;
  for (let m = re.exec(text); m && matches < MAX_COUNTED; m = re.exec(text)) {
    matches++;
    const at = m.index;
    if (!m[0].length) re.lastIndex = at + 1;
    if (lines.length >= maxLines && !current) continue;
    const start = text.lastIndexOf('\n', at - 1) + 1;
    if (current && start === currentStart) {
      if (current.marks.length < 50 && at - start < MAX_LINE) current.marks.push([at - start, Math.min(MAX_LINE, at - start + m[0].length)]);
      continue;
    }
    current = undefined;
    if (lines.length >= maxLines) continue;
    for (let i = text.indexOf('\n', counted); i >= 0 && i < start; i = text.indexOf('\n', i + 1)) lineNo++;
    counted = start;
    const endAt = text.indexOf('\n', at);
    const end = endAt < 0 ? text.length : endAt;
    const before: string[] = [];
    for (let s = start, k = 0; k < context && s > 0; k++) {
      const prev = text.lastIndexOf('\n', s - 2) + 1;
      before.unshift(clip(text.slice(prev, s - 1)));
      s = prev;
    }
    const after: string[] = [];
    for (let e = end, k = 0; k < context && e < text.length; k++) {
      const next = text.indexOf('\n', e + 1);
      const stop = next < 0 ? text.length : next;
      after.push(clip(text.slice(e + 1, stop)));
      e = stop;
    }
    current = { line: lineNo, text: clip(text.slice(start, end)), marks: at - start < MAX_LINE ? [[at - start, Math.min(MAX_LINE, at - start + m[0].length)]] : [], before, after };
    currentStart = start;
    lines.push(current);
  }
  return { matches, lines };
}
