// A job's recent runs: state, duration, refs, counts, links.
import type { JobDetail } from '@/lib/answers/jobs';
import { runHref } from '../Evidence';
import { duration, safeUrl, shortTime } from '../format';

export default function JobRunsTable({ job, runs }: { job: string; runs: JobDetail['runs'] }) {
  if (!runs.length) return <p className="muted">No runs in this window.</p>;
  return (
    <div className="table-wrap">
      <table className="cards" data-testid="job-runs">
        <caption className="visually-hidden">Recent runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">State</th>
            <th scope="col">Started</th>
            <th scope="col" className="num">Duration</th>
            <th scope="col" className="num">Failed</th>
            <th scope="col" className="num">Flaked</th>
            <th scope="col" className="num">Passed</th>
            <th scope="col">Refs</th>
            <th scope="col">Links</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.buildId}>
              <td className="mono small">
                <a href={runHref(job, r.buildId)}>
                  #{r.buildId}
                </a>
              </td>
              <td className={`state-${r.state}`} data-label="State">
                {r.state}
                {r.installFailed && <span className="meta">install failed</span>}
                {r.parseErrors > 0 && <span className="meta">{r.parseErrors} parse errors</span>}
              </td>
              <td className="small nowrap" data-label="Started">
                <time dateTime={r.started}>{shortTime(r.started)}</time>
              </td>
              <td className="num" data-label="Duration">{duration(r.durationSeconds)}</td>
              <td className="num" data-label="Failed" title={r.wrapperFailed ? `and ${r.wrapperFailed} ci-operator step results, not counted` : undefined}>
                {r.failed}
              </td>
              <td className="num" data-label="Flaked">{r.flaked}</td>
              <td className="num" data-label="Passed">{r.passed}</td>
              <td className="small test" data-label="Refs">
                {/* a presubmit tests its pull's head commit; the payload it built is not what it tests */}
                {r.pull ? (
                  <>
                    PR #{r.pull} {r.commit && <span className="mono">{r.commit.slice(0, 12)}</span>}
                  </>
                ) : r.payload ? (
                  r.payload
                ) : r.commit ? (
                  <span className="mono">{r.commit.slice(0, 12)}</span>
                ) : (
                  ''
                )}
              </td>
              <td className="small" data-label="Links">
                {safeUrl(r.url) && <a href={safeUrl(r.url)}>Prow</a>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
