// Where a page of a test's failed and flaked runs sits in the window, and the links to the newest
// and the older ones. The links pin `at` to the page's end, so "older" stays older while runs arrive.
import { hrefWith, shortTime } from '../format';

interface Props {
  id: string;
  window: string;
  /** the window's end (ISO) */
  to: string;
  job?: string;
  /** this page's `before`, when it is not the first */
  before?: string;
  shown: number;
  total: number;
  /** `before` of the next page, when there is one */
  next: string | null;
}

export default function RunsPager({ id, window, to, job, before, shown, total, next }: Props) {
  if (!before && !next) return null;
  const href = (b?: string) => hrefWith(`/tests/${id}`, { window: window === '7d' ? undefined : window, at: to, job, before: b });
  return (
    <nav className="pager small" aria-label="Pages of failed and flaked runs">
      <span className="muted">
        {shown} of {total} runs{before ? `, started before ${shortTime(before)}` : ', the newest'}
      </span>
      {before && (
        <>
          {' · '}
          <a href={`${href()}#runs-h`}>Newest runs</a>
        </>
      )}
      {next && (
        <>
          {' · '}
          <a href={`${href(next)}#runs-h`} rel="next">
            Older runs
          </a>
        </>
      )}
    </nav>
  );
}
