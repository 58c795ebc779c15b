// A job: pass rate per day, recent runs, the tests failing most in it.
import type { Metadata } from 'next';
import { COLORS } from '@/app/components/charts/colors';
import DailyChart from '@/app/components/charts/DailyChart';
import { daysBetween, flatParams, hrefWith, pct, safeUrl, segment, shortTime, type SearchParams } from '@/app/components/format';
import JobGrid from '@/app/components/jobs/JobGrid';
import JobRunsTable from '@/app/components/jobs/JobRunsTable';
import { loadJob } from '@/app/components/jobs/loadJob';
import { pageData } from '@/app/components/pageData';
import QueryError from '@/app/components/QueryError';
import VerdictBadge from '@/app/components/VerdictBadge';
import WindowTabs from '@/app/components/WindowTabs';

interface Props {
  params: Promise<{ name: string }>;
  searchParams: Promise<SearchParams>;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const name = segment((await params).name);
  const p = flatParams(await searchParams);
  try {
    const j = await loadJob(name, p.window, p.at);
    const top = j.topTests[0];
    const description = `Pass rate ${pct(j.passRate)} over ${j.runsCount} runs in the ${j.window} to ${j.to}.${top ? ` Failing most: ${top.test} (${top.failedRuns} runs).` : ''}`;
    return { title: j.name, description, openGraph: { title: j.name, description, type: 'website' } };
  } catch {
    return { title: name };
  }
}

export default async function JobPage({ params, searchParams }: Props) {
  const name = segment((await params).name);
  const p = flatParams(await searchParams);
  const result = await pageData(() => loadJob(name, p.window, p.at));
  if (!result.ok) {
    return (
      <>
        <h1>{name}</h1>
        <QueryError message={result.error} />
      </>
    );
  }
  const j = result.data;
  const byDay = new Map(j.daily.map((d) => [d.day, d]));
  const data = daysBetween(j.from, j.to).map((day) => {
    const d = byDay.get(day);
    return { day, success: d?.success ?? 0, failure: d?.failure ?? 0, error: d?.error ?? 0, aborted: d?.aborted ?? 0, passRate: d?.passRate ?? null };
  });
  const linkParams = { window: p.window, at: p.at };
  return (
    <>
      <p className="muted small">Job · {j.type}</p>
      <h1 className="testname">{j.name}</h1>
      <WindowTabs path={`/jobs/${encodeURIComponent(j.name)}`} current={j.window} params={{ at: p.at }} />
      <ul className="summary-stats">
        <li>
          <strong>{pct(j.passRate)}</strong> passed
        </li>
        <li>
          <strong>{j.runsCount}</strong> runs
        </li>
        <li className="muted">
          <time dateTime={j.from}>{shortTime(j.from)}</time> – <time dateTime={j.to}>{shortTime(j.to)}</time>
        </li>
      </ul>

      <section aria-labelledby="daily-h">
        <h2 id="daily-h">Pass rate per day</h2>
        <DailyChart
          testId="job-chart"
          title="Runs of the job per day by state, with the pass rate"
          data={data}
          bars={[
            { key: 'success', label: 'success', color: COLORS.passed, stack: 'state' },
            { key: 'failure', label: 'failure', color: COLORS.failed, stack: 'state' },
            { key: 'error', label: 'error', color: COLORS.error, stack: 'state' },
            { key: 'aborted', label: 'aborted', color: COLORS.aborted, stack: 'state' },
          ]}
          lines={[{ key: 'passRate', label: 'pass rate', color: COLORS.line }]}
        />
      </section>

      <section aria-labelledby="grid-h">
        <h2 id="grid-h">Latest runs, test by test</h2>
        <JobGrid job={j.name} grid={j.grid} />
      </section>

      <section aria-labelledby="top-h">
        <h2 id="top-h">Tests failing most in this job</h2>
        {j.topTests.length ? (
          <div className="table-wrap">
            <table className="cards" data-testid="job-top-tests">
              <thead>
                <tr>
                  <th scope="col">Test</th>
                  <th scope="col" className="num">Failed</th>
                  <th scope="col" className="num">Flaked</th>
                  <th scope="col" className="num">Runs</th>
                  <th scope="col">Verdict</th>
                </tr>
              </thead>
              <tbody>
                {j.topTests.map((t) => (
                  <tr key={t.id}>
                    <td className="test">
                      <a href={hrefWith(`/tests/${t.id}`, linkParams)}>
                        {t.test}
                      </a>
                    </td>
                    <td className="num" data-label="Failed">{t.failedRuns}</td>
                    <td className="num" data-label="Flaked">{t.flakedRuns}</td>
                    <td className="num" data-label="Runs">{t.runs}</td>
                    <td data-label="Verdict">
                      <VerdictBadge classification={t.classification} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">No test failed in this job in the window.</p>
        )}
      </section>

      {j.pending.length > 0 && (
        <section aria-labelledby="pending-h">
          <h2 id="pending-h">Running or not yet fetched ({j.pending.length})</h2>
          <ul data-testid="job-pending">
            {j.pending.map((r) => (
              // not stored yet, so no run page: Prow's is the one to see (as on the promotion page)
              <li key={r.buildId} className={r.listed ? undefined : 'muted'}>
                {safeUrl(r.url) ? <a href={safeUrl(r.url)}>#{r.buildId}</a> : `#${r.buildId}`} {r.state}, started {shortTime(r.started)}
                {!r.listed && <>; lost track: Deck stopped listing it after {shortTime(r.lastListed)}</>}
                {r.lastError && <span className="meta">{r.lastError}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Recent runs{j.runsCount > j.runs.length ? ` (latest ${j.runs.length} of ${j.runsCount})` : ''}</h2>
        <JobRunsTable job={j.name} runs={j.runs} />
      </section>
    </>
  );
}
