// Issue 18's rows on headers and links, against `next start` over loopback: the CSP and the
// percent-encoding guard on every request (prefetches too); links that never carry a forged Host;
// 500 bodies without internals; pages that answer 503 when the database is down.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testId } from '../lib/ids';
import { sampleWorld } from '../tests/helpers/world';
import { launchChromium, newPage } from './support/browser';
import { rawRequest } from './support/rawHttp';
import { END_ISO, startNext, type NextServer } from './support/server';

const baseUrl = inject('baseUrl');
const dbUrl = inject('dbUrl');
const configFile = inject('configFile');
let testPage: string;

beforeAll(async () => {
  testPage = `/tests/${testId((await sampleWorld()).truth.scenarios.top.test as string)}?at=${encodeURIComponent(END_ISO)}`;
});

const meta = (html: string, property: string) => new RegExp(`<meta (property|name)="${property}"[^>]*content="([^"]*)"`).exec(html)?.[2];

describe('prefetch requests pass the proxy like any other', () => {
  const prefetches: Record<string, string>[] = [{ purpose: 'prefetch' }, { 'next-router-prefetch': '1' }, { 'next-router-prefetch': '1', purpose: 'prefetch' }];
  it.each(prefetches)('%o: the page has its nonce CSP, and /jobs/%GG answers 400', async (headers) => {
    const page = await rawRequest(baseUrl, '/jobs', { headers });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    const bad = await rawRequest(baseUrl, '/jobs/%GG', { headers });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/not well formed/);
  });
});

describe('links without BUILDCOP_PUBLIC_URL', () => {
  const forged: Record<string, string>[] = [{ host: 'evil.example' }, { 'x-forwarded-host': 'evil.example' }, { host: 'evil.example', 'x-forwarded-host': 'evil.example:8443', 'x-forwarded-proto': 'https' }];

  it.each(forged)('without BUILDCOP_ALLOWED_HOSTS, %o reaches no link: links are relative, no OpenGraph URL', async (headers) => {
    const r = await rawRequest(baseUrl, testPage, { headers });
    expect(r.status).toBe(200);
    expect(r.body).not.toContain('evil.example');
    expect(r.body).toMatch(/Permanent link: <a href="\/tests\/[0-9a-f]{16}\?at=/);
    expect(r.body).toMatch(/Details \(a permanent link\): \/tests\/[0-9a-f]{16}\?at=/); // the bug comment, until the browser completes it
    expect(meta(r.body, 'og:url')).toBeUndefined();
    expect(meta(r.body, 'og:image')).toBeUndefined();
    expect(meta(r.body, 'og:title')).toBeTruthy(); // the tags without a URL stay
  });

  describe('with BUILDCOP_ALLOWED_HOSTS', () => {
    let server: NextServer;
    beforeAll(async () => {
      server = await startNext({ dbUrl, configFile, env: { BUILDCOP_ALLOWED_HOSTS: 'dashboard.example, ci.example:8443' } });
    }, 120_000);
    afterAll(async () => server?.stop());

    it('an allowed host makes the links and the OpenGraph URLs absolute', async () => {
      const r = await rawRequest(server.baseUrl, testPage, { headers: { host: 'dashboard.example' } });
      expect(r.body).toMatch(/Permanent link: <a href="http:\/\/dashboard\.example\/tests\/[0-9a-f]{16}\?at=/);
      expect(meta(r.body, 'og:url')).toMatch(/^http:\/\/dashboard\.example\/tests\/[0-9a-f]{16}\?at=/);
      expect(meta(r.body, 'og:image')).toMatch(/^http:\/\/dashboard\.example\/tests\/[0-9a-f]{16}\/og\?/);
      const proxied = await rawRequest(server.baseUrl, testPage, { headers: { host: '127.0.0.1', 'x-forwarded-host': 'ci.example:8443', 'x-forwarded-proto': 'https' } });
      expect(meta(proxied.body, 'og:url')).toMatch(/^https:\/\/ci\.example:8443\/tests\//);
    });

    it.each<Record<string, string>>([{ host: 'evil.example' }, { host: 'dashboard.example', 'x-forwarded-host': 'evil.example' }, { host: 'ci.example:9999' }, { host: 'dashboard.example.evil.example' }])(
      'a host not allowed, %o, reaches no link',
      async (headers) => {
        const r = await rawRequest(server.baseUrl, testPage, { headers });
        expect(r.body).not.toMatch(/evil\.example|ci\.example:9999/);
        expect(r.body).toMatch(/Permanent link: <a href="\/tests\//);
        expect(meta(r.body, 'og:url')).toBeUndefined();
      },
    );
  });

  describe('in the browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    it('completes the relative links it was given with the address it is at: the permanent link, the file-a-bug forms', async () => {
      const { page, errors } = await newPage(browser);
      await page.goto(`${baseUrl}${testPage}`);
      const permalink = page.locator('.verdict a[href^="/tests/"]');
      await expect.poll(() => permalink.innerText()).toMatch(new RegExp(`^${baseUrl}/tests/[0-9a-f]{16}\\?at=`));
      const jira = await page.locator('[data-testid="bugs-panel"] a[data-tracker="jira"]').getAttribute('href');
      expect(new URL(jira!).searchParams.get('description')).toContain(`Dashboard: ${baseUrl}/tests/`);
      expect(errors.filter((e) => /hydrat|Content Security Policy/i.test(e))).toEqual([]);
      await page.context().close();
    });
  });
});

describe('500 bodies carry no internals', () => {
  let server: NextServer;
  let dir: string;
  beforeAll(async () => {
    // a database whose schema lost a table: every hot list query fails with SQL in its message
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-e2e-500-'));
    const file = path.join(dir, 'broken.db');
    const source = new BetterSqlite3(dbUrl.replace(/^file:/, ''), { readonly: true });
    await source.backup(file);
    source.close();
    const broken = new BetterSqlite3(file);
    broken.exec('ALTER TABLE test_outcome RENAME TO test_outcome_gone');
    broken.close();
    server = await startNext({ dbUrl: `file:${file}`, configFile });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the API answers 500 with an id; the server log has the detail under that id', async () => {
    const r = await fetch(`${server.baseUrl}/api/hotlist?at=${encodeURIComponent(END_ISO)}`);
    expect(r.status).toBe(500);
    const text = await r.text();
    const body = JSON.parse(text) as { error: string; id: string; detail: string };
    expect(body).toEqual({ error: 'internal error', id: expect.stringMatching(/^[0-9a-f]{12}$/), detail: `logged on the server as ${body.id}` });
    expect(text).not.toMatch(/test_outcome|SELECT|no such table|at \w+ \(/);
    await expect.poll(() => server.log()).toMatch(new RegExp(`internal error ${body.id}:[\\s\\S]*no such table: test_outcome`));
  });
});

describe('pages when the database is down', () => {
  let server: NextServer;
  beforeAll(async () => {
    // nothing listens on port 1
    server = await startNext({ dbUrl: 'postgresql://postgres@127.0.0.1:1/buildcop', configFile, anyAnswer: true });
  }, 120_000);
  afterAll(async () => server?.stop());

  it.each(['/', '/jobs', 'the test page', '/ingest'])('%s answers 503 with Retry-After and its CSP, as the API does', async (route) => {
    const r = await fetch(`${server.baseUrl}${route.startsWith('/') ? route : testPage}`);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('30');
    expect(r.headers.get('content-security-policy')).toMatch(/'nonce-/);
    expect(await r.text()).toMatch(/database cannot be reached/);
    const api = await fetch(`${server.baseUrl}/api/health`);
    expect([api.status, api.headers.get('retry-after')]).toEqual([503, '30']);
  });
});
