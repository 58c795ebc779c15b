// The hot list: which tests fail most right now, with verdicts, bugs and data freshness.
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { collapseMassFailures } from '@/lib/answers/causes';
import { answer } from '@/lib/server/answerPool';
import PromotionBanner from './components/promotion/PromotionBanner';
import { emptyKeys, flatParams, hrefWith, shortTime, type SearchParams } from './components/format';
import Freshness from './components/Freshness';
import TopCauses from './components/causes/TopCauses';
import HotlistFilters, { type FilterOptions } from './components/hotlist/HotlistFilters';
import HotlistTable from './components/hotlist/HotlistTable';
import { pageData } from './components/pageData';
import QueryError from './components/QueryError';
import WindowTabs from './components/WindowTabs';

export const metadata: Metadata = {
  title: 'Hot list',
  description: 'The CI tests failing most right now: flake or regression, with evidence and bugs.',
};

const FILTER_KEYS = ['job', 'release', 'platform', 'upgrade', 'owner', 'classification', 'noBug', 'test'] as const;

export default async function HotlistPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const p = flatParams(await searchParams);
  // The filter form submits every field; drop the empty ones so the shared URL says only what is set.
  const empty = emptyKeys(p);
  if (empty.length) redirect(hrefWith('/', { ...p, ...Object.fromEntries(empty.map((k) => [k, undefined])) }));

  const [result, top, stats, jobs] = await Promise.all([
    pageData(() => answer('hotlist', p)),
    // the causes of the same window and jobs (filters on tests do not narrow causes)
    pageData(() => answer('causes', { window: p.window, at: p.at, job: p.job, release: p.release, limit: '8' })),
    answer('stats', {}),
    answer('jobNames', {}),
  ]);
  const uniq = (xs: (string | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))].sort();
  const options: FilterOptions = {
    jobs: jobs.map((j) => j.name),
    releases: uniq(jobs.map((j) => j.release)),
    platforms: uniq(jobs.map((j) => j.platform)),
    owners: result.ok ? uniq(result.data.items.map((i) => i.owner)) : [],
  };
  const window = result.ok ? result.data.window : p.window ?? '7d';
  // Links to test pages keep the window and the time, so they show what this list counted.
  const linkParams = { window: p.window, at: p.at };
  const filtersSet = FILTER_KEYS.filter((k) => p[k]);

  return (
    <>
      <PromotionBanner at={p.at} />
      <h1>Hot list</h1>
      <Freshness stats={stats} />
      <WindowTabs path="/" current={window} params={{ ...p, window: undefined }} />
      {top.ok && <TopCauses causes={top.data.causes} total={top.data.totalCauses} linkParams={linkParams} />}
      <HotlistFilters params={p} options={options} />
      {!result.ok ? (
        <QueryError message={result.error} />
      ) : (
        <>
          <p className="lede" aria-live="polite">
            <strong data-testid="total">{result.data.totalItems}</strong> tests failed or flaked in the {result.data.window} up to{' '}
            <time dateTime={result.data.to}>{shortTime(result.data.to)}</time>
            {filtersSet.length ? ` (filtered by ${filtersSet.join(', ')})` : ''};{' '}
            <a href={hrefWith('/', { ...p, noBug: 'true' })} data-testid="without-bug">
              <strong>{result.data.withoutBug}</strong> without a bug yet
            </a>
            .{' '}
            {!p.at && (
              <a href={hrefWith('/', { ...p, at: result.data.to })}>
                Permanent link to this view
              </a>
            )}
          </p>
          {result.data.items.length ? (
            <HotlistTable rows={collapseMassFailures(result.data.items, top.ok ? top.data : { causes: [], massCauses: [] })} linkParams={linkParams} />
          ) : (
            <p className="notice">No test failed or flaked in this window{filtersSet.length ? ' with these filters' : ''}.</p>
          )}
          {result.data.totalItems > result.data.items.length && (
            <p>
              Showing {result.data.items.length} of {result.data.totalItems}.{' '}
              <a href={hrefWith('/', { ...p, limit: Math.min(10_000, result.data.items.length * 4) })}>
                Show more
              </a>
            </p>
          )}
        </>
      )}
    </>
  );
}
