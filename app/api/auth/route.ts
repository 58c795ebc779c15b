// Sign-in for the UI. GET: { signedIn, writesEnabled }. POST with the admin token (JSON {"token"}
// or the sign-in form) sets the HttpOnly, SameSite=Strict session cookie; POST action=signout or
// DELETE clears it. Forms get a 303 back to the page they came from; JSON callers get JSON. Attempts
// are limited per client (429 with Retry-After: lib/server/signInLimit.ts), and bodies in count, size
// and time (lib/server/cappedBody.ts).
import type { NextRequest } from 'next/server';
import { json } from '@/lib/server/api';
import { clearedSessionCookie, newSession, sessionCookie, tokenMatches, validSession, writesEnabled, SESSION_COOKIE } from '@/lib/server/auth';
import { BodyError, readCappedBody } from '@/lib/server/cappedBody';
import { clientAddress } from '@/lib/server/clientAddress';
import { signInSucceeded, takeSignInAttempt, tooManyAttempts } from '@/lib/server/signInLimit';

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

/** Bodies of sign-in requests being read at once, for every client together (see readCappedBody). */
const BODIES = { inUse: 0, max: 16 };
const BODY_LIMITS = { slots: BODIES, maxBytes: 8 * 1024, timeoutMs: 10_000 };

interface SignInRequest {
  token: string;
  next: string;
  action: string;
}

async function readSignIn(req: NextRequest, isForm: boolean): Promise<SignInRequest> {
  const bytes = await readCappedBody(req, BODY_LIMITS);
  if (isForm) {
    const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': req.headers.get('content-type')! } }).formData();
    return { token: String(form.get('token') ?? ''), next: safeNext(form.get('next')), action: String(form.get('action') ?? 'signin') };
  }
  const body = JSON.parse(bytes.toString('utf8')) as { token?: unknown; action?: unknown };
  return { token: typeof body.token === 'string' ? body.token : '', next: '/', action: typeof body.action === 'string' ? body.action : 'signin' };
}

export async function POST(req: NextRequest) {
  const type = req.headers.get('content-type') ?? '';
  const isForm = type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data');
  let request: SignInRequest;
  try {
    request = await readSignIn(req, isForm);
  } catch (e) {
    if (e instanceof BodyError) return json({ error: e.message }, e.status, e.status === 503 ? { 'retry-after': '1' } : {});
    return json({ error: 'send {"token": "..."} as JSON or the sign-in form' }, 400);
  }
  const { token, next, action } = request;
  if (action === 'signout') return isForm ? redirect(next, clearedSessionCookie(req)) : json({ signedIn: false }, 200, { 'set-cookie': clearedSessionCookie(req) });
  if (!writesEnabled()) {
    return isForm ? redirect(`/signin?error=disabled&next=${encodeURIComponent(next)}`) : json({ error: 'writes are disabled: BUILDCOP_ADMIN_TOKEN is not set on the server' }, 401);
  }
  const client = clientAddress(req);
  const wait = takeSignInAttempt(client);
  if (wait) return json({ error: tooManyAttempts(wait) }, 429, { 'retry-after': String(wait) });
  if (!token || token.length > 4096 || !tokenMatches(token)) {
    // a little friction for guessing on top of the limit; the comparison itself is constant-time
    await new Promise((r) => setTimeout(r, 250));
    return isForm ? redirect(`/signin?error=invalid&next=${encodeURIComponent(next)}`) : json({ error: 'invalid token' }, 401);
  }
  signInSucceeded(client);
  const cookie = sessionCookie(req, newSession()!);
  return isForm ? redirect(next, cookie) : json({ signedIn: true }, 200, { 'set-cookie': cookie });
}

export async function DELETE(req: NextRequest) {
  return json({ signedIn: false }, 200, { 'set-cookie': clearedSessionCookie(req) });
}
