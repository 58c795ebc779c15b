// The span a verdict is judged on: a fixed lookback before `at`, whatever window a page shows, cut
// into buckets of a grid anchored to absolute time (whole 6-hour blocks since the epoch), so that the
// same test at the same `at` gets the same verdict on every tab and a change time never moves when a
// page is reloaded.

/** A verdict looks back this far from `at`. */
export const LOOKBACK_SECONDS = 14 * 86_400;
/** Bucket size of the verdict series: 00:00, 06:00, 12:00 and 18:00 UTC. */
export const GRID_SECONDS = 6 * 3600;

export interface Lookback {
  at: number;
  /** [from, at): the runs judged */
  from: number;
  /** index on the grid (bucket number since the epoch) of the first bucket */
  firstCell: number;
  buckets: number;
}

export function lookback(at: number): Lookback {
  const from = at - LOOKBACK_SECONDS;
  const firstCell = Math.floor(from / GRID_SECONDS);
  const lastCell = Math.floor((at - 1) / GRID_SECONDS);
  return { at, from, firstCell, buckets: lastCell - firstCell + 1 };
}

/** The bucket of a time inside the lookback. */
export const bucketIn = (lb: Lookback, t: number): number => Math.floor(t / GRID_SECONDS) - lb.firstCell;

/** Where bucket `b` starts on the grid (the first one may start before `from`: runs before it do not count). */
export const bucketStart = (lb: Lookback, b: number): number => (lb.firstCell + b) * GRID_SECONDS;
