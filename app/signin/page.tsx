// Sign in with the admin token (BUILDCOP_ADMIN_TOKEN) to link and unlink bugs from the test pages.
// The form posts to /api/auth, which sets an HttpOnly, SameSite=Strict session cookie.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { SESSION_COOKIE, validSession, writesEnabled } from '@/lib/server/auth';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

const ERRORS: Record<string, string> = {
  invalid: 'That token is not right.',
  disabled: 'Writes are disabled on this server (BUILDCOP_ADMIN_TOKEN is not set).',
};

function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const next = safeNext(Array.isArray(sp.next) ? sp.next[0] : sp.next);
  const error = ERRORS[String(sp.error ?? '')];
  const signedIn = validSession((await cookies()).get(SESSION_COOKIE)?.value);
  return (
    <>
      <h1>Sign in</h1>
      {error ? (
        <p role="alert" className="notice error">
          {error}
        </p>
      ) : null}
      {!writesEnabled() ? (
        <p>Linking and unlinking bugs is disabled on this server: set BUILDCOP_ADMIN_TOKEN to enable it.</p>
      ) : signedIn ? (
        <form method="post" action="/api/auth">
          <p>You are signed in and can link and unlink bugs on the test pages.</p>
          <input type="hidden" name="action" value="signout" />
          <input type="hidden" name="next" value={next} />
          <button type="submit">Sign out</button> <a href={next}>Back</a>
        </form>
      ) : (
        <form method="post" action="/api/auth">
          <p>Linking and unlinking bugs needs the admin token of this server.</p>
          <label htmlFor="token">Admin token</label>{' '}
          <input id="token" name="token" type="password" required autoComplete="current-password" autoFocus />
          <input type="hidden" name="next" value={next} />{' '}
          <button type="submit">Sign in</button>
        </form>
      )}
    </>
  );
}
