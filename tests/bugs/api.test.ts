// The bug API's route handlers, called as Next calls them: writes need the admin token (header or
// sign-in cookie) and change nothing without it; reads are open; sign-in sets a safe cookie.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as authRoute from '../../app/api/auth/route';
import * as bugsRoute from '../../app/api/bugs/route';
import * as testBugsRoute from '../../app/api/tests/[id]/bugs/route';
import { testId } from '../../lib/ids';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';

const BASE = 'http://buildcop.test';
const TOKEN = 'correct-horse-battery-staple-0123456789';
const TEST = '[sig-network] Services should be able to create a functioning NodePort service [Suite:openshift/conformance/parallel] [Suite:k8s]';
const ID = testId(TEST);
const BUG = 'https://bugzilla.example/show_bug.cgi?id=1708311';

let db: Database;
let dir: string;

const req = (method: string, url: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
  new NextRequest(`${BASE}${url}`, {
    method,
    headers: { ...(init.body !== undefined && typeof init.body !== 'string' ? { 'content-type': 'application/json' } : {}), host: 'buildcop.test', ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
const ctx = (id = ID) => ({ params: Promise.resolve({ id }) });
const link = (headers: Record<string, string> = {}, body: unknown = { bug: BUG }) => testBugsRoute.POST(req('POST', `/api/tests/${ID}/bugs`, { body, headers }), ctx());
const unlink = (headers: Record<string, string> = {}, body: unknown = { bug: BUG }) => testBugsRoute.DELETE(req('DELETE', `/api/tests/${ID}/bugs`, { body, headers }), ctx());
const linkCount = async () => (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM bug_link WHERE removed = 0'))!.n;
const bearer = (t = TOKEN) => ({ authorization: `Bearer ${t}` });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-api-'));
  fs.writeFileSync(path.join(dir, 'buildcop.config.json'), JSON.stringify({ prow: { url: 'http://127.0.0.1:9' } }));
  process.env.BUILDCOP_CONFIG = path.join(dir, 'buildcop.config.json');
  process.env.DATABASE_URL = `file:${path.join(dir, 'api.db')}`;
  db = await openDatabase(process.env.DATABASE_URL);
  await db.run('INSERT INTO test (hash, name, first_seen) VALUES (?, ?, 0)', [ID, TEST]);
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.BUILDCOP_ADMIN_TOKEN;
});
beforeEach(async () => {
  process.env.BUILDCOP_ADMIN_TOKEN = TOKEN;
  await db.run('DELETE FROM bug_link');
});

describe('POST/DELETE /api/tests/[id]/bugs', () => {
  it('refuses writes without the right token, changing nothing', async () => {
    for (const headers of [{} as Record<string, string>, bearer('wrong'), bearer(`${TOKEN}x`), { authorization: `Basic ${TOKEN}` }, { authorization: TOKEN }, { cookie: 'buildcop_session=123.abc' }]) {
      const res = await link(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
    }
    expect(await linkCount()).toBe(0);
  });

  it('refuses every write when BUILDCOP_ADMIN_TOKEN is not set', async () => {
    delete process.env.BUILDCOP_ADMIN_TOKEN;
    const res = await link(bearer());
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/disabled/);
    expect(await linkCount()).toBe(0);
  });

  it('links and unlinks with the token; GET /api/bugs and the test\'s bugs show it', async () => {
    const res = await link(bearer());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, test: TEST, reason: 'manual', bug: { tracker: 'bugzilla', id: '1708311', url: BUG } });
    const list = (await (await bugsRoute.GET(req('GET', '/api/bugs'))).json()) as { bugs: { tracker: string; id: string; tests: string[]; links: unknown[] }[] };
    expect(list.bugs).toEqual([{ tracker: 'bugzilla', id: '1708311', url: BUG, summary: '', status: '', tests: [TEST], links: [{ test: TEST, reason: 'manual' }] }]);
    const mine = (await (await testBugsRoute.GET(req('GET', `/api/tests/${ID}/bugs`), ctx())).json()) as { bugs: { id: string; reason: string }[] };
    expect(mine.bugs.map((b) => [b.id, b.reason])).toEqual([['1708311', 'manual']]);

    expect((await unlink()).status).toBe(401);
    expect(await linkCount()).toBe(1);
    const gone = await unlink(bearer(), { bug: '1708311', tracker: 'bugzilla' });
    expect(gone.status).toBe(200);
    expect(await linkCount()).toBe(0);
    expect((await unlink(bearer())).status).toBe(404);
  });

  it('answers 400 for a malformed body or bug reference and 404 for an unknown test', async () => {
    expect((await link(bearer(), 'not json')).status).toBe(400);
    expect((await link(bearer(), { bug: 42 })).status).toBe(400);
    expect((await link(bearer(), { bug: 'https://example.com/nothing' })).status).toBe(400);
    expect((await link(bearer(), { bug: '999999' })).status).toBe(400); // an unknown bug and no Bugzilla configured: the URL is needed
    const other = await testBugsRoute.POST(req('POST', '/api/tests/0000000000000000/bugs', { body: { bug: BUG }, headers: bearer() }), ctx('0000000000000000'));
    expect(other.status).toBe(404);
    expect(await linkCount()).toBe(0);
  });
});

describe('sign-in for the UI', () => {
  const signIn = (token: string) => authRoute.POST(req('POST', '/api/auth', { body: { token } }));
  const session = (res: Response) => /buildcop_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

  it('sets an HttpOnly, SameSite=Strict session cookie for the right token only', async () => {
    const bad = await signIn('wrong');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();
    const good = await signIn(TOKEN);
    expect(good.status).toBe(200);
    const cookie = good.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const status = await authRoute.GET(req('GET', '/api/auth', { headers: { cookie: `buildcop_session=${session(good)}` } }));
    expect(await status.json()).toEqual({ signedIn: true, writesEnabled: true });
  });

  it('the cookie authorises writes from this site only, and stops when the token changes', async () => {
    const value = session(await signIn(TOKEN))!;
    expect((await link({ cookie: `buildcop_session=${value}`, origin: 'http://evil.example' })).status).toBe(401);
    expect((await link({ cookie: `buildcop_session=${value.slice(0, -2)}xx` })).status).toBe(401);
    expect(await linkCount()).toBe(0);
    expect((await link({ cookie: `buildcop_session=${value}`, origin: BASE })).status).toBe(200);
    expect(await linkCount()).toBe(1);
    process.env.BUILDCOP_ADMIN_TOKEN = `${TOKEN}-rotated`;
    expect((await unlink({ cookie: `buildcop_session=${value}` })).status).toBe(401);
    expect(await linkCount()).toBe(1);
  });

  it('the sign-in form redirects back to a page of this site only', async () => {
    const form = (next: string, token = TOKEN) =>
      authRoute.POST(req('POST', '/api/auth', { body: new URLSearchParams({ token, next }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    const ok = await form(`/tests/${ID}?at=2026-11-23T00:00:00Z`);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/tests/${ID}?at=2026-11-23T00:00:00Z`);
    expect(ok.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect((await form('//evil.example/')).headers.get('location')).toBe('/');
    expect((await form('https://evil.example/')).headers.get('location')).toBe('/');
    const bad = await form('/', 'nope');
    expect(bad.headers.get('location')).toMatch(/^\/signin\?error=invalid/);
    expect(bad.headers.get('set-cookie')).toBeNull();
  });
});
