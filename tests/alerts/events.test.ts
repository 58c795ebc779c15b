// Alert events: one key per event while it lasts (so it is sent once), a new one when it starts again.
import { describe, expect, it } from 'vitest';
import { causeEvents, gateEvents, regressionEvents, slackEscape, streamEvents } from '../../lib/alerts/events';
import type { PromotionGate, ReleaseStreamStatus } from '../../lib/promotion/types';

const gate = (lastSuccess: string | null, state = 'failure'): PromotionGate => ({
  name: 'machine-os-content 4.1', blocked: state !== 'success', reason: '', summary: 'machine-os-content 4.1 is blocked by promote-4.1 <x>', blockingJobs: ['promote-4.1'], informingJobs: [], timeline: [],
  jobs: [{ job: 'promote-4.1', kind: 'blocking', entry: 'promote-4.1', latest: { buildId: '9', state, url: '', started: '', finished: '' }, consecutiveFailures: 2, lastSuccess, pending: [], failingTests: [], promote: null }],
});
const stream = (lastAccepted: string, rejectedInARow = 2): ReleaseStreamStatus => ({
  name: '4.2.0-0.nightly', fetchedAt: null, tags: 9, latest: { tag: 't', phase: 'Rejected', pullSpec: '' }, lastAccepted: { tag: lastAccepted }, blockingJobs: [], rejected: [],
  rejectedInARow, rejectedSince: null, lastAcceptedAt: null, failingBlockingJobs: [], summary: '',
});

describe('alert events', () => {
  it('a blocked gate keeps its key while blocked, and gets a new one once its job succeeded in between', () => {
    const [a] = gateEvents({ gates: [gate('2026-11-21T21:41:14Z')] }, 'https://b.example/promotion');
    const [again] = gateEvents({ gates: [gate('2026-11-21T21:41:14Z')] }, 'https://b.example/promotion');
    const [later] = gateEvents({ gates: [gate('2026-11-22T09:00:00Z')] }, 'https://b.example/promotion');
    expect(again.key).toBe(a.key);
    expect(later.key).not.toBe(a.key);
    expect(a.text).toBe('Promotion blocked: machine-os-content 4.1 is blocked by promote-4.1 &lt;x&gt;\nhttps://b.example/promotion');
    expect(gateEvents({ gates: [gate(null, 'success')] }, '')).toEqual([]);
  });

  it('a stream rejecting payloads is one event until a payload is accepted again', () => {
    expect(streamEvents({ releaseStreams: [stream('a', 2)] }, '')[0].key).toBe(streamEvents({ releaseStreams: [stream('a', 5)] }, '')[0].key);
    expect(streamEvents({ releaseStreams: [stream('b')] }, '')[0].key).not.toBe(streamEvents({ releaseStreams: [stream('a')] }, '')[0].key);
    expect(streamEvents({ releaseStreams: [stream('a', 0)] }, '')).toEqual([]);
  });

  it('regressions and causes are keyed by their ids', () => {
    const [r] = regressionEvents([{ id: 'e062995a6d34c2e2', test: 'T <b>', evidence: { summary: 'rose & stayed' } }], (id) => `https://b.example/tests/${id}`);
    expect(r).toEqual({ kind: 'new-regression', key: 'new-regression|e062995a6d34c2e2', text: 'New regression: T &lt;b&gt;: rose &amp; stayed\nhttps://b.example/tests/e062995a6d34c2e2' });
    expect(causeEvents([{ id: 'c1', title: 'install fails on aws', runs: 12 }])[0]).toEqual({ kind: 'new-cause', key: 'new-cause|c1', text: 'New cause: install fails on aws (12 runs)' });
    expect(slackEscape('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
  });
});
