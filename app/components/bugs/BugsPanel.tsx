// The bugs of a test on its page: each linked bug with why it is linked and its status, flagged when
// it was closed but the test failed after that; "file a bug" links to the configured trackers'
// new-bug forms, prefilled; link and unlink forms for whoever signed in.
import { cookies } from 'next/headers';
import type { BugRef } from '@/lib/bugs/refs';
import { newBugLinks } from '@/lib/bugs/fileBug';
import { SESSION_COOKIE, validSession, writesEnabled } from '@/lib/server/auth';
import { getConfig } from '@/lib/server/context';
import { isClosedStatus } from '@/lib/sources/trackerBug';
import { BugLinkForm, BugUnlinkButton } from './BugLinkForm';
import FileBugLinks from './FileBugLinks';
import styles from './bugs.module.css';

export interface BugsPanelProps {
  testId: string;
  testName: string;
  bugs: BugRef[];
  classification: string;
  evidenceSummary: string;
  /** permanent link of the test page (?at=...); relative without a trusted origin */
  permalink: string;
}

const TRACKER_NAMES: Record<string, string> = { bugzilla: 'Bugzilla', jira: 'Jira', github: 'GitHub' };

const REASONS: Record<string, string> = {
  'name-in-summary': 'test name in the summary',
  'name-in-description': 'test name in the description',
  'name-in-comment': 'test name in a comment',
  signature: 'quotes a failure signature',
  manual: 'linked by hand',
};

export default async function BugsPanel({ testId, testName, bugs, classification, evidenceSummary, permalink }: BugsPanelProps) {
  const signedIn = validSession((await cookies()).get(SESSION_COOKIE)?.value);
  const canWrite = writesEnabled();
  const fileLinks = newBugLinks(getConfig(), { testName, classification, evidenceSummary, permalink });
  return (
    <section className={styles.panel} aria-labelledby="bugs-heading" data-testid="bugs-panel">
      <h2 id="bugs-heading">Bugs</h2>
      {bugs.length ? (
        <ul className={styles.list}>
          {bugs.map((b) => (
            <li key={`${b.tracker}:${b.id}`} className={styles.item} data-bug={`${b.tracker}:${b.id}`}>
              <a className={styles.id} href={b.url} target="_blank" rel="noopener noreferrer">
                {TRACKER_NAMES[b.tracker] ?? b.tracker} {b.id}
              </a>
              <span className={`${styles.status} ${isClosedStatus(b.status) ? styles.closed : ''}`}>{b.status || 'unknown'}</span>
              <span className={styles.summary}>{b.summary || '(not fetched yet)'}</span>
              <span className={styles.reason}>{REASONS[b.reason] ?? b.reason}</span>
              {b.recurred ? (
                <strong className={styles.recurred} title={b.closedAt ? `closed ${b.closedAt}; the test failed after that` : undefined}>
                  recurred after fix
                </strong>
              ) : null}
              {signedIn ? (
                <BugUnlinkButton testId={testId} tracker={b.tracker} bugId={b.id} label={`Unlink ${TRACKER_NAMES[b.tracker] ?? b.tracker} ${b.id}`} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>No bug linked yet.</p>
      )}
      {fileLinks.length ? <FileBugLinks links={fileLinks} permalink={permalink} className={styles.fileBug} /> : null}
      {signedIn ? (
        <BugLinkForm testId={testId} />
      ) : canWrite ? (
        <p className={styles.signin}>
          <a href={`/signin?next=${encodeURIComponent(`/tests/${testId}`)}`}>Sign in</a> to link or unlink bugs.
        </p>
      ) : null}
    </section>
  );
}
