// Bugs on the built dashboard: /api/bugs against its CLI twin, writes refused without the admin
// token, and in Chromium the test page's bugs panel (reasons, "recurred after fix", file-a-bug
// links), sign-in, linking and unlinking. Its own server: it needs BUILDCOP_ADMIN_TOKEN and writes.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testId } from '../lib/ids';
import { launchChromium, newPage } from './support/browser';
import { END_ISO, prepareSampleDatabase, ROOT, startNext, TEST_OUTPUT, type NextServer, type SampleDatabase } from './support/server';

const TOKEN = `e2e-${crypto.randomBytes(16).toString('hex')}`;
const run = promisify(execFile);

let sample: SampleDatabase;
let server: NextServer;
let browser: Browser;

beforeAll(async () => {
  sample = await prepareSampleDatabase();
  server = await startNext({ dbUrl: sample.dbUrl, configFile: sample.configFile, env: { BUILDCOP_ADMIN_TOKEN: TOKEN } });
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sample?.close();
});

type Link = { tracker: string; id: string; test: string; reason: string };
const get = async (route: string) => {
  const r = await fetch(`${server.baseUrl}${route}`);
  return { status: r.status, body: (await r.json()) as any };
};
const write = (method: 'POST' | 'DELETE', id: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}/api/tests/${id}/bugs`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** console errors other than failed loads, and failed loads other than the favicon */
function watch(p: Awaited<ReturnType<typeof newPage>>) {
  const failed: string[] = [];
  p.page.on('response', (r) => {
    if (r.status() >= 400 && !new URL(r.url()).pathname.startsWith('/favicon')) failed.push(`${r.status()} ${r.url()}`);
  });
  return () => ({ failed, errors: p.errors.filter((e) => !/^Failed to load resource/.test(e)), dialogs: p.dialogs });
}

async function cliBugs(): Promise<unknown> {
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'bugs', '--json', '--db', sample.dbUrl], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout);
}

/** a test failing in the window with no bug yet */
async function bareTest(): Promise<{ id: string; test: string }> {
  const { body } = await get(`/api/hotlist?at=${encodeURIComponent(END_ISO)}&noBug=true&limit=5`);
  return { id: body.items[0].id, test: body.items[0].test };
}

describe('bugs API', () => {
  it('/api/bugs = buildcop bugs --json, and carries every link the world requires', async () => {
    const api = await get('/api/bugs');
    expect(api.status).toBe(200);
    expect(api.body).toEqual(await cliBugs());
    const links = (api.body.bugs as { tracker: string; id: string; links: { test: string; reason: string }[] }[]).flatMap((b) => b.links.map((l) => `${b.tracker} ${b.id} ${l.reason} ${l.test}`));
    for (const l of sample.truth.bugs.mustLink as Link[]) expect(links).toContain(`${l.tracker} ${l.id} ${l.reason} ${l.test}`);
  });

  it('writes without the admin token get 401 and change nothing; with it they link and unlink', async () => {
    const { id } = await bareTest();
    const bug = `${sample.replayUrl}/show_bug.cgi?id=1763006`;
    const before = await get('/api/bugs');
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: `Basic ${TOKEN}` }]) {
      expect((await write('POST', id, { bug }, headers)).status).toBe(401);
      expect((await write('DELETE', id, { bug }, headers)).status).toBe(401);
    }
    expect((await get('/api/bugs')).body).toEqual(before.body);

    const linked = await write('POST', id, { bug }, { authorization: `Bearer ${TOKEN}` });
    expect(linked.status).toBe(200);
    expect((await get(`/api/tests/${id}/bugs`)).body.bugs.map((b: { id: string; reason: string }) => [b.id, b.reason])).toEqual([['1763006', 'manual']]);
    expect((await write('DELETE', id, { bug: '1763006', tracker: 'bugzilla' }, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await get(`/api/tests/${id}/bugs`)).body.bugs).toEqual([]);
  });
});

describe('bugs panel in the browser', () => {
  it('shows linked bugs with their reason and status, flags "recurred after fix", and offers prefilled new-bug forms', async () => {
    const { recurred } = sample.truth.bugs as { recurred: { id: string; test: string } };
    const watched = await newPage(browser);
    const { page } = watched;
    const problems = watch(watched);
    await page.goto(`${server.baseUrl}/tests/${testId(recurred.test)}?at=${encodeURIComponent(END_ISO)}`);
    const panel = page.getByTestId('bugs-panel');
    const item = panel.locator(`[data-bug="bugzilla:${recurred.id}"]`);
    await expect(item.textContent()).resolves.toMatch(/CLOSED/);
    expect(await item.textContent()).toContain('test name in the summary');
    expect(await item.getByText('recurred after fix').count()).toBe(1);
    const bz = new URL((await panel.locator('a[data-tracker="bugzilla"]').getAttribute('href'))!);
    expect(bz.pathname).toBe('/enter_bug.cgi');
    expect(bz.searchParams.get('short_desc')).toBe(recurred.test);
    expect(bz.searchParams.get('comment')).toContain(`/tests/${testId(recurred.test)}`);
    const gh = new URL((await panel.locator('a[data-tracker="github"]').getAttribute('href'))!);
    expect(gh.pathname).toBe('/kubernetes/kubernetes/issues/new');
    expect(await panel.locator('a[data-tracker="jira"]').count()).toBe(1);
    await panel.screenshot({ path: path.join(TEST_OUTPUT, 'bugs-panel.png') });
    // not signed in: no forms, a way to sign in
    expect(await panel.locator('form').count()).toBe(0);
    expect(await panel.getByRole('link', { name: 'Sign in' }).count()).toBe(1);
    expect(problems()).toEqual({ failed: [], errors: [], dialogs: [] });
    await page.context().close();
  });

  it('signs in with the token, links a bug from the test page and unlinks it', async () => {
    const { id } = await bareTest();
    const watched = await newPage(browser);
    const { page } = watched;
    const problems = watch(watched);
    await page.goto(`${server.baseUrl}/signin?next=${encodeURIComponent(`/tests/${id}`)}`);
    await page.getByLabel('Admin token').fill('not the token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signin\?error=invalid/);
    expect(await page.getByText('That token is not right.').count()).toBe(1);

    await page.getByLabel('Admin token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(new RegExp(`/tests/${id}$`));
    const cookie = (await page.context().cookies()).find((c) => c.name === 'buildcop_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie.value).not.toContain(TOKEN);

    const panel = page.getByTestId('bugs-panel');
    await panel.getByLabel('Bug URL or id').fill(`${sample.replayUrl}/show_bug.cgi?id=1763006`);
    await panel.getByRole('button', { name: 'Link bug' }).click();
    const item = panel.locator('[data-bug="bugzilla:1763006"]');
    await item.waitFor();
    expect(await item.textContent()).toContain('linked by hand');
    expect(await item.textContent()).toContain('Console shows wrong timezone');
    await panel.screenshot({ path: path.join(TEST_OUTPUT, 'bugs-panel-signed-in.png') });
    await item.getByRole('button', { name: 'Unlink Bugzilla 1763006' }).click();
    await item.waitFor({ state: 'detached' });
    expect((await get(`/api/tests/${id}/bugs`)).body.bugs).toEqual([]);
    expect(problems()).toEqual({ failed: [], errors: [], dialogs: [] });
    await page.context().close();
  });
});
