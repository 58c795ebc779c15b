// The page Content-Security-Policy with a fresh nonce per request (Next.js 16 "proxy", formerly
// middleware). Next reads the nonce from the request's CSP header and puts it on its own scripts,
// so no script without it runs: an injected <script> or inline handler in a test name is inert even
// if some rendering path ever emitted markup (React already renders untrusted strings as text).
// Pages of a database that cannot be reached answer 503 from here (lib/server/databaseProbe.ts).
import { NextResponse, type NextRequest } from 'next/server';
import { databaseUnavailable } from '@/lib/server/databaseProbe';

function contentSecurityPolicy(nonce: string, dev = process.env.NODE_ENV === 'development'): string {
  return [
    "default-src 'self'",
    // React's development build needs eval for error overlays; production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // <style>/<link> elements: ours or nonce-carrying ones only. Style *attributes* are allowed:
    // server-rendered markup carries style="" for chart sizes, Recharts' wrappers and React's own
    // hydration, and a nonce cannot apply to attributes. Inline styles cannot run script, so the
    // remaining risk is CSS-based defacement, which React's text escaping already prevents.
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** True when a path's percent-encoding cannot be decoded (`%GG`, a lone `%`, bytes that are not UTF-8). */
function malformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

const MALFORMED = 'the address is not well formed: a % not followed by two hex digits, or bytes that are not UTF-8';

const UNAVAILABLE = 'The database cannot be reached right now; this page will be back when it is. Try again in a minute.';

/** Static assets: their own fixed headers, and nothing to render. */
const ASSET = /^\/(_next\/static|_next\/image|favicon\.ico|icon\.svg|robots\.txt)(\/|$)/;

// Every request passes here, prefetches included: a `Purpose: prefetch` or `Next-Router-Prefetch`
// header once skipped it (no CSP, and a 500 for a malformed address), and any client can send them.
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const api = pathname.startsWith('/api/');
  // Next's own router fails on such a path after this proxy, with a 500 (vercel/next.js#92527)
  if (malformedPath(pathname)) {
    return api
      ? NextResponse.json({ error: MALFORMED }, { status: 400, headers: { 'cache-control': 'no-store' } })
      : new NextResponse(`Bad request: ${MALFORMED}.\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  if (api || ASSET.test(pathname)) return NextResponse.next(); // the API's and the assets' fixed headers come from next.config.js
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const csp = contentSecurityPolicy(nonce);
  if (await databaseUnavailable()) {
    return new NextResponse(`<!doctype html><html lang="en"><title>buildcop: database unavailable</title><p>${UNAVAILABLE}</p></html>\n`, {
      status: 503,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '30', 'content-security-policy': csp },
    });
  }
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  matcher: [
    // Every path, assets included, but the sign-in route: a request the proxy sees has its whole
    // body read and buffered by Next.js before the route runs (up to 10 MB), which is what that
    // route bounds in count, size and time (app/api/auth/route.ts). Its one path is well formed.
    '/((?!api/auth$).*)',
  ],
};
