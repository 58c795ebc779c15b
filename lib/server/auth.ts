// Who may change links: whoever holds BUILDCOP_ADMIN_TOKEN. The API takes it as
// `Authorization: Bearer <token>`; the UI gets an HttpOnly, SameSite=Strict session cookie from the
// sign-in form (an expiry and an HMAC keyed by the token, so the token itself is never stored in the
// browser and changing it signs everyone out). Without the variable, writes are disabled.
import crypto from 'node:crypto';
import { clientAddress } from './clientAddress';
import { signInSucceeded, takeSignInAttempt, tooManyAttempts } from './signInLimit';

export const SESSION_COOKIE = 'buildcop_session';
export const SESSION_SECONDS = 7 * 86_400;

/** Shorter tokens are refused: a token is guessed online at best, and 32 characters leave no hope. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** What is wrong with BUILDCOP_ADMIN_TOKEN, checked at start by the server and the CLI; undefined when unset or fine. */
export function adminTokenProblem(token = process.env.BUILDCOP_ADMIN_TOKEN): string | undefined {
  if (!token || token.length >= MIN_ADMIN_TOKEN_LENGTH) return undefined;
  return `BUILDCOP_ADMIN_TOKEN is ${token.length} character${token.length === 1 ? '' : 's'} long: use at least ${MIN_ADMIN_TOKEN_LENGTH} (for example \`openssl rand -hex 32\`), or leave it unset to disable writes`;
}

/** The admin token; never a short one (the server refuses to start with it: see adminTokenProblem). */
export function adminToken(): string | undefined {
  const t = process.env.BUILDCOP_ADMIN_TOKEN;
  return t && !adminTokenProblem(t) ? t : undefined;
}

export function writesEnabled(): boolean {
  return adminToken() !== undefined;
}

/** Compares in time independent of where the strings differ, and of their lengths. */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a, 'utf8').digest();
  const hb = crypto.createHash('sha256').update(b, 'utf8').digest();
  return crypto.timingSafeEqual(ha, hb);
}

function sign(token: string, expires: number): string {
  return crypto.createHmac('sha256', token).update(`buildcop-session:${expires}`).digest('base64url');
}

/** A session cookie value for the current token, or undefined when writes are disabled. */
export function newSession(nowMs = Date.now()): string | undefined {
  const token = adminToken();
  if (!token) return undefined;
  const expires = Math.floor(nowMs / 1000) + SESSION_SECONDS;
  return `${expires}.${sign(token, expires)}`;
}

export function validSession(value: string | undefined, nowMs = Date.now()): boolean {
  const token = adminToken();
  if (!token || !value) return false;
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires * 1000 <= nowMs) return false;
  return safeEqual(m[2], sign(token, expires));
}

export function tokenMatches(candidate: string): boolean {
  const token = adminToken();
  return !!token && safeEqual(candidate, token);
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

function isHttps(req: Request): boolean {
  return new URL(req.url).protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';
}

export function sessionCookie(req: Request, value: string): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${isHttps(req) ? '; Secure' : ''}`;
}

export function clearedSessionCookie(req: Request): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${isHttps(req) ? '; Secure' : ''}`;
}

/** A request from another site (checked for cookie-authenticated writes, on top of SameSite=Strict). */
function crossSite(req: Request): boolean {
  const origin = req.headers.get('origin');
  if (!origin || origin === 'null') return origin === 'null';
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host') ?? new URL(req.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** refused: `retryAfter` (seconds) when the client made too many attempts with a token */
export type AuthOutcome = { ok: true; via: 'bearer' | 'cookie' } | { ok: false; reason: string; retryAfter?: number };

/** Whether a write request carries the admin token (header) or a valid session (cookie). */
export function authorize(req: Request): AuthOutcome {
  if (!writesEnabled()) return { ok: false, reason: 'writes are disabled: BUILDCOP_ADMIN_TOKEN is not set on the server' };
  const header = req.headers.get('authorization');
  if (header) {
    // a token sent is a sign-in attempt, limited per client as the sign-in form is
    const client = clientAddress(req);
    const wait = takeSignInAttempt(client);
    if (wait) return { ok: false, reason: tooManyAttempts(wait), retryAfter: wait };
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!m || !tokenMatches(m[1])) return { ok: false, reason: 'invalid token' };
    signInSucceeded(client);
    return { ok: true, via: 'bearer' };
  }
  const session = cookie(req, SESSION_COOKIE);
  if (session) {
    if (crossSite(req)) return { ok: false, reason: 'cross-site request' };
    return validSession(session) ? { ok: true, via: 'cookie' } : { ok: false, reason: 'session expired or invalid: sign in again' };
  }
  return { ok: false, reason: 'authentication required: Authorization: Bearer <BUILDCOP_ADMIN_TOKEN>' };
}

/** The answer to a refused write: 401, or 429 with Retry-After after too many attempts. */
export function unauthorized(reason: string, retryAfter?: number): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  if (retryAfter) headers['retry-after'] = String(retryAfter);
  else headers['www-authenticate'] = 'Bearer realm="buildcop"';
  return new Response(`${JSON.stringify({ error: reason }, null, 2)}\n`, { status: retryAfter ? 429 : 401, headers });
}
