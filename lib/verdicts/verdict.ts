// The shapes of a verdict: its classes, and the runs its evidence names. The rules are in rules.ts,
// judged on a fixed lookback (lookback.ts) from what testHistory.ts gathers; judge.ts puts them together.
import { iso } from '../history/window';

export type Classification = 'regression' | 'broken' | 'flaky' | 'infra' | 'fixed' | 'failing';

/** Every classification, in the order the rules try them after infra. */
export const CLASSIFICATIONS: Classification[] = ['regression', 'broken', 'flaky', 'infra', 'fixed', 'failing'];

export interface RunRef {
  job: string;
  buildId: string;
  url: string;
  started: number;
  payload: string;
  commit: string;
}

/** What changed in the first failing run after a step change, compared with the run of the same job before it. */
export function describeChange(first: RunRef, previous: RunRef | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { firstFailingRun: { ...first, started: iso(first.started) } };
  if (!previous) return out;
  out.previousRun = { job: previous.job, buildId: previous.buildId, url: previous.url, started: iso(previous.started) };
  if (first.payload && previous.payload && first.payload !== previous.payload) out.payloadChanged = { from: previous.payload, to: first.payload };
  if (first.commit && previous.commit && first.commit !== previous.commit) out.commitChanged = { from: previous.commit, to: first.commit };
  return out;
}
