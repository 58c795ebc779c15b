// Release-controller API responses (openshift/release-controller pkg/release-controller/types.go):
// the tags of a stream and the verification results of one payload. Pure and tolerant: a malformed
// entry is reported and skipped, never thrown.

/** Tag phases: Pending, Ready, Accepted, Rejected, Failed (anything else is kept as given). */
export interface ReleaseTagEntry {
  name: string;
  phase: string;
  pullSpec: string;
  downloadURL: string;
}

/** One verification job of a payload: `{"state": "Succeeded"|"Failed"|"Pending", "url", ...}`. */
export interface VerificationJob {
  state: string;
  url: string;
  retries?: number;
  transitionTime?: string;
}

export interface ReleaseResults {
  blockingJobs: Record<string, VerificationJob>;
  informingJobs: Record<string, VerificationJob>;
}

export interface ReleaseInfo {
  name: string;
  phase: string;
  results: ReleaseResults;
}

export interface Parsed<T> {
  value: T;
  problems: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `GET .../releasestream/<stream>/tags` → the tags, in the order the API gave them. */
export function parseReleaseTags(body: unknown): Parsed<{ name: string; tags: ReleaseTagEntry[] }> {
  const problems: string[] = [];
  if (!isObject(body)) return { value: { name: '', tags: [] }, problems: ['the tags response is not a JSON object'] };
  if (!Array.isArray(body.tags)) return { value: { name: str(body.name), tags: [] }, problems: ['the tags response has no "tags" array'] };
  const tags: ReleaseTagEntry[] = [];
  const seen = new Set<string>();
  body.tags.forEach((t, i) => {
    if (!isObject(t) || !str(t.name)) {
      problems.push(`tags[${i}] has no name; skipped`);
      return;
    }
    if (seen.has(str(t.name))) return;
    seen.add(str(t.name));
    tags.push({ name: str(t.name), phase: str(t.phase) || 'Unknown', pullSpec: str(t.pullSpec), downloadURL: str(t.downloadURL) });
  });
  return { value: { name: str(body.name), tags }, problems };
}

function parseJobs(v: unknown, field: string, problems: string[]): Record<string, VerificationJob> {
  const out: Record<string, VerificationJob> = {};
  if (v === undefined || v === null) return out;
  if (!isObject(v)) {
    problems.push(`results.${field} is not an object; ignored`);
    return out;
  }
  for (const [name, job] of Object.entries(v)) {
    if (!isObject(job)) {
      problems.push(`results.${field}.${name} is not an object; skipped`);
      continue;
    }
    const entry: VerificationJob = { state: str(job.state) || 'Unknown', url: str(job.url) };
    if (typeof job.retries === 'number') entry.retries = job.retries;
    if (str(job.transitionTime)) entry.transitionTime = str(job.transitionTime);
    out[name] = entry;
  }
  return out;
}

/** `GET .../releasestream/<stream>/release/<tag>` → name, phase and the verification jobs. */
export function parseReleaseInfo(body: unknown): Parsed<ReleaseInfo> {
  const problems: string[] = [];
  if (!isObject(body)) return { value: { name: '', phase: '', results: { blockingJobs: {}, informingJobs: {} } }, problems: ['the release response is not a JSON object'] };
  const results = isObject(body.results) ? body.results : {};
  if (body.results !== undefined && !isObject(body.results)) problems.push('"results" is not an object; ignored');
  return {
    value: {
      name: str(body.name),
      phase: str(body.phase),
      results: { blockingJobs: parseJobs(results.blockingJobs, 'blockingJobs', problems), informingJobs: parseJobs(results.informingJobs, 'informingJobs', problems) },
    },
    problems,
  };
}

interface SemVer {
  core: number[];
  pre: string[];
}

function parseSemVer(s: string): SemVer | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(s);
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

/** Semantic-version precedence (semver.org §11): negative when a < b. */
export function compareSemVer(a: string, b: string): number | undefined {
  const x = parseSemVer(a);
  const y = parseSemVer(b);
  if (!x || !y) return undefined;
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i] - y.core[i];
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length; // a release outranks its pre-releases
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return x.pre.length - y.pre.length;
}

/**
 * Tags newest first. The API type's comment says "oldest to newest" but the handler sorts newest
 * first, so the order is decided here: by semantic version when every name is one, else the
 * API's order is kept as is (newest first, as the handler sends it).
 */
export function newestFirst<T extends { name: string }>(tags: T[]): T[] {
  if (!tags.every((t) => parseSemVer(t.name))) return [...tags];
  return [...tags].sort((a, b) => compareSemVer(b.name, a.name)!);
}
