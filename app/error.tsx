'use client';
// Unexpected errors (a database that cannot be read, a bug): say so plainly, offer a retry.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert">
      <h1>Something went wrong</h1>
      <p>The page could not be rendered. The server log has the details{error.digest ? ` (reference ${error.digest})` : ''}.</p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </p>
    </div>
  );
}
