// The span a verdict is judged on: a fixed lookback before `at`, whatever window a page shows, cut
// into buckets of a grid anchored to absolute time (UTC days), so that the same test at the same `at`
// gets the same verdict on every tab and a change time never moves when a page is reloaded. The
// lookback is the 13 whole days before the day of `at` and that day up to `at`: the rollups hold
// whole days, and only the day so far is read from the runs themselves.

/** Buckets of the lookback: 13 whole UTC days and the day of `at`. */
export const LOOKBACK_DAYS = 14;
/** Bucket size of the verdict series: UTC days. */
export const GRID_SECONDS = 86_400;
/** For the texts: about how far a verdict looks back. */
export const LOOKBACK_SECONDS = LOOKBACK_DAYS * GRID_SECONDS;

export interface Lookback {
  at: number;
  /** [from, at): the runs judged; from is the start of a UTC day */
  from: number;
  /** index on the grid (bucket number since the epoch) of the first bucket */
  firstCell: number;
  buckets: number;
}

export function lookback(at: number): Lookback {
  const lastCell = Math.floor((at - 1) / GRID_SECONDS);
  const firstCell = lastCell - (LOOKBACK_DAYS - 1);
  return { at, from: firstCell * GRID_SECONDS, firstCell, buckets: LOOKBACK_DAYS };
}

/** The bucket of a time inside the lookback. */
export const bucketIn = (lb: Lookback, t: number): number => Math.floor(t / GRID_SECONDS) - lb.firstCell;

/** Where bucket `b` starts on the grid. */
export const bucketStart = (lb: Lookback, b: number): number => (lb.firstCell + b) * GRID_SECONDS;
