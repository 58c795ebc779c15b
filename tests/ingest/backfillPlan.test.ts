// Which build ids a pass lists for a job, given how far earlier passes listed it (its cursor), the
// reach of --since and since when Deck's listings have covered the job; and the cursor after.
import { describe, expect, it } from 'vitest';
import { FOLDER_SETTLE_SECONDS, planJob } from '../../lib/ingest/backfill';

const NOW = 20_000;
/** listed up to now: covered up to an hour before (a build folder may appear after its id was made) */
const SETTLED = NOW - FOLDER_SETTLE_SECONDS;

describe('planJob', () => {
  it('lists a job never listed from the cutoff up to where Deck covers it, or up to now for a job not taken from Deck', () => {
    expect(planJob(undefined, 1000, 8000, NOW)).toEqual({ ranges: [[1000, 8000]], next: { from: 1000, to: 8000 } });
    expect(planJob(undefined, 1000, undefined, NOW)).toEqual({ ranges: [[1000, Infinity]], next: { from: 1000, to: SETTLED } });
  });

  it('lists nothing while the cursor reaches from the cutoff to where Deck covers the job', () => {
    expect(planJob({ from: 1000, to: 8000 }, 1500, 7000, NOW)).toEqual({ ranges: [], next: { from: 1000, to: 8000 } });
  });

  it('lists only what the cursor does not cover: further back when --since grows, the gap when Deck stopped covering', () => {
    expect(planJob({ from: 3000, to: 8000 }, 1000, 8000, NOW)).toEqual({ ranges: [[1000, 3000]], next: { from: 1000, to: 8000 } });
    expect(planJob({ from: 1000, to: 5000 }, 1000, 9000, NOW)).toEqual({ ranges: [[5000, 9000]], next: { from: 1000, to: 9000 } });
    expect(planJob({ from: 3000, to: 5000 }, 1000, 9000, NOW)).toEqual({ ranges: [[1000, 3000], [5000, 9000]], next: { from: 1000, to: 9000 } });
    // not taken from Deck: what was made since the last pass (and in the hour before), every pass
    expect(planJob({ from: 1000, to: 9000 }, 1000, undefined, NOW)).toEqual({ ranges: [[9000, Infinity]], next: { from: 1000, to: SETTLED } });
    // Deck covering up to the present: the same hour is listed again
    expect(planJob({ from: 1000, to: 9000 }, 1000, NOW - 60, NOW)).toEqual({ ranges: [[9000, NOW - 60]], next: { from: 1000, to: SETTLED } });
  });

  it('drops a cursor that ends before the cutoff: a coverage is one unbroken range', () => {
    expect(planJob({ from: 100, to: 500 }, 1000, 8000, NOW)).toEqual({ ranges: [[1000, 8000]], next: { from: 1000, to: 8000 } });
  });

  it('lists nothing when --since reaches less far back than Deck covers', () => {
    expect(planJob(undefined, 8500, 8000, NOW)).toEqual({ ranges: [], next: { from: 8500, to: 8500 } });
  });
});
