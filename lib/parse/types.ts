// Types shared by the parsers (pure functions over downloaded bytes) and the ingest that uses them.

/** A run's final outcome for one test. `flaked` = failed, then passed on retry in the same run. */
export type Outcome = 'passed' | 'failed' | 'flaked' | 'skipped';

/** One <testcase> (or one per-test line of a build log), before a run's outcomes are merged. */
export interface RawCase {
  name: string;
  /** a single execution: failed, passed or skipped (flakes only exist after merging) */
  result: 'passed' | 'failed' | 'skipped';
  /** failure text: the `message` attribute, else the element body; '' when none */
  message: string;
  suite: string;
  durationSec?: number;
}

/** A run's merged result for one test (see mergeCases in lib/parse/junit.ts). */
export interface TestResult {
  name: string;
  outcome: Outcome;
  /** failure text of the (last) failure, '' for passes and skips */
  message: string;
}

export interface ParseProblem {
  /** object path relative to the run folder, e.g. artifacts/junit_operator.xml */
  file: string;
  message: string;
}

/** Prow states. Finished: success, failure, error, aborted. */
export type ProwState = 'scheduling' | 'triggered' | 'pending' | 'success' | 'failure' | 'aborted' | 'error';

export interface ProwPull {
  number: number;
  author?: string;
  sha?: string;
}

export interface ProwRefs {
  org?: string;
  repo?: string;
  baseRef?: string;
  baseSha?: string;
  pulls: ProwPull[];
}

/** One run as Deck lists it (data.js, 2019 or current fields, or a prowjobs.js ProwJob). */
export interface ProwRun {
  job: string;
  buildId: string;
  /** periodic | presubmit | postsubmit | batch */
  type: string;
  state: ProwState;
  /** Unix seconds */
  started: number;
  /** Unix seconds, absent while running */
  finished?: number;
  /** Spyglass URL: .../view/gs/<bucket>/<path> (or /view/gcs/) */
  url: string;
  refs?: ProwRefs;
  /** ProwJob object name */
  prowJobId?: string;
  /**
   * Found in its GCS job folder by the backfill, not listed by Deck: what Deck's record would say is
   * read from the build folder (lib/ingest/assemble.ts); until then `state` is pending and `started`
   * the time its build id was made.
   */
  fromGcs?: true;
}

/** Where a run's artifacts live in GCS. `path` has no leading or trailing slash. */
export interface GcsLocation {
  bucket: string;
  path: string;
}

/** A run as its files say it was (lib/ingest/assemble.ts makes it; lib/store writes it). */
export type FinishedState = 'success' | 'failure' | 'error' | 'aborted';

export interface RunRecord {
  job: string;
  buildId: string;
  type: string;
  state: FinishedState;
  started: number;
  finished: number | null;
  url: string;
  gcsPath: string;
  pull: number | null;
  baseRef: string;
  commitSha: string;
  payload: string;
  results: TestResult[];
  installFailed: boolean;
  problems: ParseProblem[];
  meta: Record<string, unknown>;
  /** some file could not be downloaded: a later pass fetches the run again */
  incomplete: boolean;
  fingerprint: string;
}
