'use client';
// "Copy as bug comment": puts the prepared text on the clipboard in the chosen tracker's format (a
// chooser when several trackers are configured); the text is also shown in a disclosure so it can
// be copied by hand where the Clipboard API is not available (plain http).
import { useState } from 'react';
import { useAbsoluteUrl } from '../useAbsoluteUrl';

export interface BugCommentText {
  tracker: string;
  label: string;
  format: string;
  text: string;
}

/** `permalink`: the page's permanent link as the texts hold it, made absolute here when it is relative */
export default function CopyBugComment({ comments, permalink }: { comments: BugCommentText[]; permalink: string }) {
  const absolute = useAbsoluteUrl(permalink);
  const [chosen, setChosen] = useState(0);
  const [status, setStatus] = useState('');
  const prepared = comments[chosen] ?? comments[0];
  if (!prepared) return null;
  const comment = absolute === permalink ? prepared : { ...prepared, text: prepared.text.replaceAll(permalink, absolute) };
  async function copy() {
    try {
      await navigator.clipboard.writeText(comment.text);
      setStatus(`Copied for ${comment.label} (${comment.format}).`);
    } catch {
      setStatus('The browser did not allow copying: select the text below and copy it.');
    }
  }
  return (
    <div className="copy-comment">
      <div className="actions">
        {comments.length > 1 && (
          <label className="small">
            Format for{' '}
            <select value={chosen} onChange={(e) => (setChosen(Number(e.target.value)), setStatus(''))} data-testid="bug-comment-tracker">
              {comments.map((c, i) => (
                <option key={c.tracker} value={i}>
                  {c.label} ({c.format})
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" onClick={copy} data-testid="copy-bug-comment">
          Copy as bug comment
        </button>
        <span role="status" aria-live="polite" className="small muted">
          {status}
        </span>
      </div>
      <details>
        <summary className="small">Show the comment ({comment.label}, {comment.format})</summary>
        <textarea readOnly value={comment.text} rows={12} className="mono" aria-label={`Bug comment for ${comment.label} (${comment.format})`} data-testid="bug-comment-text" />
      </details>
    </div>
  );
}
