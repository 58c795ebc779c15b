// The PostgreSQL array literal the bulk inserts send: the very text node-postgres writes for the same
// array (its own serialiser is the reference), for every kind of value a row holds.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { pgArrayLiteral } from '../../lib/store/bulk';
import type { Param } from '../../lib/store/db';

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (v: unknown) => string };

describe('pgArrayLiteral', () => {
  it('writes what node-postgres writes for the array', () => {
    let seed = 3;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) % n;
    const pieces = ['"', '\\', '{', '}', ',', ' ', 'NULL', 'a', '\n', '🦀', "'", 'ü', '\\"'];
    const value = (): Param => {
      switch (rand(8)) {
        case 0: return null;
        case 1: return rand(2 ** 31) - 2 ** 30;
        case 2: return rand(1000) / 7;
        case 3: return BigInt(rand(1000)) * 10_000_000_000n;
        case 4: return rand(2) === 0;
        case 5: return Buffer.from(Array.from({ length: rand(6) }, () => rand(256)));
        default: return Array.from({ length: rand(12) }, () => pieces[rand(pieces.length)]).join('');
      }
    };
    for (let t = 0; t < 500; t++) {
      const values = Array.from({ length: rand(20) }, value);
      expect(pgArrayLiteral(values), JSON.stringify(values, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).toBe(prepareValue(values));
    }
    expect(pgArrayLiteral([])).toBe('{}');
  });
});
