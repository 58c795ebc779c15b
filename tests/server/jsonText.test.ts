// API answers as routes write them: indented while small, compact when large, the same JSON either way.
import { describe, expect, it } from 'vitest';
import { INDENTED_UP_TO_CHARS, jsonText } from '../../lib/server/jsonText';

describe('answer texts', () => {
  it('are indented while small and compact when large, each ending in a newline', () => {
    const small = { items: [{ test: 'a', failedRuns: 1 }] };
    expect(jsonText(small)).toBe(`${JSON.stringify(small, null, 2)}\n`);
    const big = { items: Array.from({ length: 2000 }, (_, i) => ({ test: `[sig-x] test ${i}`, failedRuns: i })) };
    expect(JSON.stringify(big).length).toBeGreaterThan(INDENTED_UP_TO_CHARS);
    expect(jsonText(big)).toBe(`${JSON.stringify(big)}\n`);
    expect(JSON.parse(jsonText(big))).toEqual(big);
    expect(jsonText(null)).toBe('null\n');
    expect(jsonText('x')).toBe('"x"\n');
  });

  it('are made once per answer object', () => {
    const a = { items: [1, 2, 3] };
    const t = jsonText(a);
    a.items.push(4); // an answer never changes once made; this shows the text is the one kept
    expect(jsonText(a)).toBe(t);
  });
});
