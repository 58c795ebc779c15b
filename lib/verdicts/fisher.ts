// Fisher's exact test on a 2x2 table, computed with log-factorials (exact for any counts we see).

// log(n!) for every n asked so far, summed in order (the same doubles however far it has grown). A
// typed array grown by doubling: a test's 14 days run to 300,000 runs, and a plain array pushed that
// far copied itself over and over.
let logFactCache = new Float64Array(1024);
let logFactKnown = 1; // log(0!) = 0
/** The log-factorials, known at least up to n. */
function logFactsTo(n: number): Float64Array {
  if (n >= logFactKnown) {
    if (n >= logFactCache.length) {
      const grown = new Float64Array(Math.max(2 * logFactCache.length, n + 1));
      grown.set(logFactCache.subarray(0, logFactKnown));
      logFactCache = grown;
    }
    for (let i = logFactKnown; i <= n; i++) logFactCache[i] = logFactCache[i - 1] + Math.log(i);
    logFactKnown = n + 1;
  }
  return logFactCache;
}
const logFact = (n: number): number => logFactsTo(n)[n];

function logHypergeom(a: number, b: number, c: number, d: number): number {
  return logFact(a + b) + logFact(c + d) + logFact(a + c) + logFact(b + d) - logFact(a + b + c + d) - logFact(a) - logFact(b) - logFact(c) - logFact(d);
}

/** A term this much smaller than a sum adds nothing to it: a quarter of half its last place (ulp(p) > p * 2^-53). */
const NEGLIGIBLE = 2 ** -56;

/**
 * One-sided p-value that the "after" failure rate exceeds the "before" one:
 * P(X >= failedAfter) for the table [[failedBefore, passedBefore], [failedAfter, passedAfter]].
 */
export function fisherGreater(failedBefore: number, runsBefore: number, failedAfter: number, runsAfter: number): number {
  const failedTotal = failedBefore + failedAfter;
  const maxAfter = Math.min(failedTotal, runsAfter);
  const all = runsBefore + runsAfter;
  const L = logFactsTo(all);
  // each term is logHypergeom(a, b, x, d), whose first five log-factorials are the table's margins,
  // the same in every term: summed once, in the same order, so every term is the same double. (A
  // hot list sums 200,000 terms; a new process runs this unoptimized at first, where each of nine
  // calls a term made a number object.)
  const margins = L[runsBefore] + L[runsAfter] + L[failedTotal] + L[all - failedTotal] - L[all];
  let p = 0;
  let last = 0;
  for (let x = failedAfter; x <= maxAfter; x++) {
    const a = failedTotal - x; // failed before
    const b = runsBefore - a;
    const d = runsAfter - x;
    if (a < 0 || b < 0 || d < 0) continue;
    const term = Math.exp(margins - L[a] - L[b] - L[x] - L[d]);
    // past the distribution's one peak every term is smaller than the one before: once one is far
    // under half a unit in the last place of the sum, no later one changes the sum's double, nor
    // does one that fell to 0 (a hot list's 300,000 terms had 130,000 such)
    if (term < last && term < p * NEGLIGIBLE) break;
    p += term;
    last = term;
  }
  return Math.min(1, p);
}

/** Two-sided p-value (sum of tables no more likely than the observed one). */
export function fisherTwoSided(failedBefore: number, runsBefore: number, failedAfter: number, runsAfter: number): number {
  const failedTotal = failedBefore + failedAfter;
  const observed = logHypergeom(failedBefore, runsBefore - failedBefore, failedAfter, runsAfter - failedAfter);
  let p = 0;
  for (let x = Math.max(0, failedTotal - runsBefore); x <= Math.min(failedTotal, runsAfter); x++) {
    const lp = logHypergeom(failedTotal - x, runsBefore - failedTotal + x, x, runsAfter - x);
    if (lp <= observed + 1e-9) p += Math.exp(lp);
  }
  return Math.min(1, p);
}
