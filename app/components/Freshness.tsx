// "Ingested 4 minutes ago", and a visible warning when the data is stale or was never ingested:
// stale data nobody notices is the most common complaint about CI dashboards.
import type { Stats } from '@/lib/answers/stats';
import { freshness } from '@/lib/answers/health';
import { reportedProblems } from '@/lib/answers/ingestLog';
import { ago, shortTime } from './format';

export default function Freshness({ stats, nowMs = Date.now() }: { stats: Pick<Stats, 'lastIngestAt' | 'lastIngestStatus' | 'lastIngestWarnings'>; nowMs?: number }) {
  if (!stats.lastIngestAt) {
    return (
      <p className="notice warn freshness" role="status" data-freshness="never">
        <strong>No data ingested yet.</strong> Run <code>npx buildcop ingest</code> (or <code>npm run demo</code> for the sample world).
      </p>
    );
  }
  const problem =
    stats.lastIngestStatus === 'failed' ? (
      <>
        {' '}
        The latest ingest pass failed; see the <a href="/ingest">ingest log</a>.
      </>
    ) : stats.lastIngestWarnings > 0 ? (
      <>
        {' '}
        The latest pass {reportedProblems(stats.lastIngestWarnings)}; see the{' '}
        <a href="/ingest">ingest log</a>.
      </>
    ) : null;
  if (freshness(stats.lastIngestAt, nowMs).status === 'stale') {
    return (
      <p className="notice warn freshness" role="status" data-freshness="stale">
        <strong>Stale data:</strong> last ingested {ago(stats.lastIngestAt, nowMs)} (<time dateTime={stats.lastIngestAt}>{shortTime(stats.lastIngestAt)}</time>). Is{' '}
        <code>buildcop ingest --interval 5m</code> running?{problem}
      </p>
    );
  }
  return (
    <p className={`freshness small ${problem ? 'notice warn' : 'muted'}`} data-freshness="ok">
      Ingested <time dateTime={stats.lastIngestAt}>{ago(stats.lastIngestAt, nowMs)}</time>.{problem}
    </p>
  );
}
