// The home page's "Top causes": the day's distinct problems, one line each, ranked by the runs they
// took down; each links to its signature page.
import { headline, type Cause } from '@/lib/answers/causes';
import { hrefWith } from '../format';
import VerdictBadge from '../VerdictBadge';

export function signatureHref(id: string, linkParams: Record<string, string | undefined> = {}): string {
  return hrefWith(`/signatures/${encodeURIComponent(id)}`, linkParams);
}

export default function TopCauses({ causes, total, linkParams }: { causes: Cause[]; total: number; linkParams: Record<string, string | undefined> }) {
  if (!causes.length) return null;
  return (
    <section aria-labelledby="causes-h" className="top-causes">
      <h2 id="causes-h">Top causes</h2>
      <div className="table-wrap">
        <table className="cards causes" data-testid="causes">
          <caption className="visually-hidden">Failure causes of the window, most runs taken down first</caption>
          <thead>
            <tr>
              <th scope="col">Cause</th>
              <th scope="col" className="num">Runs</th>
              <th scope="col" className="num">Tests</th>
              <th scope="col">Verdict</th>
              <th scope="col">Bugs</th>
            </tr>
          </thead>
          <tbody>
            {causes.map((c) => (
              <tr key={c.id} data-cause-id={c.id}>
                <td className="test">
                  <a href={signatureHref(c.id, linkParams)} className="cause-link mono one-line" title={c.text}>
                    {headline(c.text)}
                  </a>
                  <span className="meta">
                    {c.kind !== 'signature' ? `${c.kind} step · ` : ''}
                    {c.mass ? `mass failure: ~${Math.round(c.testsPerRun)} tests a run · ` : ''}
                    {c.jobs.length} {c.jobs.length === 1 ? 'job' : 'jobs'}
                  </span>
                </td>
                <td className="num" data-label="Runs">
                  {c.runs}
                </td>
                <td className="num" data-label="Tests">
                  {c.tests}
                </td>
                <td data-label="Verdict">
                  <VerdictBadge classification={c.classification} summary={String(c.evidence.summary ?? '')} />
                </td>
                <td data-label="Bugs" className="small">
                  {c.bugs.length ? c.bugs.map((b) => `${b.tracker} ${b.id}`).join(', ') : <span className="muted">none</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > causes.length && <p className="small muted">Showing {causes.length} of {total} causes.</p>}
    </section>
  );
}
