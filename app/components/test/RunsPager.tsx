// Where a page of a test's failed and flaked runs sits in the window, and the links to the newest
// and the older ones. The links are the test's permanent link (`at` pinned to the page's end), so
// "older" stays older while runs arrive.
import { testPermalink } from '@/lib/answers/testComment';
import { shortTime } from '../format';

interface Props {
  test: { id: string; window: string; to: string };
  job?: string;
  /** this page's `before`, when it is not the first */
  before?: string;
  shown: number;
  total: number;
  /** `before` of the next page, when there is one */
  next: string | null;
}

export default function RunsPager({ test, job, before, shown, total, next }: Props) {
  if (!before && !next) return null;
  const href = (b?: string) => `${testPermalink('', test, job)}${b ? `&before=${encodeURIComponent(b)}` : ''}#runs-h`;
  return (
    <nav className="pager small" aria-label="Pages of failed and flaked runs">
      <span className="muted">
        {shown} of {total} runs{before ? `, started before ${shortTime(before)}` : ', the newest'}
      </span>
      {before && (
        <>
          {' · '}
          <a href={href()}>Newest runs</a>
        </>
      )}
      {next && (
        <>
          {' · '}
          <a href={href(next)} rel="next">
            Older runs
          </a>
        </>
      )}
    </nav>
  );
}
