// Search build logs, failure texts and bugs by regex (RE2), as ci-search does: matching runs per day
// against all runs, log matches by job, failure matches by test, bugs, with context lines.
import type { Metadata } from 'next';
import { DEFAULT_CONTEXT } from '@/lib/answers/search';
import { answer } from '@/lib/server/answerPool';
import { COLORS } from '../components/charts/colors';
import DailyChart from '../components/charts/DailyChart';
import { daysBetween, flatParams, hrefWith, shortTime, WINDOW_NAMES, type SearchParams } from '../components/format';
import { pageData } from '../components/pageData';
import QueryError from '../components/QueryError';
import { BugMatches, FailureGroups, LogGroups } from '../components/search/SearchGroups';

const KINDS = [
  { value: 'logs', label: 'build logs' },
  { value: 'failures', label: 'failure texts and test names' },
  { value: 'bugs', label: 'bugs' },
] as const;

export async function generateMetadata({ searchParams }: { searchParams: Promise<SearchParams> }): Promise<Metadata> {
  const q = flatParams(await searchParams).q;
  return { title: q ? `Search: ${q}` : 'Search', description: 'Build logs, failure texts and bugs matching a regular expression.' };
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const raw = await searchParams;
  const p = flatParams(raw);
  // the form's checkboxes give in=logs&in=bugs; links and the API give in=logs,bugs
  const inList = ([] as string[]).concat(raw.in ?? []).join(',') || undefined;
  const params = { ...p, in: inList };
  const result = p.q ? await pageData(() => answer('search', params)) : undefined;
  const window = p.window || '14d';
  const chosen = new Set((inList ?? KINDS.map((k) => k.value).join(',')).split(','));
  return (
    <>
      <h1>Search</h1>
      <form method="get" action="/search" className="filters" role="search" aria-label="Search build logs, failures and bugs">
        <label>
          Regular expression (RE2)
          <input type="search" name="q" defaultValue={p.q ?? ''} spellCheck={false} autoComplete="off" size={40} required />
        </label>
        <fieldset className="inline">
          <legend>In</legend>
          {KINDS.map((k) => (
            <label key={k.value}>
              <input type="checkbox" name="in" value={k.value} defaultChecked={chosen.has(k.value)} /> {k.label}
            </label>
          ))}
        </fieldset>
        <label>
          Context lines
          <input type="number" name="context" min={0} max={20} defaultValue={p.context ?? String(DEFAULT_CONTEXT)} />
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
          Searches the build logs (the job&apos;s and its failed steps&apos;, their last 20 MiB), the failure texts and test names of the window&apos;s runs, and bug texts,
          for example <code>Will promote</code>, <code>TLS handshake timeout</code> or <code>{'ResourceVersion: a: "\\d+"'}</code>.
        </p>
      ) : !result.ok ? (
        <QueryError message={result.error} />
      ) : (
        <>
          <p className="lede" aria-live="polite">
            <strong data-testid="matching-runs">{result.data.matchingRuns}</strong> of {result.data.totalRuns} runs matched in {result.data.in.join(', ')} (
            {result.data.window} to <time dateTime={result.data.to}>{shortTime(result.data.to)}</time>).{' '}
            {!p.at && <a href={hrefWith('/search', { ...params, at: result.data.to })}>Permanent link</a>}
          </p>
          {result.data.partial && (
            <p className="notice warn" role="status" data-testid="search-partial">
              Stopped early ({result.data.partial.reason}, after {(result.data.partial.afterMs / 1000).toFixed(1)} s): searched {result.data.partial.covered}. Narrow the window, the job
              or the pattern for a complete answer.
            </p>
          )}
          <DailyChart
            short
            testId="search-chart"
            title="Runs per day, all and with a match"
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
          <LogGroups r={result.data} />
          <FailureGroups r={result.data} at={p.at} />
          <BugMatches r={result.data} />
          {(result.data.tests > result.data.results.length || result.data.logJobs > result.data.jobs.length || result.data.matchingBugs > result.data.bugs.length) && (
            <p>
              Showing the first {result.data.results.length || result.data.jobs.length} of each.{' '}
              <a href={hrefWith('/search', { ...params, limit: Math.min(1000, Math.max(result.data.results.length, result.data.jobs.length, 1) * 4) })}>Show more</a>
            </p>
          )}
        </>
      )}
    </>
  );
}
