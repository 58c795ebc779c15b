// Issue 18's rows on sign-in, against `next start` over loopback: a short admin token is refused at
// start (server and CLI); guesses are limited per client (429 with Retry-After), whatever headers
// the client forges; sign-in bodies are capped in count and size.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testId } from '../lib/ids';
import { sampleWorld } from '../tests/helpers/world';
import { rawRequest, stalledBody } from './support/rawHttp';
import { ROOT, startNext, type NextServer } from './support/server';

const dbUrl = inject('dbUrl');
const configFile = inject('configFile');
const TOKEN = crypto.randomBytes(24).toString('hex');
const run = promisify(execFile);

const signIn = (server: NextServer, token: string, headers: Record<string, string> = {}) =>
  rawRequest(server.baseUrl, '/api/auth', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ token }) });

describe('admin tokens shorter than 32 characters are refused at start', () => {
  it.each(['x', 'a'.repeat(31)])('the server does not start with a %s-long token, and says why', async (token) => {
    const failed = await startNext({ dbUrl, configFile, env: { BUILDCOP_ADMIN_TOKEN: token } }).then(
      async (s) => (await s.stop(), 'it started'),
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/^next start exited with 1/);
    expect(failed).toContain(`refusing to start: BUILDCOP_ADMIN_TOKEN is ${token.length} character`);
    expect(failed).toContain('use at least 32');
  });

  it('the CLI refuses it too, before doing anything', async () => {
    const r = await run(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'stats', '--db', dbUrl], { env: { ...process.env, BUILDCOP_ADMIN_TOKEN: 'x' } }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^buildcop stats: BUILDCOP_ADMIN_TOKEN is 1 character long: use at least 32/);
  });
});

describe('sign-in attempts per client', () => {
  let server: NextServer;
  let proxied: NextServer;
  let bugsRoute: string;
  beforeAll(async () => {
    bugsRoute = `/api/tests/${testId((await sampleWorld()).truth.scenarios.top.test as string)}/bugs`;
    server = await startNext({ dbUrl, configFile, env: { BUILDCOP_ADMIN_TOKEN: TOKEN } });
    // behind a reverse proxy on loopback: the client is the address the proxy gives
    proxied = await startNext({ dbUrl, configFile, env: { BUILDCOP_ADMIN_TOKEN: TOKEN, BUILDCOP_TRUSTED_PROXIES: '127.0.0.1' } });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await proxied?.stop();
  });

  it('50 guesses at once, each claiming another address: 10 are compared, the rest get 429 with Retry-After; then the right token waits too', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signIn(server, `guess-${i}`, { 'x-forwarded-for': `10.0.0.${i}`, 'x-buildcop-peer': `10.1.0.${i}` })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(limited.body).error).toMatch(/too many sign-in attempts from this client: try again in \d+ s/);
    // the limit is on attempts, not on wrong ones: the right token gets no oracle
    expect((await signIn(server, TOKEN)).status).toBe(429);
    // a write with a token is an attempt too
    const write = await rawRequest(server.baseUrl, bugsRoute, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer guess' }, body: '{"bug": "1"}' });
    expect([write.status, write.headers['retry-after'] !== undefined]).toEqual([429, true]);
    // one attempt comes back every 6 s
    await new Promise((r) => setTimeout(r, 1000 * Number(limited.headers['retry-after'])));
    expect((await signIn(server, TOKEN)).status).toBe(200);
  }, 60_000);

  it('behind a trusted proxy, each client the proxy names has its own attempts', async () => {
    const guesses = (client: string, n: number) => Promise.all(Array.from({ length: n }, (_, i) => signIn(proxied, `guess-${i}`, { 'x-forwarded-for': `203.0.113.9, ${client}` })));
    expect((await guesses('198.51.100.1', 12)).map((a) => a.status).filter((s) => s === 429)).toHaveLength(2);
    // another client behind the same proxy is not held back by the first one's guesses
    expect((await signIn(proxied, TOKEN, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
    // what the client wrote before the proxy's entry is not who it is
    expect((await signIn(proxied, TOKEN, { 'x-forwarded-for': '198.51.100.2, 198.51.100.1' })).status).toBe(429);
  });
});

describe('sign-in bodies are capped', () => {
  let server: NextServer;
  beforeAll(async () => {
    server = await startNext({ dbUrl, configFile, env: { BUILDCOP_ADMIN_TOKEN: TOKEN } });
  }, 120_000);
  afterAll(async () => server?.stop());

  it('in size: 413 past 8 KB, declared or not', async () => {
    const big = JSON.stringify({ token: 'x'.repeat(20_000) });
    expect((await rawRequest(server.baseUrl, '/api/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big })).status).toBe(413);
    const chunked = await rawRequest(server.baseUrl, '/api/auth', { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
  });

  it('in count: while 16 bodies are coming, another gets 503 with Retry-After; then sign-in works again', async () => {
    const stalled = Array.from({ length: 16 }, () => stalledBody(server.baseUrl, '/api/auth', 1000));
    try {
      await new Promise((r) => setTimeout(r, 1000)); // the 16 are being read
      const more = await signIn(server, 'one too many');
      expect([more.status, more.headers['retry-after']]).toEqual([503, '1']);
      expect(JSON.parse(more.body).error).toMatch(/too many requests are sending a body/);
    } finally {
      for (const s of stalled) s.release();
    }
    await Promise.all(stalled.map((s) => s.answer));
    await expect.poll(async () => (await signIn(server, TOKEN)).status, { timeout: 5000 }).toBe(200);
  });

  it('in time: a body that stops coming is answered 408 after 10 s', async () => {
    const stalled = stalledBody(server.baseUrl, '/api/auth', 1000);
    const answer = await stalled.answer;
    stalled.release();
    expect(answer instanceof Error ? answer.message : answer.status).toBe(408);
  }, 30_000);
});
