// Refreshes the release-controller payload tags of each configured stream into release_tag: every
// tag's phase and position, and the verification results of the recent ones (from the newest tag
// down to the last accepted one). A stream that cannot be read keeps what was stored before.
import type { Config } from '../config';
import type { ReleaseResults, ReleaseTagEntry } from '../parse/releaseController';
import { fetchReleaseInfo, fetchReleaseTags } from '../sources/releaseController';
import type { HttpClient } from '../sources/http';
import type { Database } from '../store/db';

/** Payload details fetched per stream per pass, at most (the newest first). */
export const MAX_DETAILS_PER_STREAM = 20;

const FINAL_PHASES = new Set(['Accepted', 'Rejected', 'Failed']);

interface StoredTag {
  tag: string;
  phase: string;
  results: string;
}

/** Which tags need their release info (re)fetched: newest down to the last accepted, unless already final. */
export function tagsNeedingDetails(tags: ReleaseTagEntry[], stored: Map<string, StoredTag>, max = MAX_DETAILS_PER_STREAM): ReleaseTagEntry[] {
  const lastAccepted = tags.findIndex((t) => t.phase === 'Accepted');
  const upTo = lastAccepted < 0 ? tags.length : lastAccepted + 1;
  return tags.slice(0, Math.min(upTo, max)).filter((t) => {
    const s = stored.get(t.name);
    return !s || s.phase !== t.phase || !FINAL_PHASES.has(t.phase) || s.results === '{}';
  });
}

export async function refreshReleases(opts: { config: Config; db: Database; http: HttpClient }): Promise<{ summary: string; warnings: string[] }> {
  const { config, db, http } = opts;
  const rc = config.releaseController;
  if (!rc || !rc.streams.length) return { summary: 'releases: no release controller configured', warnings: [] };
  const warnings: string[] = [];
  let tagCount = 0;
  let details = 0;
  let streamsRead = 0;
  for (const stream of rc.streams) {
    let tags: ReleaseTagEntry[];
    try {
      const listed = await fetchReleaseTags(http, rc.url, stream);
      tags = listed.tags;
      warnings.push(...listed.problems);
    } catch (e) {
      warnings.push(`${(e as Error).message} (kept the tags stored before)`);
      continue;
    }
    const stored = new Map(
      (await db.all<StoredTag>('SELECT tag, phase, results FROM release_tag WHERE stream = ?', [stream])).map((r) => [r.tag, r]),
    );
    const wanted = tagsNeedingDetails(tags, stored);
    const results = new Map<string, ReleaseResults>();
    await Promise.all(
      wanted.map(async (t) => {
        try {
          const { info, problems } = await fetchReleaseInfo(http, rc.url, stream, t.name);
          warnings.push(...problems);
          results.set(t.name, info.results);
          details++;
        } catch (e) {
          warnings.push(`${(e as Error).message} (kept the results stored before)`);
        }
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    await db.tx(async (sql) => {
      for (const [position, t] of tags.entries()) {
        const res = results.get(t.name);
        // A phase that changed without fresh results makes the stored results stale: drop them.
        const keep = stored.get(t.name);
        const resultsJson = res ? JSON.stringify(res) : keep && keep.phase === t.phase ? keep.results : '{}';
        await sql.run(
          `INSERT INTO release_tag (stream, tag, phase, pull_spec, position, results, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (stream, tag) DO UPDATE SET phase = excluded.phase, pull_spec = excluded.pull_spec,
             position = excluded.position, results = excluded.results, fetched_at = excluded.fetched_at`,
          [stream, t.name, t.phase, t.pullSpec, position, resultsJson, now],
        );
      }
      // The release controller garbage-collects old tags; the table mirrors its current list.
      const listed = new Set(tags.map((t) => t.name));
      for (const old of stored.keys()) if (!listed.has(old)) await sql.run('DELETE FROM release_tag WHERE stream = ? AND tag = ?', [stream, old]);
    });
    tagCount += tags.length;
    streamsRead++;
  }
  const failed = rc.streams.length - streamsRead;
  return {
    summary: `releases: ${streamsRead} of ${rc.streams.length} streams read, ${tagCount} tags, ${details} payload details fetched${failed ? ` (${failed} streams unreadable)` : ''}`,
    warnings,
  };
}
