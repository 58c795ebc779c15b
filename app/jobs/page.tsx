// All jobs with their pass rate in the window, worst first.
import type { Metadata } from 'next';
import { answer } from '@/lib/server/answerPool';
import { runHref } from '../components/Evidence';
import { flatParams, hrefWith, jobHref, pct, shortTime, type SearchParams } from '../components/format';
import { pageData } from '../components/pageData';
import QueryError from '../components/QueryError';
import WindowTabs from '../components/WindowTabs';

export const metadata: Metadata = { title: 'Jobs', description: 'CI jobs and their pass rates.' };

export default async function JobsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const p = flatParams(await searchParams);
  const result = await pageData(() => answer('jobs', p));
  return (
    <>
      <h1>Jobs</h1>
      <WindowTabs path="/jobs" current={result.ok ? result.data.window : '7d'} params={{ at: p.at }} />
      {!result.ok ? (
        <QueryError message={result.error} />
      ) : (
        <div className="table-wrap">
          <table className="cards" data-testid="jobs">
            <caption className="visually-hidden">Jobs, lowest pass rate first</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col" className="num">Pass rate</th>
                <th scope="col" className="num">Runs</th>
                <th scope="col">By state</th>
                <th scope="col">Latest run</th>
              </tr>
            </thead>
            <tbody>
              {result.data.jobs.map((j) => (
                <tr key={j.name}>
                  <td className="test">
                    <a href={hrefWith(jobHref(j.name), { window: p.window, at: p.at })}>
                      {j.name}
                    </a>
                    <span className="meta">{[j.kind, j.release, j.platform, j.upgrade ? 'upgrade' : ''].filter(Boolean).join(' · ')}</span>
                  </td>
                  <td className="num" data-label="Pass rate">{pct(j.passRate)}</td>
                  <td className="num" data-label="Runs">{j.runs}</td>
                  <td className="small" data-label="By state">
                    {Object.entries(j.byState)
                      .map(([s, n]) => `${n} ${s}`)
                      .join(', ') || '—'}
                  </td>
                  <td className="small" data-label="Latest run">
                    {j.lastRun ? (
                      <>
                        <a href={runHref(j.name, j.lastRun.buildId)} className={`state-${j.lastRun.state}`}>
                          {j.lastRun.state}
                        </a>{' '}
                        <span className="muted">{shortTime(j.lastRun.started)}</span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
