// TestGrid's view of a job, rendered on the server: the latest runs as columns (newest on the left),
// the tests that failed or flaked in any of them as rows, each cell the outcome (colour and letter),
// the failure text on hover, and a link to the run.
import type { JobDetail } from '@/lib/answers/jobs';
import { runHref } from '../Evidence';
import { shortTime } from '../format';
import './grid.css';

const LETTER = { failed: 'F', flaked: 'f', passed: '', none: '' } as const;
const WORD = { failed: 'failed', flaked: 'flaked', passed: 'passed', none: 'did not run' } as const;

export default function JobGrid({ job, grid }: { job: string; grid: JobDetail['grid'] }) {
  if (!grid.columns.length) return <p className="muted">No runs in this window.</p>;
  if (!grid.rows.length) return <p className="muted">No test failed or flaked in the latest {grid.columns.length} runs.</p>;
  return (
    <>
      <div className="table-wrap job-grid-wrap">
        <table className="job-grid" data-testid="job-grid">
          <caption className="visually-hidden">Tests that failed or flaked in the latest runs, one column per run, newest first</caption>
          <thead>
            <tr>
              <th scope="col" className="grid-test">Test</th>
              {grid.columns.map((c) => (
                <th key={c.buildId} scope="col" className={`grid-run state-${c.state}`} title={`#${c.buildId} ${c.state}, started ${shortTime(c.started)}`}>
                  <a href={runHref(job, c.buildId)}>{c.buildId.slice(-4)}</a>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.rows.map((row) => (
              <tr key={row.id}>
                <th scope="row" className="grid-test">
                  <a href={`/tests/${row.id}`}>{row.test}</a>
                </th>
                {row.cells.map((cell, i) => {
                  const run = grid.columns[i];
                  const label = `${WORD[cell.outcome]} in #${run.buildId}`;
                  return (
                    <td key={run.buildId} className={`grid-cell grid-${cell.outcome}`} title={cell.message ? `${label}: ${cell.message}` : label} data-outcome={cell.outcome}>
                      {cell.outcome === 'none' ? null : (
                        <a href={runHref(job, run.buildId)} aria-label={label}>
                          {LETTER[cell.outcome]}
                        </a>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small muted">
        {grid.rows.length < grid.totalRows ? `${grid.rows.length} of ${grid.totalRows} tests, failing most first. ` : ''}F failed, f flaked, green passed, blank did not run; hover a cell for its failure.
      </p>
    </>
  );
}
