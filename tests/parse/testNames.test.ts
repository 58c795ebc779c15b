// The test names of a pass: one kept string per test, whichever run or file a name was read from.
import { describe, expect, it } from 'vitest';
import { TestNames } from '../../lib/parse/testNames';
import type { RawCase } from '../../lib/parse/types';

const raw = (name: string, result: RawCase['result'], message = ''): RawCase => ({ name, result, message, suite: 's' });

describe('TestNames', () => {
  it('numbers each name once and gives every run the same string for it', () => {
    const names = new TestNames();
    const fileA = '<x>[sig-a] one test name long enough to be a view</x>';
    const fileB = '<y>[sig-a] one test name long enough to be a view</y>';
    const first = names.mergeCases([raw(fileA.slice(3, -4), 'passed')]);
    const second = names.mergeCases([raw(fileB.slice(3, -4), 'failed', 'boom')]);
    expect(first[0].name).toBe('[sig-a] one test name long enough to be a view');
    expect(Object.is(first[0].name, second[0].name)).toBe(true);
    expect(names.names).toEqual(['[sig-a] one test name long enough to be a view']);
    expect(second).toEqual([{ name: first[0].name, outcome: 'failed', message: 'boom' }]);
  });

  it('cleans names, and names that differ only in control characters are one test', () => {
    const names = new TestNames();
    const merged = names.mergeCases([raw('t\u0000x', 'failed', 'f'), raw('tx', 'passed'), raw('t\u0007x', 'passed')]);
    expect(merged).toEqual([{ name: 'tx', outcome: 'flaked', message: 'f' }]);
    expect(names.number('t\u0000x')).toBe(names.number('tx'));
  });

  it('keeps merges apart, and grows past its first capacity', () => {
    const names = new TestNames();
    const many = Array.from({ length: 1000 }, (_, i) => raw(`test ${i}`, i % 2 ? 'passed' : 'skipped'));
    expect(names.mergeCases(many)).toHaveLength(1000);
    const again = names.mergeCases([raw('test 999', 'failed', 'x'), raw('test 1', 'passed'), raw('test 999', 'passed')]);
    expect(again.map((r) => [r.name, r.outcome])).toEqual([['test 999', 'flaked'], ['test 1', 'passed']]);
  });

  it('tells apart names that look alike at a glance (same length and ends, many of them)', () => {
    const names = new TestNames();
    // differ only at position 1, which no sampled character looks at
    const alike = Array.from({ length: 200 }, (_, i) => `[${String.fromCharCode(0x4e00 + i)}${'x'.repeat(60)}]`);
    const numbers = alike.map((n) => names.number(n));
    expect(new Set(numbers).size).toBe(200);
    // read again from other strings: the same numbers
    expect(alike.map((n) => names.number(` ${n}`.slice(1)))).toEqual(numbers);
  });
});
