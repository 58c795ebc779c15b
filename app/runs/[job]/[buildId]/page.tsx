// One run: state, duration, refs, install failure, failed and flaked tests, parse errors, links out.
import type { Metadata } from 'next';
import { cache } from 'react';
import { answer } from '@/lib/server/answerPool';
import { Facts } from '@/app/components/Evidence';
import { duration, jobHref, safeUrl, segment, shortTime } from '@/app/components/format';
import { pageData } from '@/app/components/pageData';
import RunTestsTable from '@/app/components/RunTestsTable';

interface Props {
  params: Promise<{ job: string; buildId: string }>;
}

const loadRun = cache((job: string, buildId: string) => answer('run', { job, buildId }));

async function names(params: Props['params']) {
  const p = await params;
  return { job: segment(p.job), buildId: segment(p.buildId) };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { job, buildId } = await names(params);
  try {
    const r = await loadRun(job, buildId);
    const first = r.failedTests.slice(0, 3).map((t) => t.test);
    const description = `${r.state}: ${r.counts.failed} failed, ${r.counts.flaked} flaked, ${r.counts.passed} passed${r.installFailure ? '; install failed' : ''}. Started ${r.started}.${first.length ? ` Failed: ${first.join('; ')}` : ''}`;
    const title = `${r.job} #${r.buildId}`;
    return { title, description, openGraph: { title, description, type: 'website' } };
  } catch {
    return { title: `${job} #${buildId}` };
  }
}

export default async function RunPage({ params }: Props) {
  const { job, buildId } = await names(params);
  const result = await pageData(() => loadRun(job, buildId));
  if (!result.ok) return <p className="notice error">{result.error}</p>;
  const r = result.data;
  const prow = safeUrl(r.url);
  const artifacts = safeUrl(r.artifactsUrl);
  const install = r.installFailure as { steps?: string[] } | null;
  return (
    <>
      <p className="muted small">
        Run of <a href={jobHref(r.job)}>{r.job}</a>
      </p>
      <h1 className="testname">
        {r.job} #{r.buildId}
      </h1>
      <div className="actions" data-testid="run-links">
        {prow && <a className="button" href={prow}>Prow job page</a>}
        {artifacts && <a className="button" href={artifacts}>Artifacts</a>}
        {safeUrl(r.links.buildLog) && <a className="button" href={safeUrl(r.links.buildLog)}>build-log.txt</a>}
        {r.links.stepLogs.map((l) =>
          safeUrl(l.url) ? (
            <a key={l.step} className="button" href={safeUrl(l.url)} data-testid="step-log">
              step {l.step} log
            </a>
          ) : null,
        )}
        <a className="button" href={`/api/runs/${encodeURIComponent(r.job)}/${encodeURIComponent(r.buildId)}`}>JSON</a>
      </div>
      <dl className="facts">
        <div>
          <dt>State</dt>
          <dd className={`state-${r.state}`} data-testid="run-state">
            {r.state}
            {r.incomplete ? ' (results incomplete)' : ''}
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd><time dateTime={r.started}>{shortTime(r.started)}</time></dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{r.finished ? <time dateTime={r.finished}>{shortTime(r.finished)}</time> : '—'}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{duration(r.durationSeconds)}</dd>
        </div>
        <div>
          <dt>Tests</dt>
          <dd data-testid="run-counts">
            {r.counts.failed} failed, {r.counts.flaked} flaked, {r.counts.passed} passed, {r.counts.skipped} skipped
            {r.counts.wrapperFailed + r.counts.wrapperFlaked + r.counts.wrapperPassed > 0 && (
              <span className="muted"> (and {r.counts.wrapperFailed + r.counts.wrapperFlaked + r.counts.wrapperPassed} ci-operator step and monitor results, not counted)</span>
            )}
            {r.resultsFrom ? <span className="muted"> (results from {String(r.resultsFrom)})</span> : null}
          </dd>
        </div>
        {r.refs.pull !== null && (
          <div>
            <dt>Pull request</dt>
            <dd data-testid="run-pull">{safeUrl(r.refs.pullUrl) ? <a href={safeUrl(r.refs.pullUrl)}>#{r.refs.pull}</a> : `#${r.refs.pull}`}</dd>
          </div>
        )}
        {r.refs.baseRef && (
          <div>
            <dt>Base ref</dt>
            <dd>{r.refs.baseRef}</dd>
          </div>
        )}
        {r.refs.commit && (
          <div>
            <dt>{r.refs.pull !== null ? 'Head commit' : 'Commit'}</dt>
            <dd className="mono" data-testid="run-commit">{r.refs.commit}</dd>
          </div>
        )}
        {r.payload && r.refs.pull === null && (
          <div>
            <dt>Payload</dt>
            <dd className="mono">{r.payload}</dd>
          </div>
        )}
        {r.promote ? (
          <div>
            <dt>Promotes</dt>
            <dd>
              <Facts evidence={r.promote as Record<string, unknown>} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Artifacts</dt>
          <dd className="mono small">{r.artifacts}</dd>
        </div>
        <div>
          <dt>Ingested</dt>
          <dd>{shortTime(r.ingestedAt)}</dd>
        </div>
      </dl>

      {install && (
        <section aria-labelledby="install-h" className="notice error">
          <h2 id="install-h">Install failed</h2>
          {install.steps?.length ? (
            <ul>
              {install.steps.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          ) : (
            <p>The cluster under test did not come up; test failures in this run say little about the tests.</p>
          )}
        </section>
      )}

      <section aria-labelledby="failed-h">
        <h2 id="failed-h">Failed tests ({r.failedTests.length})</h2>
        {r.failedTests.length ? <RunTestsTable tests={r.failedTests} caption="Failed tests" testId="run-failed" /> : <p className="muted">None.</p>}
      </section>
      <section aria-labelledby="flaked-h">
        <h2 id="flaked-h">Flaked tests ({r.flakedTests.length})</h2>
        {r.flakedTests.length ? <RunTestsTable tests={r.flakedTests} caption="Flaked tests" testId="run-flaked" /> : <p className="muted">None.</p>}
      </section>
      {r.wrapperTests.length > 0 && (
        <section aria-labelledby="wrappers-h" className="muted" data-testid="run-wrappers">
          <h2 id="wrappers-h">ci-operator steps and monitors ({r.wrapperTests.length})</h2>
          <p className="small">Wrapper results that only mirror the tests above (config key &quot;ignoreTests&quot;): not counted as failures.</p>
          <RunTestsTable tests={r.wrapperTests} caption="ci-operator step and monitor results" testId="run-wrapper-tests" />
        </section>
      )}
      {r.parseErrors.length > 0 && (
        <section aria-labelledby="errors-h">
          <h2 id="errors-h">Parse errors ({r.parseErrors.length})</h2>
          <p className="small muted">Artifacts that could not be read completely; what could be read was kept.</p>
          <ul>
            {r.parseErrors.map((e, i) => (
              <li key={i}>
                <code>{e.file}</code>: {e.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
