// The page frame: skip link, navigation, quick search. Every page renders per request (the CSP nonce
// from proxy.ts is per request, and the data changes with each ingest). Plain <a> links throughout:
// the pages are server-rendered anyway, and next/link would add client JavaScript for little gain.
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { requestOrigin } from './components/origin';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const origin = await requestOrigin();
  return {
    // without a trusted origin, pages carry no absolute URLs (see the test page's OpenGraph tags)
    ...(origin ? { metadataBase: new URL(origin) } : {}),
    title: { default: 'buildcop', template: '%s · buildcop' },
    description: 'Which CI tests fail most right now, flake or regression, with the evidence, the bugs and the promotion blockers.',
    applicationName: 'buildcop',
    robots: { index: false, follow: false },
  };
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  colorScheme: 'light dark',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <nav aria-label="Main" className="site-nav">
            <a href="/" className="brand">
              buildcop
            </a>
            <a href="/">Hot list</a>
            <a href="/jobs">Jobs</a>
            <a href="/search">Search</a>
            <a href="/promotion">Promotion</a>
            <a href="/ingest">Ingest</a>
          </nav>
          <form action="/search" method="get" role="search" className="quick-search">
            <label htmlFor="quick-q" className="visually-hidden">
              Search failures (regular expression)
            </label>
            <input id="quick-q" name="q" type="search" placeholder="Search failures (regex)" autoComplete="off" spellCheck={false} />
          </form>
        </header>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <footer className="site-footer">
          JSON API: <a href="/api/openapi.json">/api/openapi.json</a> · CLI: <code>npx buildcop --help</code>
        </footer>
      </body>
    </html>
  );
}
