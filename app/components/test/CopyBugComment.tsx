'use client';
// "Copy as bug comment": puts the prepared Markdown on the clipboard; the text is also shown in a
// disclosure so it can be copied by hand where the Clipboard API is not available (plain http).
import { useState } from 'react';
import { useAbsoluteUrl } from '../useAbsoluteUrl';

/** `permalink`: the page's permanent link as `markdown` holds it, made absolute here when it is relative */
export default function CopyBugComment({ markdown: rendered, permalink }: { markdown: string; permalink: string }) {
  const absolute = useAbsoluteUrl(permalink);
  const markdown = absolute === permalink ? rendered : rendered.replaceAll(permalink, absolute);
  const [status, setStatus] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(markdown);
      setStatus('Copied to the clipboard.');
    } catch {
      setStatus('The browser did not allow copying: select the text below and copy it.');
    }
  }
  return (
    <div className="copy-comment">
      <div className="actions">
        <button type="button" onClick={copy} data-testid="copy-bug-comment">
          Copy as bug comment
        </button>
        <span role="status" aria-live="polite" className="small muted">
          {status}
        </span>
      </div>
      <details>
        <summary className="small">Show the comment (Markdown)</summary>
        <textarea readOnly value={markdown} rows={12} className="mono" aria-label="Bug comment in Markdown" data-testid="bug-comment-text" />
      </details>
    </div>
  );
}
