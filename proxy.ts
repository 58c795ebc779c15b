// The page Content-Security-Policy with a fresh nonce per request (Next.js 16 "proxy", formerly
// middleware). Next reads the nonce from the request's CSP header and puts it on its own scripts,
// so no script without it runs: an injected <script> or inline handler in a test name is inert even
// if some rendering path ever emitted markup (React already renders untrusted strings as text).
import { NextResponse, type NextRequest } from 'next/server';

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

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const api = pathname.startsWith('/api/');
  // Next's own router fails on such a path after this proxy, with a 500 (vercel/next.js#92527)
  if (malformedPath(pathname)) {
    return api
      ? NextResponse.json({ error: MALFORMED }, { status: 400, headers: { 'cache-control': 'no-store' } })
      : new NextResponse(`Bad request: ${MALFORMED}.\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  if (api) return NextResponse.next(); // the API's fixed headers come from next.config.js
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const csp = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  matcher: [
    // the API only for the check above
    '/api/:path*',
    {
      // Pages only: the API and static assets have their own fixed headers (next.config.js).
      source: '/((?!api/|_next/static|_next/image|favicon.ico|robots.txt).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
