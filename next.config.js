// Next.js configuration. Security headers live here (static ones) and in proxy.ts (the page
// Content-Security-Policy, which carries a fresh nonce per request and so cannot be static).

/** Headers every response gets. */
const SECURITY_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // Links out to Prow and GCS carry only the origin, never the dashboard's query strings.
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  // Legacy twin of CSP frame-ancestors 'none' for older browsers and proxies.
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native drivers stay out of the server bundle; Node loads them at run time.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', 'pg', '@prisma/adapter-pg', 're2', 'esbuild'],
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [
      { source: '/:path*', headers: SECURITY_HEADERS },
      // The JSON API and the OG images render no HTML: nothing may run or load from them. (Pages get
      // their nonce-based policy from proxy.ts; two CSP headers would both be enforced.)
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" }] },
    ];
  },
};

export default nextConfig;
