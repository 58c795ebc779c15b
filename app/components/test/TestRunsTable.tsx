// The window's failed and flaked runs of a test, newest first, with the failure text and links out.
import { artifactPlaces, folderUrl } from '@/lib/answers/artifacts';
import type { TestDetailResult } from '@/lib/answers/testDetail';
import type { Config } from '@/lib/config';
import { runHref } from '../Evidence';
import { safeUrl, shortTime } from '../format';

export default function TestRunsTable({ runs, config }: { runs: TestDetailResult['runs']; config?: Pick<Config, 'prow' | 'gcs'> }) {
  if (!runs.length) return <p className="muted">No failed or flaked runs in this window.</p>;
  return (
    <div className="table-wrap">
      <table className="cards" data-testid="test-runs">
        <caption className="visually-hidden">Failed and flaked runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Outcome</th>
            <th scope="col">Job and run</th>
            <th scope="col">Failure</th>
            <th scope="col">Links</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => {
            const artifacts = safeUrl(folderUrl(artifactPlaces(config, r.url), r.artifacts));
            return (
              <tr key={`${r.job}/${r.buildId}`}>
                <td className="nowrap small" data-label="Started">
                  <time dateTime={r.started}>{shortTime(r.started)}</time>
                </td>
                <td className={`outcome-${r.outcome}`} data-label="Outcome">
                  {r.outcome}
                </td>
                <td className="test small" data-label="Run">
                  <a href={runHref(r.job, r.buildId)}>
                    {r.job} #{r.buildId}
                  </a>
                </td>
                <td className="test" data-label="Failure">
                  <details>
                    <summary className="small">{firstLine(r.message)}</summary>
                    <pre className="failure-text">{r.message}</pre>
                  </details>
                </td>
                <td className="small nowrap" data-label="Links">
                  {safeUrl(r.url) && <a href={safeUrl(r.url)}>Prow</a>}
                  {artifacts && (
                    <>
                      {' · '}
                      <a href={artifacts}>artifacts</a>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function firstLine(s: string): string {
  const line = (s.split('\n').find((l) => l.trim()) ?? '').trim();
  return line.length > 140 ? `${line.slice(0, 140)}…` : line || '(no message)';
}
