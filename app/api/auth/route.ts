// Sign-in for the UI. GET: { signedIn, writesEnabled }. POST with the admin token (JSON {"token"}
// or the sign-in form) sets the HttpOnly, SameSite=Strict session cookie; POST action=signout or
// DELETE clears it. Forms get a 303 back to the page they came from; JSON callers get JSON.
import type { NextRequest } from 'next/server';
import { json } from '@/lib/server/api';
import { clearedSessionCookie, newSession, sessionCookie, tokenMatches, validSession, writesEnabled, SESSION_COOKIE } from '@/lib/server/auth';

export const dynamic = 'force-dynamic';

/** only paths of this site: "/tests/abc?at=..." yes, "//evil.example" or "https://..." no */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/';
}

function redirect(to: string, cookie?: string): Response {
  return new Response(null, { status: 303, headers: { location: to, 'cache-control': 'no-store', ...(cookie ? { 'set-cookie': cookie } : {}) } });
}

export async function GET(req: NextRequest) {
  return json({ signedIn: validSession(req.cookies.get(SESSION_COOKIE)?.value), writesEnabled: writesEnabled() });
}

export async function POST(req: NextRequest) {
  const isForm = (req.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded') || (req.headers.get('content-type') ?? '').includes('multipart/form-data');
  let token = '';
  let next = '/';
  let action = 'signin';
  try {
    if (isForm) {
      const form = await req.formData();
      token = String(form.get('token') ?? '');
      next = safeNext(form.get('next'));
      action = String(form.get('action') ?? 'signin');
    } else {
      const body = (await req.json()) as { token?: unknown; action?: unknown };
      token = typeof body.token === 'string' ? body.token : '';
      action = typeof body.action === 'string' ? body.action : 'signin';
    }
  } catch {
    return json({ error: 'send {"token": "..."} as JSON or the sign-in form' }, 400);
  }
  if (action === 'signout') return isForm ? redirect(next, clearedSessionCookie(req)) : json({ signedIn: false }, 200, { 'set-cookie': clearedSessionCookie(req) });
  if (!writesEnabled()) {
    return isForm ? redirect(`/signin?error=disabled&next=${encodeURIComponent(next)}`) : json({ error: 'writes are disabled: BUILDCOP_ADMIN_TOKEN is not set on the server' }, 401);
  }
  if (!token || token.length > 4096 || !tokenMatches(token)) {
    // a little friction for guessing; the comparison itself is constant-time
    await new Promise((r) => setTimeout(r, 250));
    return isForm ? redirect(`/signin?error=invalid&next=${encodeURIComponent(next)}`) : json({ error: 'invalid token' }, 401);
  }
  const cookie = sessionCookie(req, newSession()!);
  return isForm ? redirect(next, cookie) : json({ signedIn: true }, 200, { 'set-cookie': cookie });
}

export async function DELETE(req: NextRequest) {
  return json({ signedIn: false }, 200, { 'set-cookie': clearedSessionCookie(req) });
}
