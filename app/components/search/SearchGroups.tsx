// Search results: build-log matches grouped by job, failure matches grouped by test, bugs.
import type { SearchResult } from '@/lib/answers/search';
import { runHref } from '../Evidence';
import { hrefWith, jobHref, safeUrl, shortTime } from '../format';
import Highlight from '../Highlight';
import MatchedLines from './MatchedLines';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function LogGroups({ r }: { r: SearchResult }) {
  if (!r.jobs.length) return null;
  return (
    <section aria-labelledby="logs-h">
      <h2 id="logs-h">Build logs: {plural(r.logJobs, 'job')}</h2>
      {r.jobs.map((j) => (
        <section key={j.job} className="search-group" data-testid="log-group">
          <h3 className="testname">
            <a href={jobHref(j.job)}>{j.job}</a> <span className="muted small">{plural(j.matchingRuns, 'run')}, {plural(j.matches, 'match', 'matches')}</span>
          </h3>
          <ul className="plain">
            {j.runs.map((run) => (
              <li key={run.buildId} className="search-hit">
                <a href={runHref(j.job, run.buildId)} className="small">
                  #{run.buildId}
                </a>{' '}
                <span className={`state-${run.state} small`}>{run.state}</span> <span className="muted small">{shortTime(run.started)}</span>
                {run.files.map((f) => (
                  <div key={f.path}>
                    <code className="small">{f.path}</code>{' '}
                    <span className="muted small">
                      {plural(f.matches, 'match', 'matches')}
                      {f.tailStart > 0 && `, in its last ${Math.round((f.size - f.tailStart) / 1048576)} MiB`}
                    </span>
                    <MatchedLines lines={f.lines} />
                  </div>
                ))}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

export function FailureGroups({ r, at }: { r: SearchResult; at?: string }) {
  if (!r.results.length) return null;
  return (
    <section aria-labelledby="failures-h">
      <h2 id="failures-h">Failures: {plural(r.tests, 'test')}</h2>
      {r.results.map((g) => (
        <section key={g.id} className="search-group" aria-labelledby={`g-${g.id}`}>
          <h3 id={`g-${g.id}`} className="testname">
            <a href={hrefWith(`/tests/${g.id}`, { at })}>
              <Highlight text={g.test} marks={g.testMarks} />
            </a>{' '}
            <span className="muted small">{plural(g.matches, 'match', 'matches')}</span>
          </h3>
          <ul className="plain">
            {g.runs.map((run) => (
              <li key={`${run.job}/${run.buildId}`} className="search-hit">
                <span className={`outcome-${run.outcome} small`}>{run.outcome}</span>{' '}
                <a href={runHref(run.job, run.buildId)} className="small">
                  {run.job} #{run.buildId}
                </a>{' '}
                <span className="muted small">{shortTime(run.started)}</span>
                {run.lines.length ? (
                  <MatchedLines lines={run.lines} />
                ) : (
                  <pre className="failure-text small">
                    <Highlight text={run.excerpt} marks={run.excerptMarks} />
                  </pre>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

export function BugMatches({ r }: { r: SearchResult }) {
  if (!r.bugs.length) return null;
  return (
    <section aria-labelledby="bugs-h">
      <h2 id="bugs-h">Bugs: {r.matchingBugs}</h2>
      <ul className="plain">
        {r.bugs.map((b) => (
          <li key={`${b.tracker}/${b.id}`} className="search-hit" data-testid="bug-match">
            <a href={safeUrl(b.url)}>
              {b.tracker} {b.id}
            </a>{' '}
            <span className="muted small">{b.status}</span> {b.summary}
            <MatchedLines lines={b.lines} />
          </li>
        ))}
      </ul>
    </section>
  );
}
