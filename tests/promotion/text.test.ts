// The paste-able sentences: "<gate> is blocked by <job>: failing T1 (flaky, bug 123), T2 (regression, no bug)".
import { describe, expect, it } from 'vitest';
import type { FailingTest, PromotionGate, PromotionJob } from '../../lib/promotion/types';
import { describeTests, gateSummary, overallSummary } from '../../lib/promotion/text';

const bug = (id: string) => ({ tracker: 'bugzilla', id, url: `https://bugzilla.example/show_bug.cgi?id=${id}`, status: 'NEW', summary: 's', reason: 'name-in-summary' });
const test = (name: string, classification: FailingTest['classification'], bugs: string[] = []): FailingTest => ({ test: name, id: '0123456789abcdef', classification, bugs: bugs.map(bug) });

function job(over: Partial<PromotionJob>): PromotionJob {
  return {
    job: 'promote-4.1',
    kind: 'blocking',
    entry: 'promote-4.1',
    latest: { buildId: '42', state: 'failure', url: 'https://prow.example/view/gs/b/logs/promote-4.1/42', started: '2026-11-22T19:00:00Z', finished: '2026-11-22T20:00:00Z' },
    consecutiveFailures: 3,
    lastSuccess: '2026-11-21T21:00:00Z',
    pending: [],
    failingTests: [],
    promote: null,
    ...over,
  };
}

function gate(blocked: boolean, jobs: PromotionJob[], reason = ''): PromotionGate {
  return { name: 'machine-os-content 4.1', blocked, reason, summary: '', blockingJobs: ['promote-4.1'], informingJobs: [], jobs, timeline: [] };
}

describe('gate summaries', () => {
  it('names the blocking job and each failing test with its verdict and bugs', () => {
    const g = gate(true, [job({ failingTests: [test('T1', 'flaky', ['123']), test('T2', 'regression')] })]);
    const s = gateSummary(g);
    expect(s).toContain('machine-os-content 4.1 is blocked by promote-4.1 (failure, 3 runs in a row, last success 2026-11-21T21:00:00Z): failing T1 (flaky, bug 123), T2 (regression, no bug).');
    expect(s).toContain('1 of 2 failing tests have no bug yet.');
  });

  it('says when the only blockers are known flakes with bugs, and lists pending runs', () => {
    const g = gate(true, [job({ failingTests: [test('T1', 'flaky', ['123'])], pending: [{ buildId: '43', url: '', started: '2026-11-22T23:00:00Z', listed: true }, { buildId: '40', url: '', started: '2026-11-20T08:00:00Z', listed: false, lastListed: '2026-11-20T09:30:00Z' }] })]);
    const s = gateSummary(g);
    expect(s).toContain('Pending: promote-4.1 43 (started 2026-11-22T23:00:00Z), promote-4.1 40 (started 2026-11-20T08:00:00Z; Deck stopped listing it after 2026-11-20T09:30:00Z, no result yet).');
    expect(s).toContain('Looks like those are known flakes with bugs');
    g.summary = s;
    expect(overallSummary([g], [])).toContain('Pending promotion jobs are promote-4.1 43, promote-4.1 40 (lost track).');
    expect(overallSummary([g], [])).toContain('Looks like promote-4.1 is the only blocker.');
  });

  it('says an aborted run counts as not succeeded', () => {
    const s = gateSummary(gate(true, [job({ latest: { ...job({}).latest!, state: 'aborted' }, consecutiveFailures: 1 })]));
    expect(s).toContain('was aborted (counts as not succeeded)');
  });

  it('says "no runs yet" for a gate whose jobs never ran, and names the success otherwise', () => {
    expect(gateSummary(gate(false, [job({ latest: null, consecutiveFailures: 0, lastSuccess: null })], 'no runs yet of promote-4.1'))).toBe(
      'machine-os-content 4.1 is not blocked: no runs yet of promote-4.1.',
    );
    const ok = job({ latest: { ...job({}).latest!, state: 'success' }, consecutiveFailures: 0 });
    expect(gateSummary(gate(false, [ok]))).toBe('machine-os-content 4.1 is not blocked: promote-4.1 42 succeeded 2026-11-22T20:00:00Z.');
  });

  it('keeps a mass failure short', () => {
    const many = Array.from({ length: 30 }, (_, i) => test(`T${i}`, 'failing'));
    expect(describeTests(many)).toMatch(/T7 \(failing, no bug\) and 22 more$/);
  });
});
