// A failure signature: its text and a real example, every test failing with it, runs per day against
// all runs, jobs and slices, bugs, example runs, and its verdict as a cause.
import type { Metadata } from 'next';
import DailyChart from '@/app/components/charts/DailyChart';
import { COLORS } from '@/app/components/charts/colors';
import Evidence, { runHref } from '@/app/components/Evidence';
import { flatParams, hrefWith, pct, safeUrl, segment, shortTime, type SearchParams } from '@/app/components/format';
import { pageData } from '@/app/components/pageData';
import QueryError from '@/app/components/QueryError';
import VerdictBadge from '@/app/components/VerdictBadge';
import WindowTabs from '@/app/components/WindowTabs';
import { headline } from '@/lib/answers/causes';
import { signatureCommentInput, signaturePermalink } from '@/lib/answers/signature';
import { bugComments } from '@/lib/bugs/comment';
import CopyBugComment from '@/app/components/test/CopyBugComment';
import { requestOrigin } from '@/app/components/origin';
import { answer } from '@/lib/server/answerPool';
import { getConfig } from '@/lib/server/context';

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}

export const metadata: Metadata = { title: 'Failure signature' };

export default async function SignaturePage({ params, searchParams }: Props) {
  const { id } = await params;
  const p = flatParams(await searchParams);
  const result = await pageData(() => answer('signature', { ...p, id: segment(id) }));
  if (!result.ok) {
    return (
      <>
        <h1>Signature {id}</h1>
        <QueryError message={result.error} />
      </>
    );
  }
  const d = result.data;
  const linkParams = { window: p.window, at: p.at };
  const permalink = signaturePermalink(await requestOrigin(), d);
  const chart = d.perDay.map((x) => ({ day: x.day, withIt: x.runsWithIt, others: x.runs - x.runsWithIt, share: x.runs ? x.runsWithIt / x.runs : null }));
  return (
    <article>
      <p className="muted small">
        Signature <span className="mono">{d.id}</span> · first seen {shortTime(d.firstSeen)} · last seen {shortTime(d.lastSeen)}
      </p>
      <h1 className="testname mono">{headline(d.text)}</h1>
      <WindowTabs path={`/signatures/${d.id}`} current={d.window} params={{ at: p.at }} />
      <ul className="summary-stats">
        <li>
          <strong>{d.runs}</strong> runs taken down
        </li>
        <li>
          <strong>{d.flakedRuns}</strong> more where a retry passed
        </li>
        <li>
          <strong>{d.tests.length}</strong> tests failing with it
        </li>
        <li className="muted">
          all time: {d.allTime.occurrences} failures of {d.allTime.tests} tests
        </li>
      </ul>

      <section className="verdict" aria-labelledby="verdict-h">
        <h2 id="verdict-h">
          As a cause: <VerdictBadge classification={d.classification} summary={String(d.evidence.summary ?? '')} />
        </h2>
        <Evidence evidence={d.evidence} />
        <CopyBugComment comments={bugComments(getConfig(), signatureCommentInput(d, permalink))} permalink={permalink} />
      </section>

      <section aria-labelledby="text-h">
        <h2 id="text-h">Failure text</h2>
        <p className="small muted">Normalised (times, names, addresses and ids replaced), as clustering keeps it:</p>
        <pre className="failure-text" data-testid="signature-text">{d.text}</pre>
        {d.example && (
          <>
            <p className="small muted">
              A real example, from <a href={runHref(d.example.job, d.example.buildId)}>{d.example.job} #{d.example.buildId}</a> ({d.example.test}):
            </p>
            <pre className="failure-text" data-testid="signature-example">{d.example.message}</pre>
          </>
        )}
      </section>

      <section aria-labelledby="perday-h">
        <h2 id="perday-h">Runs per day</h2>
        <DailyChart
          data={chart}
          bars={[
            { key: 'withIt', label: 'runs with it', color: COLORS.failed, stack: 'runs' },
            { key: 'others', label: 'other runs', color: COLORS.runs, stack: 'runs' },
          ]}
          lines={[{ key: 'share', label: 'share of runs', color: COLORS.line }]}
          title="Runs per day with this signature against all runs"
          testId="signature-chart"
        />
      </section>

      <section aria-labelledby="tests-h">
        <h2 id="tests-h">Tests failing with it ({d.tests.length})</h2>
        <ul className="plain" data-testid="signature-tests">
          {d.tests.map((t) => (
            <li key={t.id}>
              <a href={hrefWith(`/tests/${t.id}`, linkParams)}>{t.test}</a>{' '}
              <span className="muted small">
                {t.runs} {t.runs === 1 ? 'run' : 'runs'}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="where-h">
        <h2 id="where-h">Where</h2>
        <div className="table-wrap">
          <table className="small">
            <caption>Jobs with it, runs with it against the job&apos;s runs in the window</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col" className="num">Runs with it</th>
                <th scope="col" className="num">Runs</th>
              </tr>
            </thead>
            <tbody>
              {d.jobs.map((j) => (
                <tr key={j.job}>
                  <td>
                    <a href={`/jobs/${encodeURIComponent(j.job)}`}>{j.job}</a>
                  </td>
                  <td className="num">{j.runsWithIt}</td>
                  <td className="num">{j.runs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="small">
          By slice:{' '}
          {d.slices.map((s, i) => (
            <span key={s.slice}>
              {i ? '; ' : ''}
              {s.slice} {s.runsWithIt}/{s.runs} ({s.runs ? pct(s.runsWithIt / s.runs) : 'n/a'})
            </span>
          ))}
        </p>
      </section>

      <section aria-labelledby="bugs-h">
        <h2 id="bugs-h">Bugs</h2>
        {d.bugs.length ? (
          <ul className="plain">
            {d.bugs.map((b) => (
              <li key={`${b.tracker}:${b.id}`}>
                <a href={safeUrl(b.url)}>
                  {b.tracker} {b.id}
                </a>{' '}
                [{b.status}] {b.summary}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No bug quotes this signature yet.</p>
        )}
      </section>

      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Example runs</h2>
        <ul className="plain" data-testid="signature-runs">
          {d.exampleRuns.map((r) => (
            <li key={`${r.job}/${r.buildId}/${r.test}`}>
              <a href={runHref(r.job, r.buildId)}>
                {r.job} #{r.buildId}
              </a>{' '}
              <span className="muted small">
                {shortTime(r.started)} · {r.outcome} · {r.test}
              </span>
              {safeUrl(r.url) && (
                <>
                  {' '}
                  (<a href={safeUrl(r.url)}>Prow</a>)
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
