// Counts per bucket (a day of a lookback, a sparkline point), one array per test and job: tens of
// thousands of them for a hot list. Plain arrays, not Float64Array: each small typed array carries an
// ArrayBuffer of its own, which made filling a hot list's 100 tests' series three times slower.

/** A packed array of n zeros per n, copied: faster to make than a holey `new Array(n)` filled, and faster to read. */
const templates: number[][] = [];

/** n zeros. */
export function zeros(n: number): number[] {
  let t = templates[n];
  if (!t) {
    t = [];
    for (let i = 0; i < n; i++) t.push(0);
    if (n < 64) templates[n] = t;
    else return t;
  }
  return t.slice();
}

/** The sum of a[from..to). */
export function sum(a: ArrayLike<number>, from = 0, to = a.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i];
  return s;
}

/** Adds a into `into`, bucket by bucket. */
export function addInto(into: number[], a: ArrayLike<number>): void {
  for (let i = 0; i < a.length; i++) into[i] += a[i];
}
