// The promotion-gate rules on plain data: latest finished run, streaks, pending runs, aborted runs,
// gates without runs, regex job entries, and the blocked/unblocked timeline.
import { describe, expect, it } from 'vitest';
import { decideGate, gateTimeline, isLiteralJobName, jobStateAt, latestFinished, matchJobEntries, type GateRun } from '../../lib/promotion/rules';

const H = 3600;
const T0 = 1_800_000_000;
let seq = 0;
function run(job: string, state: string, startedH: number, durationH: number | null = 1): GateRun {
  seq++;
  return {
    job,
    buildId: String(1000 + seq),
    state,
    started: T0 + startedH * H,
    finished: durationH === null ? null : T0 + (startedH + durationH) * H,
    url: `https://prow.example/view/gs/bucket/logs/${job}/${1000 + seq}`,
  };
}

describe('job state at a time', () => {
  it('takes the latest finished run and counts the failures since the last success', () => {
    const runs = [run('a', 'success', 0), run('a', 'failure', 2), run('a', 'error', 4), run('a', 'failure', 6)];
    const s = jobStateAt(runs, [], T0 + 10 * H);
    expect(s.latest?.buildId).toBe(runs[3].buildId);
    expect(s.consecutiveFailures).toBe(3);
    expect(s.lastSuccess?.buildId).toBe(runs[0].buildId);
    expect(s.pending).toEqual([]);
  });

  it('does not see runs that had not finished at `at`, and lists them as pending', () => {
    const runs = [run('a', 'failure', 0), run('a', 'success', 2, 5)];
    const s = jobStateAt(runs, [], T0 + 4 * H);
    expect(s.latest?.buildId).toBe(runs[0].buildId);
    expect(s.consecutiveFailures).toBe(1);
    expect(s.lastSuccess).toBeUndefined();
    expect(s.pending.map((p) => p.buildId)).toEqual([runs[1].buildId]);
  });

  it('lists runs still pending now (from Deck) and ignores those started after `at`', () => {
    const runs = [run('a', 'failure', 0)];
    const pendingNow = [run('a', 'pending', 3, null), run('a', 'pending', 9, null)];
    const s = jobStateAt(runs, pendingNow, T0 + 5 * H);
    expect(s.pending.map((p) => p.buildId)).toEqual([pendingNow[0].buildId]);
  });

  it('orders by start, so a run that finished late does not replace a newer one', () => {
    const slow = run('a', 'failure', 0, 10);
    const fast = run('a', 'success', 2, 1);
    expect(latestFinished([slow, fast], T0 + 12 * H)?.buildId).toBe(fast.buildId);
    expect(latestFinished([slow, fast], T0 + 5 * H)?.buildId).toBe(fast.buildId);
    expect(latestFinished([slow, fast], T0 + 2 * H)).toBeUndefined();
  });
});

describe('gate decision', () => {
  it('is blocked when the latest finished run failed, even with a newer run pending', () => {
    const runs = [run('promote', 'success', 0), run('promote', 'failure', 2)];
    const pending = [run('promote', 'pending', 4, null)];
    const s = jobStateAt(runs, pending, T0 + 5 * H);
    expect(s.pending).toHaveLength(1);
    const d = decideGate([{ job: 'promote', latest: s.latest }]);
    expect(d.blocked).toBe(true);
    expect(d.blockers).toEqual(['promote']);
    expect(d.reason).toContain('failed');
  });

  it('is not blocked by a pending run after a success', () => {
    const s = jobStateAt([run('promote', 'success', 0)], [run('promote', 'pending', 2, null)], T0 + 3 * H);
    expect(decideGate([{ job: 'promote', latest: s.latest }]).blocked).toBe(false);
  });

  it('counts an aborted latest run as not succeeded and says so', () => {
    const s = jobStateAt([run('promote', 'success', 0), run('promote', 'aborted', 2)], [], T0 + 5 * H);
    const d = decideGate([{ job: 'promote', latest: s.latest }]);
    expect(d.blocked).toBe(true);
    expect(d.reason).toMatch(/aborted.*counts as not succeeded/);
  });

  it('is not blocked, but says "no runs yet", when no blocking job has run', () => {
    const d = decideGate([{ job: 'promote', latest: undefined }]);
    expect(d).toMatchObject({ blocked: false, noRuns: true });
    expect(d.reason).toBe('no runs yet of promote');
  });

  it('is blocked when any one of several blocking jobs failed, and names only that one', () => {
    const ok = jobStateAt([run('a', 'success', 0)], [], T0 + 9 * H).latest;
    const bad = jobStateAt([run('b', 'failure', 0)], [], T0 + 9 * H).latest;
    const d = decideGate([
      { job: 'a', latest: ok },
      { job: 'b', latest: bad },
      { job: 'c', latest: undefined },
    ]);
    expect(d.blocked).toBe(true);
    expect(d.blockers).toEqual(['b']);
    expect(d.reason).toContain('no runs yet of c');
  });
});

describe('job entries', () => {
  const names = ['release-promote-x-4.1', 'release-promote-x-4.10', 'release-promote-x-4.2', 'periodic-e2e-aws'];

  it('treats plain names literally (a dot is not a wildcard) and regexes as searches', () => {
    expect(isLiteralJobName('release-promote-x-4.1')).toBe(true);
    expect(isLiteralJobName('^release-promote-x-4\\.\\d+$')).toBe(false);
    expect(matchJobEntries(['release-promote-x-4.1'], names)[0]).toEqual({ entry: 'release-promote-x-4.1', pattern: false, jobs: ['release-promote-x-4.1'] });
    expect(matchJobEntries(['^release-promote-x-4\\.(1|2)$'], names)[0].jobs).toEqual(['release-promote-x-4.1', 'release-promote-x-4.2']);
    expect(matchJobEntries(['promote.*4\\.1'], names)[0].jobs).toEqual(['release-promote-x-4.1', 'release-promote-x-4.10']);
  });

  it('keeps a name without runs and reports a regex that matches nothing', () => {
    expect(matchJobEntries(['not-run-yet'], names)[0].jobs).toEqual(['not-run-yet']);
    expect(matchJobEntries(['^nothing-(here)$'], names)[0]).toEqual({ entry: '^nothing-(here)$', pattern: true, jobs: [] });
  });
});

describe('gate timeline', () => {
  it('starts from the state at the window start and splits where the gate flips', () => {
    const runs = [
      run('p', 'failure', -5), // before the window: the gate starts blocked
      run('p', 'success', 2), // unblocks at 3h
      run('p', 'failure', 5), // blocks at 6h
      run('p', 'failure', 8), // still blocked
      run('p', 'aborted', 11), // still blocked (aborted)
      run('p', 'success', 14), // unblocks at 15h
    ];
    const segs = gateTimeline(new Map([['p', runs]]), T0, T0 + 20 * H);
    expect(segs.map((s) => [s.state, (s.from - T0) / H, (s.to - T0) / H])).toEqual([
      ['blocked', 0, 3],
      ['unblocked', 3, 6],
      ['blocked', 6, 15],
      ['unblocked', 15, 20],
    ]);
    expect(segs[2].blockers).toEqual([{ job: 'p', buildId: runs[2].buildId, state: 'failure' }]);
  });

  it('shows "no runs" until the first run finishes, and any one blocking job blocks', () => {
    const a = [run('a', 'success', 1), run('a', 'success', 10)];
    const b = [run('b', 'failure', 4), run('b', 'success', 7)];
    const segs = gateTimeline(
      new Map([
        ['a', a],
        ['b', b],
      ]),
      T0,
      T0 + 12 * H,
    );
    expect(segs.map((s) => [s.state, (s.from - T0) / H, (s.to - T0) / H])).toEqual([
      ['no-runs', 0, 2],
      ['unblocked', 2, 5],
      ['blocked', 5, 8],
      ['unblocked', 8, 12],
    ]);
  });

  it('ignores a run that finishes after a newer one already decided the state', () => {
    const slowFailure = run('p', 'failure', 0, 10);
    const laterSuccess = run('p', 'success', 2, 1);
    const segs = gateTimeline(new Map([['p', [slowFailure, laterSuccess]]]), T0, T0 + 12 * H);
    expect(segs.map((s) => s.state)).toEqual(['no-runs', 'unblocked']);
  });

  it('is one segment when nothing changes', () => {
    const segs = gateTimeline(new Map([['p', [run('p', 'success', -30)]]]), T0, T0 + 24 * H);
    expect(segs).toEqual([{ from: T0, to: T0 + 24 * H, state: 'unblocked', blockers: [] }]);
  });
});
