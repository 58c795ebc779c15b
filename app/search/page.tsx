// Search failure text and test names by regex: matching runs per day against all runs, grouped by test.
import type { Metadata } from 'next';
import { parseSearchQuery, search } from '@/lib/answers/search';
import { getDb } from '@/lib/server/context';
import { COLORS } from '../components/charts/colors';
import DailyChart from '../components/charts/DailyChart';
import { runHref } from '../components/Evidence';
import { daysBetween, flatParams, hrefWith, shortTime, WINDOW_NAMES, type SearchParams } from '../components/format';
import Highlight from '../components/Highlight';
import { pageData } from '../components/pageData';
import QueryError from '../components/QueryError';

export async function generateMetadata({ searchParams }: { searchParams: Promise<SearchParams> }): Promise<Metadata> {
  const q = flatParams(await searchParams).q;
  return { title: q ? `Search: ${q}` : 'Search', description: 'Failures whose text or test name matches a regular expression.' };
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const p = flatParams(await searchParams);
  const result = p.q ? await pageData(async () => search(await getDb(), parseSearchQuery(p))) : undefined;
  const window = p.window || '14d';
  return (
    <>
      <h1>Search failures</h1>
      <form method="get" action="/search" className="filters" role="search" aria-label="Search failures">
        <label>
          Regular expression (failure text or test name)
          <input type="search" name="q" defaultValue={p.q ?? ''} spellCheck={false} autoComplete="off" size={40} required />
        </label>
        <label>
          Window
          <select name="window" defaultValue={window}>
            {WINDOW_NAMES.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </label>
        <label>
          Job (regex)
          <input type="text" name="job" defaultValue={p.job ?? ''} spellCheck={false} autoComplete="off" />
        </label>
        {p.at && <input type="hidden" name="at" value={p.at} />}
        <button type="submit" className="primary">
          Search
        </button>
      </form>
      {!result ? (
        <p className="muted">
          Searches the failure messages and test names of the window, for example <code>TLS handshake timeout</code> or <code>{'ResourceVersion: a: "\\d+"'}</code>.
        </p>
      ) : !result.ok ? (
        <QueryError message={result.error} />
      ) : (
        <>
          <p className="lede" aria-live="polite">
            <strong data-testid="matching-runs">{result.data.matchingRuns}</strong> of {result.data.totalRuns} runs had a matching failure in {result.data.tests} test{result.data.tests === 1 ? '' : 's'} (
            {result.data.window} to <time dateTime={result.data.to}>{shortTime(result.data.to)}</time>).
            {result.data.truncated && <strong> Only the newest failures were searched; narrow the window.</strong>}{' '}
            {!p.at && (
              <a href={hrefWith('/search', { ...p, at: result.data.to })}>
                Permanent link
              </a>
            )}
          </p>
          <DailyChart
            short
            testId="search-chart"
            title="Runs per day, all and with a matching failure"
            data={(() => {
              const byDay = new Map(result.data.perDay.map((d) => [d.day, d]));
              return daysBetween(result.data.from, result.data.to).map((day) => {
                const d = byDay.get(day);
                return { day, runs: d?.runs ?? 0, matchingRuns: d?.matchingRuns ?? 0, share: d?.runs ? d.matchingRuns / d.runs : null };
              });
            })()}
            bars={[
              { key: 'runs', label: 'all runs', color: COLORS.runs },
              { key: 'matchingRuns', label: 'matching runs', color: COLORS.match },
            ]}
            lines={[{ key: 'share', label: 'share matching', color: COLORS.line }]}
          />
          {result.data.results.map((g) => (
            <section key={g.id} className="search-group" aria-labelledby={`g-${g.id}`}>
              <h2 id={`g-${g.id}`} className="testname">
                <a href={hrefWith(`/tests/${g.id}`, { at: p.at })}>
                  <Highlight text={g.test} pattern={result.data.q} />
                </a>{' '}
                <span className="muted small">
                  {g.matches} match{g.matches === 1 ? '' : 'es'}
                </span>
              </h2>
              <ul className="plain">
                {g.runs.map((r) => (
                  <li key={`${r.job}/${r.buildId}`} className="search-hit">
                    <span className={`outcome-${r.outcome} small`}>{r.outcome}</span>{' '}
                    <a href={runHref(r.job, r.buildId)} className="small">
                      {r.job} #{r.buildId}
                    </a>{' '}
                    <span className="muted small">{shortTime(r.started)}</span>
                    <pre className="failure-text small">
                      <Highlight text={r.excerpt} pattern={result.data.q} />
                    </pre>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          {result.data.tests > result.data.results.length && (
            <p>
              Showing {result.data.results.length} of {result.data.tests} tests.{' '}
              <a href={hrefWith('/search', { ...p, limit: Math.min(1000, result.data.results.length * 4) })}>
                Show more
              </a>
            </p>
          )}
        </>
      )}
    </>
  );
}
