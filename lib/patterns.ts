// Patterns users type (search `q`, `job`, `test`, `owner`, highlighting, the configuration's regexes)
// run on RE2, whose time is linear in the text: V8's backtracking engine takes exponential time on
// patterns such as `(.+)+X`, and a single request with one froze the server for good. RE2 has no
// backreferences and no lookaround; a pattern using them, or too large, is refused with a message
// that says so (a 400 from the API).
import RE2 from 're2';
import { InvalidQueryError } from './errors';

/** Characters a user pattern may have. Longer ones are refused before compiling. */
export const MAX_PATTERN_LENGTH = 2000;

export type UserPattern = RE2;

/** Why RE2 refused a pattern, in words a user can act on. */
function explain(source: string, message: string): string {
  if (/invalid escape sequence: \\[1-9]/.test(message) || /\\k</.test(source)) return 'backreferences (\\1, \\k<name>) are not supported';
  if (/invalid perl operator: \(\?<?[=!]/.test(message)) return 'lookahead and lookbehind ((?=...), (?!...), (?<=...), (?<!...)) are not supported';
  if (/pattern too large/.test(message)) return 'the pattern is too large';
  return message;
}

/**
 * Compiles a user's pattern with RE2 (flags as RegExp's: `i`, `g`, `m`, `s`, `u`, `y`). `what` names
 * the parameter in the message ("job", "search"...). Throws InvalidQueryError (400). `maxLength`:
 * only for patterns of ours built from checked parts (the configuration's ignoreTests joined).
 */
export function compileRegex(source: string, what: string, flags = '', maxLength = MAX_PATTERN_LENGTH): UserPattern {
  if (source.length > maxLength) {
    throw new InvalidQueryError(`invalid ${what} regular expression: ${source.length} characters, ${maxLength} at most`);
  }
  try {
    return new RE2(source, flags);
  } catch (e) {
    throw new InvalidQueryError(`invalid ${what} regular expression: ${explain(source, (e as Error).message)} (patterns use RE2 syntax: https://github.com/google/re2/wiki/Syntax)`);
  }
}

/** Where a pattern matches in a text, as [start, end) pairs (at most `max`; empty matches skipped), for highlighting. */
export function matchRanges(re: UserPattern, text: string, max = 50): [number, number][] {
  const g = re.global ? re : new RE2(re, `${re.flags}g`);
  g.lastIndex = 0;
  const out: [number, number][] = [];
  for (let m = g.exec(text); m && out.length < max; m = g.exec(text)) {
    if (!m[0].length) {
      g.lastIndex++;
      continue;
    }
    out.push([m.index, m.index + m[0].length]);
  }
  return out;
}
