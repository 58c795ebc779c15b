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
  /**
   * payloads rejected in a row at the head of the stream (the newest still being verified passed
   * over); 0 when the newest decided payload was accepted: then the stream blocks nothing
   */
  rejectedInARow: number;
  /** when the oldest payload of that streak was created (null: no streak, or its time unknown) */
  rejectedSince: string | null;
  /** when the last accepted payload was created (null: none listed, or its time unknown) */
  lastAcceptedAt: string | null;
  /** the blocking jobs that failed in the streak, most often first: in how many of its payloads, and the newest failure */
  failingBlockingJobs: { name: string; payloads: number; latest: StreamJob }[];
  /** one line a buildcop can paste */
  summary: string;
}

export interface PromotionStatus {
  at: string;
  summary: string;
  blockedGates: string[];
  /** release streams whose latest payloads were rejected (rejectedInARow > 0) */
  rejectedStreams: string[];
  gates: PromotionGate[];
  releaseStreams: ReleaseStreamStatus[];
}
