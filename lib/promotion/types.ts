// The shapes of the promotion answer (GET /api/promotion, `buildcop promotion`, /promotion).
import type { Classification } from '../verdicts/verdict';
import type { BugRef } from '../bugs/refs';
import type { TimelineSegment } from './rules';

export interface FailingTest {
  test: string;
  /** public test id (links to /tests/<id>); null for an install failure known only from the build log */
  id: string | null;
  classification: Classification;
  bugs: BugRef[];
}

export interface RunSummary {
  buildId: string;
  state: string;
  url: string;
  started: string;
  finished: string | null;
}

export interface PromotionJob {
  job: string;
  kind: 'blocking' | 'informing';
  /** the configuration entry that named the job (a name or a regex) */
  entry: string;
  latest: RunSummary | null;
  consecutiveFailures: number;
  /** when the last successful run finished */
  lastSuccess: string | null;
  /**
   * runs started and not finished at `at`; `listed` false for a run Deck stopped listing before it
   * finished (its result may never come), `lastListed` when Deck last did
   */
  pending: { buildId: string; url: string; started: string; listed: boolean; lastListed?: string }[];
  /** failed (not flaked) tests of the latest run, install and setup steps included */
  failingTests: FailingTest[];
  /** what the latest run promoted, where its build log said ("Will promote ..., current is ...") */
  promote: { candidate: string; current: string } | null;
  /** "no runs yet", or "regex matched no job yet" */
  note?: string;
}

export interface TimelineEntry {
  from: string;
  to: string;
  state: TimelineSegment['state'];
  blocked: boolean;
  blockers: TimelineSegment['blockers'];
}

export interface PromotionGate {
  name: string;
  blocked: boolean;
  reason: string;
  /** one line a buildcop can paste */
  summary: string;
  blockingJobs: string[];
  informingJobs: string[];
  jobs: PromotionJob[];
  /** blocked/unblocked over the 14 days before `at` */
  timeline: TimelineEntry[];
}

export interface StreamJob {
  name: string;
  /** Succeeded | Failed | Pending, as the release controller says */
  state: string;
  url: string;
  /** the ingested Prow run at the same artifact location, if any */
  run: { job: string; buildId: string; state: string; url: string } | null;
  failingTests: FailingTest[];
}

export interface ReleaseStreamStatus {
  name: string;
  /** when the release controller was last read for this stream (null: never) */
  fetchedAt: string | null;
  tags: number;
  latest: { tag: string; phase: string; pullSpec: string } | null;
  lastAccepted: { tag: string } | null;
  /** the latest payload's blocking jobs, failed ones first */
  blockingJobs: StreamJob[];
  /** rejected payloads newer than the last accepted one, with their failed blocking jobs */
  rejected: { tag: string; phase: string; failedBlockingJobs: StreamJob[] }[];
}

export interface PromotionStatus {
  at: string;
  summary: string;
  blockedGates: string[];
  gates: PromotionGate[];
  releaseStreams: ReleaseStreamStatus[];
}
