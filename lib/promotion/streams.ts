// Release streams as the release controller last reported them (release_tag), with the failed
// blocking jobs of rejected payloads joined to the ingested Prow runs by their artifact location.
import type { ReleaseResults, VerificationJob } from '../parse/releaseController';
import { gcsLocationFromUrl } from '../parse/prowMetadata';
import type { Database } from '../store/db';
import { iso } from '../history/window';

/** Where a run's artifacts live, from a Prow/Spyglass URL or a gs:// path: host-independent. */
export interface RunLocation {
  /** "bucket/path" without slashes at the ends */
  key: string;
  /** the last two path segments when they look like <job>/<numeric build id> */
  job?: string;
  buildId?: string;
}

export function runLocation(url: string): RunLocation | undefined {
  const loc = gcsLocationFromUrl(url);
  if (!loc) return undefined;
  const segs = loc.path.split('/');
  const out: RunLocation = { key: `${loc.bucket}/${loc.path}` };
  if (segs.length >= 2 && /^\d+$/.test(segs[segs.length - 1])) {
    out.buildId = segs[segs.length - 1];
    out.job = segs[segs.length - 2];
  }
  return out;
}

export interface JoinableRun {
  gcsPath: string;
  url: string;
}

/** The run whose artifacts are at the same bucket and path as `url` (hosts may differ). */
export function joinRunByUrl<T extends JoinableRun>(url: string, runs: T[]): T | undefined {
  const want = runLocation(url);
  if (!want) return undefined;
  return runs.find((r) => (runLocation(r.gcsPath) ?? runLocation(r.url))?.key === want.key);
}

export interface JoinedRun {
  runId: number | null;
  job: string;
  buildId: string;
  /** success | failure | error | aborted, or pending when only seen unfinished */
  state: string;
  url: string;
  started: number;
}

interface RunRow {
  id: number;
  job: string;
  build_id: string;
  state: string;
  url: string;
  gcs_path: string;
  started: number;
}

/** Looks up the ingested (or pending) runs behind release-controller job URLs. */
export async function runsForUrls(db: Database, urls: string[]): Promise<Map<string, JoinedRun>> {
  const out = new Map<string, JoinedRun>();
  for (const url of new Set(urls)) {
    const loc = runLocation(url);
    if (!loc) continue;
    const rows = loc.job
      ? await db.all<RunRow>(
          `SELECT r.id, j.name AS job, r.build_id, r.state, r.url, r.gcs_path, r.started FROM run r JOIN job j ON j.id = r.job_id
           WHERE j.name = ? AND r.build_id = ?`,
          [loc.job, loc.buildId!],
        )
      : await db.all<RunRow>(
          `SELECT r.id, j.name AS job, r.build_id, r.state, r.url, r.gcs_path, r.started FROM run r JOIN job j ON j.id = r.job_id
           WHERE r.gcs_path = ?`,
          [`gs://${loc.key}`],
        );
    const hit = joinRunByUrl(url, rows.map((r) => ({ ...r, gcsPath: r.gcs_path })));
    if (hit) {
      out.set(url, { runId: hit.id, job: hit.job, buildId: hit.build_id, state: hit.state, url: hit.url, started: hit.started });
      continue;
    }
    if (!loc.job) continue;
    const pending = await db.get<{ job: string; build_id: string; url: string; started: number }>(
      'SELECT job, build_id, url, started FROM pending_run WHERE job = ? AND build_id = ?',
      [loc.job, loc.buildId!],
    );
    if (pending && (!pending.url || runLocation(pending.url)?.key === loc.key)) {
      out.set(url, { runId: null, job: pending.job, buildId: pending.build_id, state: 'pending', url: pending.url, started: pending.started });
    }
  }
  return out;
}

export interface StoredReleaseTag {
  tag: string;
  phase: string;
  pullSpec: string;
  position: number;
  results: ReleaseResults;
  fetchedAt: number;
}

export async function loadStreamTags(db: Database, stream: string): Promise<StoredReleaseTag[]> {
  const rows = await db.all<{ tag: string; phase: string; pull_spec: string; position: number; results: string; fetched_at: number }>(
    'SELECT tag, phase, pull_spec, position, results, fetched_at FROM release_tag WHERE stream = ? ORDER BY position, tag',
    [stream],
  );
  return rows.map((r) => {
    let results: ReleaseResults = { blockingJobs: {}, informingJobs: {} };
    try {
      const parsed = JSON.parse(r.results) as Partial<ReleaseResults>;
      results = { blockingJobs: parsed.blockingJobs ?? {}, informingJobs: parsed.informingJobs ?? {} };
    } catch {
      // a damaged row: show the tag without its jobs
    }
    return { tag: r.tag, phase: r.phase, pullSpec: r.pull_spec, position: r.position, results, fetchedAt: r.fetched_at };
  });
}

/** The payloads a buildcop looks at: the newest, the last accepted, and the rejected ones in between. */
export function streamView(tags: StoredReleaseTag[]): {
  latest: StoredReleaseTag | undefined;
  lastAccepted: StoredReleaseTag | undefined;
  rejectedSinceAccepted: StoredReleaseTag[];
  fetchedAt: string | null;
} {
  const sorted = [...tags].sort((a, b) => a.position - b.position);
  const acceptedAt = sorted.findIndex((t) => t.phase === 'Accepted');
  const recent = acceptedAt < 0 ? sorted : sorted.slice(0, acceptedAt);
  const fetched = sorted.reduce((m, t) => Math.max(m, t.fetchedAt), 0);
  return {
    latest: sorted[0],
    lastAccepted: acceptedAt < 0 ? undefined : sorted[acceptedAt],
    rejectedSinceAccepted: recent.filter((t) => t.phase === 'Rejected' || t.phase === 'Failed'),
    fetchedAt: fetched ? iso(fetched) : null,
  };
}

/** Blocking jobs sorted by name, failed ones first. */
export function blockingJobsOf(results: ReleaseResults, onlyFailed = false): [string, VerificationJob][] {
  return Object.entries(results.blockingJobs)
    .filter(([, j]) => !onlyFailed || j.state === 'Failed')
    .sort((a, b) => Number(b[1].state === 'Failed') - Number(a[1].state === 'Failed') || (a[0] < b[0] ? -1 : 1));
}
