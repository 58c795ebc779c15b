// The search index never hides a match: for patterns built from real log lines in every form the
// literal reader follows (and some it does not), whenever RE2 matches a text, the text's grams hold
// what the pattern's literal query asks for. Also what the query is for a few patterns, and the
// normalisation of texts and literals.
import fs from 'node:fs';
import path from 'node:path';
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { requiredLiterals, type LiteralQuery } from '../../lib/search/literals';
import { GramCollector, gramText, literalTokens, normalizeLiteral, tokensOfText } from '../../lib/store/searchGrams';
import { sampleWorld } from '../helpers/world';

function satisfied(q: LiteralQuery, tokens: Set<number>): boolean {
  if ('all' in q) return true;
  if ('lit' in q) return literalTokens(q.lit).every((t) => tokens.has(t));
  if ('and' in q) return q.and.every((s) => satisfied(s, tokens));
  return q.or.some((s) => satisfied(s, tokens));
}

const grams = new GramCollector();
const tokensOf = (text: string) => {
  grams.addString(text);
  return new Set(grams.take());
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Patterns that match `line`, in the forms people write. */
function patternsFor(line: string, rng: () => number): string[] {
  const pick = (n: number) => Math.floor(rng() * n);
  const a = pick(Math.max(1, line.length - 8));
  const piece = line.slice(a, a + 6 + pick(30));
  const cut = Math.max(1, pick(piece.length));
  const [head, tail] = [piece.slice(0, cut), piece.slice(cut)];
  const upper = piece.replace(/[a-z]/g, (c) => (rng() < 0.5 ? c.toUpperCase() : c));
  return [
    escape(piece),
    `(?i)${escape(upper)}`,
    `${escape(head)}.*${escape(tail)}`,
    `(?:${escape(piece)}|nothing here at all)`,
    escape(piece).replace(/[0-9]+/g, '\\d+'),
    escape(piece).replace(/[0-9]/g, '[0-9]'),
    escape(piece).replace(/ /g, '\\s+'),
    `^.*${escape(piece)}`,
    `(${escape(head)})+${escape(tail)}`,
    `${escape(head)}[${escape(tail.slice(0, 1)) || 'x'}]${escape(tail.slice(1))}`,
    `\\Q${piece.replace(/\\E/g, '')}\\E`,
    `${escape(head)}(?:${escape(tail)}){1}`,
    `${escape(piece)}?`,
  ];
}

describe('the literals of a pattern', () => {
  it('are what every match must contain, normalised as the index holds texts', () => {
    expect(requiredLiterals('Will promote')).toEqual({ lit: 'will promote' });
    expect(requiredLiterals('(?i)timeout (waiting|after)')).toEqual({ or: [{ lit: 'timeout waiting' }, { lit: 'timeout after' }] });
    expect(requiredLiterals('^\\s*error: (.*) failed$')).toEqual({ and: [{ lit: 'error: ' }, { lit: ' failed' }] });
    // a run of digits is one "0" to the index, whatever its length
    expect(requiredLiterals('sha256:[0-9a-f]{64}')).toEqual({ lit: 'sha0:' });
    expect(requiredLiterals('build\\d+ failed')).toEqual({ lit: 'build0 failed' });
    // nothing to look for: every document is a candidate
    expect(requiredLiterals('(.+)+X')).toEqual({ all: true });
    expect(requiredLiterals('foo|ba')).toEqual({ all: true });
  });

  it('never ask for more than a matched text holds (patterns from 2,000 lines of the sample world)', async () => {
    const { dir } = await sampleWorld();
    const world = JSON.parse(fs.readFileSync(path.join(dir, 'world.json'), 'utf8'));
    const logs: string[] = [];
    for (const r of world.runs.filter((x: { files: { path: string }[] }) => x.files.some((f) => f.path === 'build-log.txt')).slice(0, 40)) {
      logs.push(fs.readFileSync(path.join(dir, 'gcs', r.bucket, r.gcsPath, 'build-log.txt'), 'utf8'));
    }
    // lines of many kinds, and some with what the normalisation folds: digits, case, non-ASCII
    const lines = [...new Set(logs.flatMap((l) => l.split('\n')).filter((l) => l.length > 12))];
    lines.push('Ünïcödé pod ｆｕｌｌ-width 12345 KELVIN \u212a ſtate', 'tab\tseparated\tvalues 0x1F', 'NUL-free \u0001 control \u0002 chars');
    let seed = 7;
    const rng = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    let checked = 0;
    let narrowed = 0;
    for (let i = 0; i < 2000; i++) {
      const line = lines[Math.floor(rng() * lines.length)];
      const tokens = tokensOf(line);
      for (const p of patternsFor(line, rng)) {
        let re: RE2;
        try {
          re = new RE2(p);
        } catch {
          continue;
        }
        if (!re.test(line)) continue;
        const q = requiredLiterals(p);
        expect(satisfied(q, tokens), `${JSON.stringify(p)} matches ${JSON.stringify(line)}`).toBe(true);
        checked++;
        if (!('all' in q)) narrowed++;
      }
    }
    expect(checked).toBeGreaterThan(15_000);
    // and the index is of use: most of these patterns have something to look for
    expect(narrowed / checked).toBeGreaterThan(0.7);
  });
});

describe('the grams of a text', () => {
  it('hold every substring of it, case, digit runs and non-ASCII runs folded', () => {
    const text = 'Pod etcd-IP-10-0-140-21 failed: Ünicode 2026-11-22T10:00:00Z';
    const tokens = tokensOf(text);
    for (const sub of ['etcd-ip-10', 'ip-99-9-1', 'FAILED: ü', 'nicode 1999', 'T99:00:00z']) {
      expect(literalTokens(normalizeLiteral(sub)).every((t) => tokens.has(t)), sub).toBe(true);
    }
    expect(literalTokens(normalizeLiteral('passed')).every((t) => tokens.has(t))).toBe(false);
  });

  it('are stored as a text of tokens that reads back to the same set', () => {
    const tokens = tokensOf('the quick brown fox jumps over the lazy dog 42 times');
    const text = gramText([...tokens]);
    expect(text).toMatch(/^[a-z0-9]{3}( [a-z0-9]{3})*$/);
    expect(new Set(tokensOfText(text))).toEqual(tokens);
  });
});
