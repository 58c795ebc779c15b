// Unknown test id, job or run (and any unknown path).
import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p data-testid="not-found">
        There is no such test, job or run in the ingested data. Test links use the 16-digit id derived from the test&apos;s name, so a test that
        was renamed has a new id; try <a href="/search">searching</a> for part of its name, or go back to the <a href="/">hot list</a>.
      </p>
    </>
  );
}
