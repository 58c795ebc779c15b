// The hot list rows: semantic table on wide screens, labelled cards on a phone (CSS only).
import type { HotlistRow } from '@/lib/answers/causes';
import { headline } from '@/lib/answers/causes';
import type { HotlistItem } from '@/lib/answers/hotlist';
import { signatureHref } from '../causes/TopCauses';
import BugLinks from '../BugLinks';
import { hrefWith, pct, shortTime } from '../format';
import Sparkline from '../Sparkline';
import VerdictBadge from '../VerdictBadge';

export default function HotlistTable({ rows, linkParams }: { rows: HotlistRow<HotlistItem>[]; linkParams: Record<string, string | undefined> }) {
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
          {rows.map((row) => (row.kind === 'cause' ? <CauseRow key={row.cause.id} row={row} linkParams={linkParams} /> : <TestRow key={row.item.id} it={row.item} linkParams={linkParams} />))}
        </tbody>
      </table>
    </div>
  );
}

/** A mass failure's tests folded into one row, expandable to them. */
function CauseRow({ row, linkParams }: { row: Extract<HotlistRow<HotlistItem>, { kind: 'cause' }>; linkParams: Record<string, string | undefined> }) {
  const { cause, items } = row;
  return (
    <tr className="cause-row" data-cause-id={cause.id}>
      <td className="test" colSpan={5}>
        <a href={signatureHref(cause.id, linkParams)} className="cause-link mono">
          {headline(cause.text)}
        </a>
        <details data-testid="collapsed-tests">
          <summary className="small">
            mass failure: {items.length} tests failing only with it in {cause.runs} runs
          </summary>
          <ul className="plain small">
            {items.map((it) => (
              <li key={it.id}>
                <a href={hrefWith(`/tests/${it.id}`, linkParams)} className="test-link">
                  {it.test}
                </a>{' '}
                <span className="muted">({it.failedRuns} failed)</span>
              </li>
            ))}
          </ul>
        </details>
      </td>
      <td data-label="Verdict">
        <VerdictBadge classification={cause.classification} summary={String(cause.evidence.summary ?? '')} />
      </td>
      <td data-label="Jobs">
        <JobList jobs={cause.jobs} />
      </td>
      <td className="num" data-label="Signatures">
        1
      </td>
      <td data-label="Bugs" className="small">
        {cause.bugs.length ? cause.bugs.map((b) => `${b.tracker} ${b.id}`).join(', ') : <span className="muted">none</span>}
      </td>
    </tr>
  );
}

function TestRow({ it, linkParams }: { it: HotlistItem; linkParams: Record<string, string | undefined> }) {
  return (
            <tr data-test-id={it.id}>
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
                {it.signatures[0] ? (
                  <a href={signatureHref(it.signatures[0].id, linkParams)} title={it.signatures[0].text.split('\n')[0]}>
                    {it.signaturesCount}
                  </a>
                ) : (
                  it.signaturesCount
                )}
              </td>
              <td data-label="Bugs">
                <BugLinks bugs={it.bugs} />
              </td>
            </tr>
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
