// The bugs of a test on its page. (Owned by the bug-linking work: link/unlink, "file a bug".)
import type { BugRef } from '@/lib/analysis/bugRefs';

export interface BugsPanelProps {
  testId: string;
  testName: string;
  bugs: BugRef[];
  classification: string;
  evidenceSummary: string;
  /** absolute permanent link of the test page (?at=...) */
  permalink: string;
}

export default function BugsPanel({ bugs }: BugsPanelProps) {
  if (!bugs.length) return <p>No bug linked yet.</p>;
  return (
    <ul>
      {bugs.map((b) => (
        <li key={`${b.tracker}:${b.id}`}>
          <a href={b.url}>
            {b.tracker} {b.id}
          </a>{' '}
          [{b.status}] {b.summary} ({b.reason})
        </li>
      ))}
    </ul>
  );
}
