'use client';
// The link form and the unlink buttons (server actions; they work without JavaScript too).
import { useActionState } from 'react';
import { changeBugLink, type BugActionState } from './actions';
import styles from './bugs.module.css';

const initial: BugActionState = { ok: true, message: '' };

export function BugLinkForm({ testId }: { testId: string }) {
  const [state, action, pending] = useActionState(changeBugLink, initial);
  return (
    <form action={action} className={styles.linkForm} aria-label="Link a bug">
      <input type="hidden" name="op" value="link" />
      <input type="hidden" name="test" value={testId} />
      <label>
        Bug URL or id{' '}
        <input type="text" name="bug" required placeholder="https://bugzilla…/show_bug.cgi?id=…, OCPBUGS-123, owner/repo#123" size={40} autoComplete="off" spellCheck={false} />
      </label>{' '}
      <label>
        Tracker{' '}
        <select name="tracker" defaultValue="">
          <option value="">from the URL or id</option>
          <option value="bugzilla">Bugzilla</option>
          <option value="jira">Jira</option>
          <option value="github">GitHub</option>
        </select>
      </label>{' '}
      <label>
        Signature id (optional){' '}
        <input type="text" name="signature" size={22} autoComplete="off" spellCheck={false} pattern="[0-9a-f]{8,64}" />
      </label>{' '}
      <button type="submit" disabled={pending}>
        Link bug
      </button>
      <Message state={state} />
    </form>
  );
}

export function BugUnlinkButton({ testId, tracker, bugId, signature, label }: { testId: string; tracker: string; bugId: string; signature?: string; label: string }) {
  const [state, action, pending] = useActionState(changeBugLink, initial);
  return (
    <form action={action} className={styles.unlinkForm}>
      <input type="hidden" name="op" value="unlink" />
      <input type="hidden" name="test" value={testId} />
      <input type="hidden" name="tracker" value={tracker} />
      <input type="hidden" name="bug" value={bugId} />
      {signature ? <input type="hidden" name="signature" value={signature} /> : null}
      <button type="submit" disabled={pending} aria-label={label}>
        Unlink
      </button>
      <Message state={state} />
    </form>
  );
}

function Message({ state }: { state: BugActionState }) {
  if (!state.message) return null;
  return (
    <span role={state.ok ? 'status' : 'alert'} className={state.ok ? styles.ok : styles.error}>
      {state.message}
    </span>
  );
}
