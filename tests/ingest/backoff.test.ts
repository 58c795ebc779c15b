// How long a run that could not be taken waits for its next try.
import { describe, expect, it } from 'vitest';
import { backoffSeconds, LISTED_MAX_WAIT } from '../../lib/ingest/bookkeeping';

describe('backoffSeconds', () => {
  it('waits 5 minutes, then doubles up to a day, or up to an hour while Deck lists the run', () => {
    expect([1, 2, 3, 4, 5, 8, 9, 50].map((n) => backoffSeconds(n))).toEqual([300, 600, 1200, 2400, 4800, 38_400, 76_800, 86_400]);
    expect([1, 4, 5, 50].map((n) => backoffSeconds(n, LISTED_MAX_WAIT))).toEqual([300, 2400, 3600, 3600]);
    expect(backoffSeconds(0)).toBe(300);
  });
});
