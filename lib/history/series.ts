// Counts per bucket (a day of a lookback, a sparkline point), one array per test and job: tens of
// thousands of them for a hot list. Plain arrays, not Float64Array: each small typed array carries an
// ArrayBuffer of its own, which made filling a hot list's 100 tests' series three times slower.

/** n zeros. */
export const zeros = (n: number): number[] => new Array<number>(n).fill(0);
