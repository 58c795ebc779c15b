// A test's linked bugs in a list cell: tracker id, status, "recurred after fix".
import type { BugRef } from '@/lib/bugs/refs';
import { safeUrl } from './format';

export default function BugLinks({ bugs }: { bugs: BugRef[] }) {
  if (!bugs.length) return <span className="muted" title="no bug linked yet">none</span>;
  return (
    <ul className="plain small">
      {bugs.map((b) => (
        <li key={`${b.tracker}:${b.id}`}>
          <a href={safeUrl(b.url)} title={b.summary} rel="noopener noreferrer">
            {b.tracker === 'github' ? '' : `${b.tracker} `}
            {b.id}
          </a>{' '}
          <span className="muted">{b.status}</span>
          {b.recurred && <span className="mark-recurred"> recurred after fix</span>}
        </li>
      ))}
    </ul>
  );
}
