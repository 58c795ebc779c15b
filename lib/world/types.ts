// Shapes of the sample world: world.json (read by the replay server), the tracker and release-controller
// data files, and truth.json (what ingest and analysis must find). Times are Unix seconds unless named *Iso.

export const WORLD_GENERATOR_VERSION = 3;

export type FinalState = 'success' | 'failure' | 'error' | 'aborted';
export type Outcome = 'passed' | 'failed' | 'flaked' | 'skipped';

export interface WorldPull {
  number: number;
  author: string;
  sha: string;
}

export interface WorldRefs {
  org: string;
  repo: string;
  base_ref: string;
  base_sha: string;
  pulls: WorldPull[];
}

export interface WorldFile {
  /** relative to the run folder, e.g. artifacts/junit_operator.xml */
  path: string;
  /** Unix seconds at which the object appears in GCS */
  visibleAt: number;
  size: number;
  /** base64 MD5, as GCS reports md5Hash */
  md5: string;
  /** holds REPLAY_PLACEHOLDER, which the server replaces with its own URL */
  rewrite?: boolean;
}

export interface WorldRun {
  job: string;
  buildId: string;
  type: 'periodic' | 'presubmit';
  /** the final state; the run is pending while now < finished */
  state: FinalState;
  started: number;
  finished: number;
  prowJobId: string;
  podName: string;
  context: string;
  /** ci-operator test name */
  ciTest: string;
  description: string;
  /** presubmits: the refs under test; periodics: absent (extra_refs only) */
  refs?: WorldRefs;
  /** periodics carry openshift/release as extra_refs */
  extraRefs?: WorldRefs[];
  /** the release payload tag the run tested (RELEASE_IMAGE_LATEST), if any */
  payload?: string;
  /** path part of the Spyglass URL: /view/gs/<bucket>/<gcsPath> */
  urlPath: string;
  bucket: string;
  /** folder of the run's objects, no leading or trailing slash */
  gcsPath: string;
  files: WorldFile[];
  /** whether the run folder also holds the manifest's gathered files (lib/world/gathered.ts) */
  gathered?: boolean;
}

/** a gathered file, relative to artifacts/<test>/ of each run that has them */
export interface GatheredFile {
  path: string;
  size: number;
  md5: string;
  /** path of the shared bytes, relative to the world folder */
  blob: string;
}

/** an object outside any run folder (pr-logs/directory aliases) */
export interface WorldObject {
  name: string;
  visibleAt: number;
  size: number;
  md5: string;
  /** path of the bytes under gcs/<bucket>/ */
}

export interface ReleaseJobRef {
  /** the verification run, absent when none ran for this tag */
  job?: string;
  buildId?: string;
}

export interface WorldReleaseTag {
  name: string;
  created: number;
  pullSpec: string;
  downloadURL: string;
  blockingJobs: Record<string, ReleaseJobRef>;
  informingJobs: Record<string, ReleaseJobRef>;
  /** upgrade runs that tested an upgrade into this tag (from the previous tag) */
  upgradesFrom?: string;
  upgradeRuns?: ReleaseJobRef[];
}

export interface WorldReleaseStream {
  name: string;
  tags: WorldReleaseTag[];
}

export interface WorldManifest {
  generatorVersion: number;
  seed: number;
  /** the catalog size asked for (`world --tests N`); absent in the default world */
  tests?: number;
  /** ISO time; the world's history ends here */
  end: string;
  endUnix: number;
  startUnix: number;
  bucket: string;
  runs: WorldRun[];
  extraObjects: WorldObject[];
  /** the gathered files of every run with `gathered` */
  gathered: GatheredFile[];
  releaseStreams: WorldReleaseStream[];
  /** index of the tracker items (full data in the files below): when each was created and last changed */
  bugs: { tracker: 'bugzilla' | 'jira' | 'github'; id: string; created: number; lastChange: number }[];
  /** data files next to world.json */
  files: { bugzilla: string; jira: string; github: Record<string, string>; deckJobs: string; truth: string };
}

// ---- trackers (world format: events with times; the server renders the real API shapes) -------

export interface TrackerComment {
  id: number;
  author: string;
  at: number;
  text: string;
}

export interface StatusChange {
  at: number;
  status: string;
  resolution?: string;
}

export interface WorldBugzillaBug {
  id: number;
  summary: string;
  component: string[];
  version: string[];
  target_release: string[];
  whiteboard: string;
  created: number;
  /** status history, first entry at `created` */
  statuses: StatusChange[];
  comments: TrackerComment[];
}

export interface WorldJiraIssue {
  id: string;
  key: string;
  summary: string;
  description: string;
  components: string[];
  created: number;
  statuses: StatusChange[];
  comments: TrackerComment[];
}

export interface WorldGithubIssue {
  number: number;
  title: string;
  body: string;
  user: string;
  created: number;
  /** closed at (state closed from then on) */
  closed?: number;
  isPullRequest?: boolean;
  comments: TrackerComment[];
}
