// The day packs' bytes (lib/store/dayPacks.ts): rows of 32-bit integers written as zigzag varints,
// each row's first value as its difference from the row before, read back exactly with their id and
// day put back; a row of small counts takes a byte a value.
import { describe, expect, it } from 'vitest';
import { decodeCells, encodeValues } from '../../lib/store/dayPacks';

/** The rows of a pack as the rollup holds them: [id, first, day, ...rest] each. */
function rollupRows(values: number[], packedWidth: number, id: number, day: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i += packedWidth) out.push(id, values[i], day, ...values.slice(i + 1, i + packedWidth));
  return out;
}

describe('day pack format', () => {
  it('reads back every row exactly, at each width the rollups have', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const width of [5, 7]) {
      const packedWidth = width - 2;
      for (const rows of [0, 1, 2, 40, 1000]) {
        const values: number[] = [];
        let job = Math.floor(random() * 800);
        for (let r = 0; r < rows; r++) {
          job += 1 + Math.floor(random() * 3);
          values.push(job);
          for (let j = 1; j < packedWidth; j++) values.push(Math.floor(random() * 4));
        }
        const cells = decodeCells(encodeValues(values, packedWidth), width, 4321, 20_781);
        expect([...cells]).toEqual(rollupRows(values, packedWidth, 4321, 20_781));
      }
    }
  });

  it('holds any 32-bit value, and rows out of order', () => {
    const values = [2 ** 31 - 1, -(2 ** 31), 0, 5, 2 ** 31 - 1, 1, 0, 300, 70_000, -(2 ** 31), -1, 129];
    expect([...decodeCells(encodeValues(values, 3), 5, 1, 2)]).toEqual(rollupRows(values, 3, 1, 2));
  });

  it('takes a byte a value for small counts of ascending jobs', () => {
    const values = Array.from({ length: 250 }, (_, r) => [r * 2 + 1, r % 3, 0, r % 2, 0]).flat();
    // the row count (two bytes), then 5 bytes a row
    expect(encodeValues(values, 5).byteLength).toBe(2 + 250 * 5);
  });
});
