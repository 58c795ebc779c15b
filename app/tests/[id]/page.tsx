// A test: verdict with evidence, daily chart per job, signatures, failed and flaked runs, bugs.
import type { Metadata } from 'next';
import BugsPanel from '@/app/components/bugs/BugsPanel';
import TestHistoryChart from '@/app/components/charts/TestHistoryChart';
import Evidence from '@/app/components/Evidence';
import { daysBetween, flatParams, hrefWith, pct, segment, shortTime, type SearchParams } from '@/app/components/format';
import { requestOrigin } from '@/app/components/origin';
import { pageData } from '@/app/components/pageData';
import QueryError from '@/app/components/QueryError';
import CopyBugComment from '@/app/components/test/CopyBugComment';
import PermanentLink from '@/app/components/test/PermanentLink';
import { loadTest, testPermalink } from '@/app/components/test/loadTest';
import SignaturesList from '@/app/components/test/SignaturesList';
import RunsPager from '@/app/components/test/RunsPager';
import TestRunsTable from '@/app/components/test/TestRunsTable';
import VerdictBadge from '@/app/components/VerdictBadge';
import WindowTabs from '@/app/components/WindowTabs';
import { testCommentInput } from '@/lib/answers/testComment';
import { bugComments } from '@/lib/bugs/comment';
import { getConfig } from '@/lib/server/context';

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { id } = await params;
  const p = flatParams(await searchParams);
  try {
    const d = await loadTest(segment(id), p.window, p.at, p.job, p.before);
    const description = `${d.classification}: ${String(d.evidence.summary ?? '')} (${d.failedRuns} failed, ${d.flakedRuns} flaked of ${d.runsCount} runs in the ${d.window} to ${d.to})`;
    const image = hrefWith(`/tests/${d.id}/og`, { window: d.window === '7d' ? undefined : d.window, at: d.to, job: p.job });
    // OpenGraph wants absolute URLs: without a trusted origin (see lib/server/origin.ts) the tags that
    // hold one are left out, as a page that does not know its own address should; title and text stay
    if (!(await requestOrigin())) {
      return { title: d.test, description, openGraph: { title: d.test, description, type: 'article' }, twitter: { card: 'summary', title: d.test, description } };
    }
    return {
      title: d.test,
      description,
      openGraph: { title: d.test, description, type: 'article', url: testPermalink('', d, p.job), images: [{ url: image, width: 1200, height: 630, alt: `Daily runs of ${d.test}` }] },
      twitter: { card: 'summary_large_image', title: d.test, description, images: [image] },
    };
  } catch {
    return { title: 'Test' };
  }
}

export default async function TestPage({ params, searchParams }: Props) {
  const { id } = await params;
  const p = flatParams(await searchParams);
  const result = await pageData(() => loadTest(segment(id), p.window, p.at, p.job, p.before));
  if (!result.ok) {
    return (
      <>
        <h1>Test {id}</h1>
        <QueryError message={result.error} />
      </>
    );
  }
  const d = result.data;
  const permalink = testPermalink(await requestOrigin(), d, p.job);
  const summary = String(d.evidence.summary ?? '');
  const perJob = new Map<string, { runs: number; failed: number; flaked: number }>();
  for (const h of d.history) {
    const e = perJob.get(h.job) ?? { runs: 0, failed: 0, flaked: 0 };
    e.runs += h.runs;
    e.failed += h.failed;
    e.flaked += h.flaked;
    perJob.set(h.job, e);
  }
  const jobs = [...perJob].sort((a, b) => b[1].failed + b[1].flaked - (a[1].failed + a[1].flaked) || (a[0] < b[0] ? -1 : 1));

  return (
    <article>
      <p className="muted small">
        Test <span className="mono">{d.id}</span>
        {d.owner ? ` · owner ${d.owner}` : ''}
      </p>
      <h1 className="testname">{d.test}</h1>
      <WindowTabs path={`/tests/${d.id}`} current={d.window} params={{ at: p.at, job: p.job }} />
      <ul className="summary-stats">
        <li>
          <strong>{d.failedRuns}</strong> failed
        </li>
        <li>
          <strong>{d.flakedRuns}</strong> flaked
        </li>
        <li>
          of <strong>{d.runsCount}</strong> runs ({pct(d.failureRate)} failed)
        </li>
        <li className="muted">
          window before: {d.previousFailedRuns} failed, {d.previousFlakedRuns} flaked of {d.previousRuns}
        </li>
        <li className="muted">
          <time dateTime={d.from}>{shortTime(d.from)}</time> – <time dateTime={d.to}>{shortTime(d.to)}</time>
        </li>
      </ul>

      <section className="verdict" aria-labelledby="verdict-h">
        <h2 id="verdict-h">
          Verdict: <VerdictBadge classification={d.classification} summary={summary} />
          {d.isNew && <span className="mark-new">new</span>}
        </h2>
        <Evidence evidence={d.evidence} />
        <CopyBugComment comments={bugComments(getConfig(), testCommentInput(d, permalink))} permalink={permalink} />
        <p className="small">
          Permanent link: <PermanentLink href={permalink} />
        </p>
      </section>

      {/* BugsPanel (the bug-linking work) brings its own section and heading. */}
      <BugsPanel testId={d.id} testName={d.test} bugs={d.bugs} classification={d.classification} evidenceSummary={summary} permalink={permalink} />

      <section aria-labelledby="history-h">
        <h2 id="history-h">Runs per day</h2>
        <TestHistoryChart history={d.history} days={daysBetween(d.from, d.to)} />
        <div className="table-wrap">
          <table className="small">
            <caption>Runs of this test per job in the window</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col" className="num">Runs</th>
                <th scope="col" className="num">Failed</th>
                <th scope="col" className="num">Flaked</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map(([job, c]) => (
                <tr key={job}>
                  <td>
                    <a href={`/jobs/${encodeURIComponent(job)}`}>{job}</a>
                  </td>
                  <td className="num">{c.runs}</td>
                  <td className="num">{c.failed}</td>
                  <td className="num">{c.flaked}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="sigs-h">
        <h2 id="sigs-h">Failure signatures</h2>
        <SignaturesList signatures={d.signatures} />
      </section>

      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Failed and flaked runs ({d.runsTotal})</h2>
        <TestRunsTable runs={d.runs} config={getConfig()} />
        <RunsPager test={d} job={p.job} before={p.before} shown={d.runs.length} total={d.runsTotal} next={d.runsNext} />
      </section>
    </article>
  );
}
