// A run's failed or flaked tests with their failure text and the junit file that held it.
import type { RunDetail } from '@/lib/answers/runDetail';
import { safeUrl } from './format';

export default function RunTestsTable({ tests, caption, testId }: { tests: RunDetail['failedTests']; caption: string; testId: string }) {
  return (
    <div className="table-wrap">
      <table className="cards" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Test</th>
            <th scope="col">Failure</th>
          </tr>
        </thead>
        <tbody>
          {tests.map((t) => (
            <tr key={t.id}>
              <td className="test">
                <a href={`/tests/${t.id}`}>
                  {t.test}
                </a>
                {t.signature && (
                  <a className="meta mono" href={`/signatures/${t.signature.id}`}>
                    signature {t.signature.id}
                  </a>
                )}
                {safeUrl(t.junitUrl) && (
                  <a className="meta small" href={safeUrl(t.junitUrl)} data-testid="junit-link">
                    {t.junit?.split('/').pop()}
                  </a>
                )}
              </td>
              <td className="test" data-label="Failure">
                <pre className="failure-text">{t.message || '(no message)'}</pre>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
