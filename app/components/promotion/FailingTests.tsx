// A blocker's failing tests: each links to its test page, with the hot list's verdict and its bugs.
import Link from 'next/link';
import type { FailingTest } from '@/lib/promotion/types';
import BugLinks from '../BugLinks';
import { hrefWith } from '../format';
import VerdictBadge from '../VerdictBadge';

export default function FailingTests({ tests, at }: { tests: FailingTest[]; at?: string }) {
  if (!tests.length) return <span className="muted">none</span>;
  return (
    <ul className="promo-tests" data-testid="failing-tests">
      {tests.map((t) => (
        <li key={t.id ?? t.test} data-testid="failing-test" data-classification={t.classification}>
          {t.id ? (
            <Link href={hrefWith(`/tests/${t.id}`, { at })} prefetch={false} className="testname">
              {t.test}
            </Link>
          ) : (
            <span className="testname">{t.test}</span>
          )}{' '}
          <VerdictBadge classification={t.classification} />
          <span className="meta">
            bugs: <BugLinks bugs={t.bugs} />
          </span>
        </li>
      ))}
    </ul>
  );
}
