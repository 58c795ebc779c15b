// A release stream that rejects payloads blocks promotion too: how many in a row, since when, and
// which blocking jobs failed, in the answer and in the sentences the banner and the CLI print.
import { describe, expect, it } from 'vitest';
import type { StoredReleaseTag } from '../../lib/promotion/streams';
import { failingJobsOfStreak, rejectionStreak, tagTime } from '../../lib/promotion/streak';
import { overallSummary, rejectionText, streamSummary } from '../../lib/promotion/text';
import type { ReleaseStreamStatus, StreamJob } from '../../lib/promotion/types';

const tag = (name: string, phase: string, position: number, failed: string[] = []): StoredReleaseTag => ({
  tag: name,
  phase,
  pullSpec: `registry.ci.openshift.org/ocp/release:${name}`,
  position,
  results: { blockingJobs: Object.fromEntries(failed.map((j) => [j, { state: 'Failed', url: `https://prow.example/view/gs/b/logs/${j}/1` }])), informingJobs: {} },
  fetchedAt: 0,
});

// newest first, as the release controller lists them: one still verifying, five rejected, then accepted
const TAGS = [
  tag('4.2.0-0.nightly-2026-11-23-010000', 'Ready', 0),
  tag('4.2.0-0.nightly-2026-11-22-153232', 'Rejected', 1, ['aws']),
  tag('4.2.0-0.nightly-2026-11-22-043002', 'Rejected', 2, ['aws', 'upgrade']),
  tag('4.2.0-0.nightly-2026-11-21-155824', 'Rejected', 3, ['aws']),
  tag('4.2.0-0.nightly-2026-11-21-031937', 'Failed', 4),
  tag('4.2.0-0.nightly-2026-11-20-200000', 'Rejected', 5, ['aws']),
  tag('4.2.0-0.nightly-2026-11-20-141800', 'Accepted', 6),
  tag('4.2.0-0.nightly-2026-11-19-155349', 'Rejected', 7, ['aws']),
];

describe('rejection streak', () => {
  it('counts the rejected payloads in a row below the one still being verified, down to the last accepted', () => {
    const s = rejectionStreak([...TAGS].reverse());
    expect(s.rejected.map((t) => t.position)).toEqual([1, 2, 3, 4, 5]);
    expect(s.lastAccepted?.tag).toBe('4.2.0-0.nightly-2026-11-20-141800');
    expect(rejectionStreak(TAGS.slice(6)).rejected).toEqual([]);
    expect(rejectionStreak([]).rejected).toEqual([]);
  });

  it('reads a payload\'s creation time from its name, else its jobs\' earliest transition', () => {
    expect(new Date(tagTime(TAGS[5])! * 1000).toISOString()).toBe('2026-11-20T20:00:00.000Z');
    const rc = { tag: '4.2.0-rc.1', results: { blockingJobs: { aws: { state: 'Failed', url: '', transitionTime: '2026-11-21T05:00:00Z' } }, informingJobs: { gcp: { state: 'Succeeded', url: '', transitionTime: '2026-11-21T04:00:00Z' } } } };
    expect(new Date(tagTime(rc)! * 1000).toISOString()).toBe('2026-11-21T04:00:00.000Z');
    expect(tagTime({ tag: '4.2.0-rc.2', results: { blockingJobs: {}, informingJobs: {} } })).toBeNull();
  });

  it('counts each failing blocking job over the streak, most often first', () => {
    const jobs = (t: StoredReleaseTag) => Object.keys(t.results.blockingJobs).map((name) => ({ name, tag: t.tag }));
    const counts = failingJobsOfStreak(rejectionStreak(TAGS).rejected.map(jobs));
    expect(counts.map((c) => [c.name, c.payloads, c.latest.tag])).toEqual([
      ['aws', 4, '4.2.0-0.nightly-2026-11-22-153232'],
      ['upgrade', 1, '4.2.0-0.nightly-2026-11-22-043002'],
    ]);
  });
});

describe('the sentences', () => {
  const job = (name: string): StreamJob => ({ name, state: 'Failed', url: '', run: { job: `periodic-ci-openshift-release-master-nightly-4.2-e2e-${name}`, buildId: '42', state: 'failure', url: '' }, failingTests: [] });
  const stream: ReleaseStreamStatus = {
    name: '4.2.0-0.nightly',
    fetchedAt: null,
    tags: 8,
    latest: { tag: '4.2.0-0.nightly-2026-11-23-010000', phase: 'Ready', pullSpec: '' },
    lastAccepted: { tag: '4.2.0-0.nightly-2026-11-20-141800' },
    blockingJobs: [],
    rejected: [],
    rejectedInARow: 5,
    rejectedSince: '2026-11-20T20:00:00Z',
    lastAcceptedAt: '2026-11-20T14:18:00Z',
    failingBlockingJobs: [{ name: 'aws', payloads: 4, latest: job('aws') }, { name: 'upgrade', payloads: 1, latest: job('upgrade') }],
    summary: '',
  };

  it('name the streak, since when, the last accepted payload and the failing jobs', () => {
    expect(rejectionText(stream)).toBe(
      '5 payloads rejected in a row since 2026-11-20T20:00:00Z; none accepted since 2026-11-20T14:18:00Z (4.2.0-0.nightly-2026-11-20-141800); failing blocking jobs aws in 4 of 5, upgrade in 1 of 5',
    );
    expect(streamSummary(stream)).toBe(`4.2.0-0.nightly: latest 4.2.0-0.nightly-2026-11-23-010000 Ready; ${rejectionText(stream)}.`);
    expect(rejectionText({ ...stream, rejectedInARow: 0 })).toBe('');
  });

  it('the overall summary lists the stream among the blockers, never "the only blocker" beside a gate', () => {
    const gate = {
      name: 'machine-os-content 4.1', blocked: true, reason: '', summary: 'machine-os-content 4.1 is blocked by promote-4.1.', blockingJobs: ['promote-4.1'], informingJobs: [], timeline: [],
      jobs: [{ job: 'promote-4.1', kind: 'blocking' as const, entry: 'promote-4.1', latest: { buildId: '7', state: 'failure', url: '', started: '', finished: '' }, consecutiveFailures: 1, lastSuccess: null, pending: [], failingTests: [], promote: null }],
    };
    const text = overallSummary([gate], [stream]);
    expect(text).toContain('Promotion blocked: machine-os-content 4.1.');
    expect(text).toContain(`Release stream rejecting payloads: 4.2.0-0.nightly (${rejectionText(stream)}).`);
    expect(text).toContain('Blockers: promote-4.1, release stream 4.2.0-0.nightly.');
    expect(text).not.toContain('only blocker');
    expect(overallSummary([], [stream])).toContain('Looks like release stream 4.2.0-0.nightly is the only blocker.');
  });
});
