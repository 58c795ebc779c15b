// A test's failure signatures: the normalised text, how often in the window and overall, how many
// tests share it (a cross-test cause), when first and last seen, and example runs.
import type { TestDetailResult } from '@/lib/answers/testDetail';
import { safeUrl, shortTime } from '../format';

export default function SignaturesList({ signatures }: { signatures: TestDetailResult['signatures'] }) {
  if (!signatures.length) return <p className="muted">No failure text recorded for this test.</p>;
  return (
    <div className="table-wrap">
      <table className="cards">
        <caption className="visually-hidden">Failure signatures of the test</caption>
        <thead>
          <tr>
            <th scope="col">Failure text (normalised)</th>
            <th scope="col" className="num">In window</th>
            <th scope="col" className="num">All time</th>
            <th scope="col" className="num">Tests</th>
            <th scope="col">Seen</th>
            <th scope="col">Example runs</th>
          </tr>
        </thead>
        <tbody>
          {signatures.map((s) => (
            <tr key={s.id}>
              <td className="test">
                <pre className="failure-text">{s.text}</pre>
                <a className="meta mono" href={`/signatures/${s.id}`}>
                  signature {s.id}
                </a>
              </td>
              <td className="num" data-label="In window">{s.count}</td>
              <td className="num" data-label="All time">{s.total}</td>
              <td className="num" data-label="Tests">
                <span title={s.tests > 1 ? 'shared with other tests: likely one cause failing several tests' : undefined}>{s.tests}</span>
              </td>
              <td className="small nowrap" data-label="Seen">
                {shortTime(s.firstSeen)}
                <br />
                {shortTime(s.lastSeen)}
              </td>
              <td className="small" data-label="Example runs">
                {s.exampleRuns.length ? (
                  <ul className="plain">
                    {s.exampleRuns.map((u) => (
                      <li key={u}>
                        <a href={safeUrl(u)}>{u.replace(/^.*\/([^/]+\/[^/]+)\/?$/, '$1')}</a>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">none in the window</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
