// The hot list rows: semantic table on wide screens, labelled cards on a phone (CSS only).
import type { HotlistItem } from '@/lib/answers/hotlist';
import BugLinks from '../BugLinks';
import { hrefWith, pct, shortTime } from '../format';
import Sparkline from '../Sparkline';
import VerdictBadge from '../VerdictBadge';

export default function HotlistTable({ items, linkParams }: { items: HotlistItem[]; linkParams: Record<string, string | undefined> }) {
  return (
    <div className="table-wrap">
      <table className="cards hotlist" data-testid="hotlist">
        <caption className="visually-hidden">Tests failing most in the window, most failures first</caption>
        <thead>
          <tr>
            <th scope="col">Test</th>
            <th scope="col" className="num">Failed</th>
            <th scope="col" className="num">Flaked</th>
            <th scope="col" className="num">Runs</th>
            <th scope="col">Trend</th>
            <th scope="col">Verdict</th>
            <th scope="col">Jobs</th>
            <th scope="col" className="num">Signatures</th>
            <th scope="col">Bugs</th>
          </tr>
        </thead>
        <tbody>
          {items.map((it) => (
            <tr key={it.id} data-test-id={it.id}>
              <td className="test">
                <a href={hrefWith(`/tests/${it.id}`, linkParams)} className="test-link">
                  {it.test}
                </a>
                {it.isNew && (
                  <span className="mark-new" title="no failure or flake in the window before">
                    new
                  </span>
                )}
                <span className="meta">
                  {it.owner ? `${it.owner} · ` : ''}
                  {pct(it.failureRate)} failed · last {shortTime(it.lastFailure)}
                </span>
              </td>
              <td className="num" data-label="Failed">
                {it.failedRuns}
              </td>
              <td className="num" data-label="Flaked">
                {it.flakedRuns}
              </td>
              <td className="num" data-label="Runs">
                {it.runs}
              </td>
              <td data-label="Trend">
                <Sparkline points={it.sparkline} />
              </td>
              <td data-label="Verdict">
                <VerdictBadge classification={it.classification} summary={String(it.evidence.summary ?? '')} />
              </td>
              <td data-label="Jobs">
                <JobList jobs={it.jobs} />
              </td>
              <td className="num" data-label="Signatures">
                <span title={it.signatures[0]?.text.split('\n')[0]}>{it.signaturesCount}</span>
              </td>
              <td data-label="Bugs">
                <BugLinks bugs={it.bugs} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function JobList({ jobs }: { jobs: string[] }) {
  if (!jobs.length) return <span className="muted">—</span>;
  const links = (list: string[]) => (
    <ul className="plain small">
      {list.map((j) => (
        <li key={j}>
          <a href={`/jobs/${encodeURIComponent(j)}`}>
            {j}
          </a>
        </li>
      ))}
    </ul>
  );
  if (jobs.length === 1) return links(jobs);
  return (
    <details>
      <summary className="small">{jobs.length} jobs</summary>
      {links(jobs)}
    </details>
  );
}
