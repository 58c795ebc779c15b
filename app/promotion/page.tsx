// Promotion blockers: is a gate blocked, by which jobs and failing tests (with verdicts and bugs, so
// a buildcop sees whether the only blockers are known flakes), and what the release controller says
// about each stream's payloads. Same data as `buildcop promotion --json` and /api/promotion.
import type { Metadata } from 'next';
import Link from 'next/link';
import { answer } from '@/lib/server/answerPool';
import { flatParams, hrefWith, shortTime, type SearchParams } from '../components/format';
import { pageData } from '../components/pageData';
import GateCard from '../components/promotion/GateCard';
import ReleaseStreams from '../components/promotion/ReleaseStreams';
import QueryError from '../components/QueryError';
import '../components/promotion/promotion.css';

export const metadata: Metadata = {
  title: 'Promotion',
  description: 'Which promotion gates are blocked, by which jobs and failing tests, and the release payloads of each stream.',
};

export default async function PromotionPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const p = flatParams(await searchParams);
  const result = await pageData(() => answer('promotion', p));
  if (!result.ok) {
    return (
      <>
        <h1>Promotion</h1>
        <QueryError message={result.error} />
      </>
    );
  }
  const s = result.data;
  return (
    <>
      <h1>Promotion</h1>
      <p className="lede" data-testid="promotion-headline">
        {s.blockedGates.length ? (
          <strong className="state-failure">Promotion blocked: {s.blockedGates.join(', ')}</strong>
        ) : s.gates.length ? (
          <strong className="state-success">No promotion gate is blocked</strong>
        ) : (
          <strong>No promotion gates configured</strong>
        )}{' '}
        at <time dateTime={s.at}>{shortTime(s.at)}</time>.{' '}
        {!p.at && (
          <Link href={hrefWith('/promotion', { at: s.at })} prefetch={false}>
            Permanent link to this view
          </Link>
        )}{' '}
        · <a href={hrefWith('/api/promotion', { at: p.at })}>JSON</a>
      </p>
      <div className="promo-copy">
        <label htmlFor="promotion-summary" className="small muted">
          Summary to paste into the channel:
        </label>
        <textarea id="promotion-summary" readOnly defaultValue={s.summary} rows={Math.min(12, s.summary.split('\n').length + 1)} data-testid="promotion-summary" />
      </div>

      <h2>Gates</h2>
      {s.gates.length ? (
        <div className="promo-gates">
          {s.gates.map((g, i) => (
            <GateCard key={g.name} gate={g} index={i} at={p.at} />
          ))}
        </div>
      ) : (
        <p className="notice">
          No promotion gates are configured. Add <code>&quot;promotion&quot;: [&#123;&quot;name&quot;, &quot;blockingJobs&quot;, &quot;informingJobs&quot;&#125;]</code> to
          buildcop.config.json (job names or regular expressions).
        </p>
      )}

      <h2>Release streams</h2>
      <ReleaseStreams streams={s.releaseStreams} at={p.at} />
    </>
  );
}
