// Prow metadata: Deck's data.js and prowjobs.js, ProwJob objects (prowjob.json), started.json /
// finished.json, Refs strings and Spyglass/GCS locations. Field sets and encodings: SOURCES.md 1 and 2.
import type { GcsLocation, ProwPull, ProwRefs, ProwRun, ProwState } from './types';

type Obj = Record<string, unknown>;

const PROW_STATES: ReadonlySet<string> = new Set(['scheduling', 'triggered', 'pending', 'success', 'failure', 'aborted', 'error']);

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}
/** a non-empty string (numbers are accepted and stringified) */
function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}
/** The largest number stored in a 32-bit column (pull requests; GitHub's numbers are far below). */
const MAX_INT32 = 2_147_483_647;

/** A pull request number: a positive integer that fits its column; undefined for anything else. */
export function pullNumber(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 && n <= MAX_INT32 ? n : undefined;
}

/** 9999-12-31T23:59:59Z: later "times" are garbage (and beyond what pages can format) */
const MAX_UNIX_SECONDS = 253_402_300_799;

/**
 * Whole Unix seconds from a number, a numeric string ("1595277241") or an RFC3339 timestamp.
 * Empty, zero (Go's zero time), unparseable or out-of-range values give undefined.
 */
export function toUnixSeconds(v: unknown): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const t = v.trim();
    if (!t) return undefined;
    n = /^\d+(\.\d+)?$/.test(t) ? Number(t) : Math.floor(Date.parse(t) / 1000);
  } else return undefined;
  return Number.isFinite(n) && n >= 1 && n <= MAX_UNIX_SECONDS ? Math.floor(n) : undefined;
}

/** Strips Deck's `?var=NAME` wrapper (`var NAME = <json>;`) and a BOM, then parses JSON. */
function parseJsonOrJs(text: string, what: string): unknown {
  if (typeof text !== 'string') throw new Error(`${what}: expected text, got ${typeof text}`);
  let body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const m = /^\s*var\s+[A-Za-z_$][\w$]*\s*=\s*/.exec(body.slice(0, 300));
  if (m) body = body.slice(m[0].length).replace(/;\s*$/, '');
  try {
    return JSON.parse(body);
  } catch (e) {
    const start = JSON.stringify(body.trimStart().slice(0, 60));
    throw new Error(`${what}: not valid JSON (${e instanceof Error ? e.message : String(e)}); it starts with ${start}`);
  }
}

/** Parses a Refs.String() value: `base_ref[:base_sha],PR:sha[:ref],…`. Pulls without a numeric PR are dropped. */
export function refsFromString(s: string): ProwRefs {
  const refs: ProwRefs = { pulls: [] };
  if (typeof s !== 'string') return refs;
  const parts = s.split(',').map((p) => p.trim());
  const [baseRef, baseSha] = (parts[0] ?? '').split(':');
  if (baseRef) refs.baseRef = baseRef;
  if (baseSha) refs.baseSha = baseSha;
  for (const part of parts.slice(1)) {
    const [num, sha] = part.split(':');
    const number = pullNumber(num);
    if (number === undefined) continue;
    refs.pulls.push(sha ? { number, sha } : { number });
  }
  return refs;
}

/** Inverse of refsFromString (Prow's Refs.String() without the optional `:ref` of pulls). */
export function refsToString(refs: ProwRefs): string {
  const base = refs.baseSha ? `${refs.baseRef ?? ''}:${refs.baseSha}` : refs.baseRef ?? '';
  return [base, ...refs.pulls.map((p) => `${p.number}:${p.sha ?? ''}`)].join(',');
}

function refsFromObject(o: Obj): ProwRefs | undefined {
  const refs: ProwRefs = { pulls: [] };
  const org = str(o.org), repo = str(o.repo), baseRef = str(o.base_ref), baseSha = str(o.base_sha);
  if (org) refs.org = org;
  if (repo) refs.repo = repo;
  if (baseRef) refs.baseRef = baseRef;
  if (baseSha) refs.baseSha = baseSha;
  for (const p of Array.isArray(o.pulls) ? o.pulls : []) {
    const number = pullNumber(obj(p).number);
    if (number === undefined) continue;
    const pull: ProwPull = { number };
    const author = str(obj(p).author), sha = str(obj(p).sha);
    if (author) pull.author = author;
    if (sha) pull.sha = sha;
    refs.pulls.push(pull);
  }
  return org || repo || baseRef || refs.pulls.length ? refs : undefined;
}

/** Refs of a data.js entry: `refs` as an object (current) or a string plus repo, base_ref, base_sha, pull_sha, number, author (2019). */
function refsFromDeckJob(o: Obj): ProwRefs | undefined {
  let refs = isObj(o.refs) ? refsFromObject(o.refs) : undefined;
  if (!refs && typeof o.refs === 'string' && o.refs.trim()) refs = refsFromString(o.refs);
  const repoFull = str(o.repo);
  const number = pullNumber(o.number);
  if (!refs && !repoFull && !str(o.base_ref) && number === undefined) return undefined;
  refs ??= { pulls: [] };
  if (repoFull && repoFull.includes('/')) {
    const slash = repoFull.indexOf('/');
    refs.org ??= repoFull.slice(0, slash);
    refs.repo ??= repoFull.slice(slash + 1);
  }
  refs.baseRef ??= str(o.base_ref);
  refs.baseSha ??= str(o.base_sha);
  if (refs.baseRef === undefined) delete refs.baseRef;
  if (refs.baseSha === undefined) delete refs.baseSha;
  if (number !== undefined) {
    let pull = refs.pulls.find((p) => p.number === number);
    if (!pull) { pull = { number }; refs.pulls.push(pull); }
    const author = str(o.author), sha = str(o.pull_sha);
    if (author && !pull.author) pull.author = author;
    if (sha && !pull.sha) pull.sha = sha;
  }
  return refs;
}

/** Unknown states: a run with an end time is taken as 'error', otherwise as 'pending'. */
function stateOf(v: unknown, finished: number | undefined): ProwState {
  return typeof v === 'string' && PROW_STATES.has(v) ? (v as ProwState) : finished !== undefined ? 'error' : 'pending';
}

function deckJobToRun(entry: unknown): ProwRun | undefined {
  if (!isObj(entry)) return undefined;
  const job = str(entry.job), buildId = str(entry.build_id);
  if (!job || !buildId) return undefined;
  const finished = toUnixSeconds(entry.finished);
  const run: ProwRun = {
    job,
    buildId,
    type: str(entry.type) ?? '',
    state: stateOf(entry.state, finished),
    started: toUnixSeconds(entry.started) ?? 0,
    url: str(entry.url) ?? '',
  };
  if (finished !== undefined) run.finished = finished;
  const refs = refsFromDeckJob(entry);
  if (refs) run.refs = refs;
  const prowJobId = str(entry.prow_job);
  if (prowJobId) run.prowJobId = prowJobId;
  return run;
}

/**
 * Deck /data.js (JSON array, or `var NAME = [...];`), current or 2019 field set. Entries without job
 * or build_id are skipped; `started` is 0 when missing. Throws only when the text is not a JSON array.
 */
export function parseDeckJobs(text: string): ProwRun[] {
  const data = parseJsonOrJs(text, 'data.js');
  if (!Array.isArray(data)) throw new Error(`data.js: expected a JSON array of jobs, got ${data === null ? 'null' : typeof data}`);
  const runs: ProwRun[] = [];
  for (const entry of data) {
    const run = deckJobToRun(entry);
    if (run) runs.push(run);
  }
  return runs;
}

/**
 * A ProwJob object (prowjobs.js item or prowjob.json) as a ProwRun; undefined without a job name or
 * build id. The build id falls back to the prow.k8s.io/build-id label, the job to the prow.k8s.io/job label.
 */
export function prowRunFromProwJob(o: unknown): ProwRun | undefined {
  if (!isObj(o)) return undefined;
  const spec = obj(o.spec), status = obj(o.status), metadata = obj(o.metadata);
  const labels = obj(metadata.labels), annotations = obj(metadata.annotations);
  const job = str(spec.job) ?? str(labels['prow.k8s.io/job']) ?? str(annotations['prow.k8s.io/job']);
  const buildId = str(status.build_id) ?? str(labels['prow.k8s.io/build-id']);
  if (!job || !buildId) return undefined;
  const finished = toUnixSeconds(status.completionTime);
  const run: ProwRun = {
    job,
    buildId,
    type: str(spec.type) ?? str(labels['prow.k8s.io/type']) ?? '',
    state: stateOf(status.state, finished),
    started: toUnixSeconds(status.startTime) ?? toUnixSeconds(metadata.creationTimestamp) ?? 0,
    url: str(status.url) ?? '',
  };
  if (finished !== undefined) run.finished = finished;
  const refs = isObj(spec.refs) ? refsFromObject(spec.refs) : undefined;
  if (refs) run.refs = refs;
  const prowJobId = str(metadata.name);
  if (prowJobId) run.prowJobId = prowJobId;
  return run;
}

/** Deck /prowjobs.js: `{"items":[ProwJob…]}` (or `var NAME = {...};`). Throws when that shape is missing. */
export function parseProwJobsJs(text: string): ProwRun[] {
  const data = parseJsonOrJs(text, 'prowjobs.js');
  if (!isObj(data) || !Array.isArray(data.items)) throw new Error('prowjobs.js: expected a JSON object with an "items" array');
  const runs: ProwRun[] = [];
  for (const item of data.items) {
    const run = prowRunFromProwJob(item);
    if (run) runs.push(run);
  }
  return runs;
}

/** The tag or digest of an image pull spec: "…/release:4.2.0-…" → "4.2.0-…", "…@sha256:ab" → "sha256:ab". */
function imageTagOrDigest(pullSpec: string): string | undefined {
  const at = pullSpec.lastIndexOf('@');
  if (at >= 0) return pullSpec.slice(at + 1).trim() || undefined;
  const colon = pullSpec.lastIndexOf(':');
  // a ':' before the last '/' is a registry port, not a tag
  return colon > pullSpec.lastIndexOf('/') ? pullSpec.slice(colon + 1).trim() || undefined : undefined;
}

/**
 * The release payload a ProwJob tests: the tag/digest of RELEASE_IMAGE_LATEST, else RELEASE_IMAGE_INITIAL,
 * from spec.pod_spec.containers[*].env; else the `release.openshift.io/tag` annotation.
 */
export function payloadFromProwJob(o: unknown): string | undefined {
  if (!isObj(o)) return undefined;
  const containers = obj(obj(o.spec).pod_spec).containers;
  const env = new Map<string, string>();
  for (const c of Array.isArray(containers) ? containers : []) {
    const vars = obj(c).env;
    for (const v of Array.isArray(vars) ? vars : []) {
      const name = str(obj(v).name), value = str(obj(v).value);
      if (name && value && !env.has(name)) env.set(name, value.trim());
    }
  }
  for (const name of ['RELEASE_IMAGE_LATEST', 'RELEASE_IMAGE_INITIAL']) {
    const value = env.get(name);
    const tag = value ? imageTagOrDigest(value) : undefined;
    if (tag) return tag;
  }
  return str(obj(obj(o.metadata).annotations)['release.openshift.io/tag'])?.trim();
}

/**
 * The run folder of a Spyglass URL (`…/view/gs/<bucket>/<path>` or `/view/gcs/`, trailing slash, query
 * and fragment tolerated) or of `gs://bucket/path`; undefined for anything else.
 */
export function gcsLocationFromUrl(url: string): GcsLocation | undefined {
  if (typeof url !== 'string') return undefined;
  const t = url.trim();
  const m = /^gs:\/\/([^/?#\s]+)\/([^?#\s]*)/.exec(t) ?? /^[a-z][a-z0-9+.-]*:\/\/[^/]+(?:\/[^?#]*)?\/view\/(?:gs|gcs)\/([^/?#\s]+)\/([^?#\s]*)/i.exec(t);
  if (!m) return undefined;
  const path = m[2].replace(/^\/+|\/+$/g, '');
  return path ? { bucket: m[1], path } : undefined;
}

/** `<prow>/view/gs/<bucket>/<path>` */
export function jobUrlFor(prowUrl: string, loc: GcsLocation): string {
  return `${prowUrl.replace(/\/+$/, '')}/view/gs/${loc.bucket}/${loc.path.replace(/^\/+|\/+$/g, '')}`;
}

export interface StartedJson {
  /** Unix seconds */
  timestamp?: number;
  /** the PR number (pod-utils) or the Refs string (bootstrap) */
  pull?: string;
  /** org/repo → Refs.String() */
  repos?: Record<string, string>;
  repoCommit?: string;
  jobVersion?: string;
  metadata?: Record<string, unknown>;
}

export interface FinishedJson {
  timestamp?: number;
  passed?: boolean;
  /** SUCCESS | FAILURE | ABORTED (as written) */
  result?: string;
  revision?: string;
  metadata?: Record<string, unknown>;
}

function parseMetadataFile(text: string, what: string): Obj {
  const data = parseJsonOrJs(text, what);
  if (!isObj(data)) throw new Error(`${what}: expected a JSON object, got ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}`);
  return data;
}

function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/** started.json of bootstrap or pod-utils jobs. Throws a clear Error on invalid JSON. */
export function parseStarted(text: string): StartedJson {
  const o = parseMetadataFile(text, 'started.json');
  const meta = isObj(o.metadata) ? o.metadata : undefined;
  const out: StartedJson = {};
  put(out, 'timestamp', toUnixSeconds(o.timestamp));
  put(out, 'pull', str(o.pull));
  if (isObj(o.repos)) {
    const repos: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.repos)) if (typeof v === 'string') repos[k] = v;
    out.repos = repos;
  }
  put(out, 'repoCommit', str(o['repo-commit']) ?? str(meta?.['repo-commit']));
  put(out, 'jobVersion', str(o['job-version']) ?? str(o.version) ?? str(meta?.['job-version']));
  put(out, 'metadata', meta);
  return out;
}

/**
 * finished.json of bootstrap or pod-utils jobs. `passed` falls back to result === 'SUCCESS'; `revision`
 * to metadata.revision, then the deprecated job-version/version. Throws a clear Error on invalid JSON.
 */
export function parseFinished(text: string): FinishedJson {
  const o = parseMetadataFile(text, 'finished.json');
  const meta = isObj(o.metadata) ? o.metadata : undefined;
  const out: FinishedJson = {};
  put(out, 'timestamp', toUnixSeconds(o.timestamp));
  const result = str(o.result);
  put(out, 'result', result);
  put(out, 'passed', typeof o.passed === 'boolean' ? o.passed : result ? result.toUpperCase() === 'SUCCESS' : undefined);
  put(out, 'revision', str(o.revision) ?? str(meta?.revision) ?? str(o['job-version']) ?? str(o.version) ?? str(meta?.['job-version']));
  put(out, 'metadata', meta);
  return out;
}
