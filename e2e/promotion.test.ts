// The promotion page and the home banner in Debian's Chromium against `next start` on the ingested
// sample world (which has a blocked gate, an unblocked gate and a rejected nightly payload).
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testId } from '../lib/ids';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { sampleWorld, type Truth } from '../tests/helpers/world';
import { launchChromium, newPage } from './support/browser';
import { END_ISO, TEST_OUTPUT } from './support/server';

const baseUrl = inject('baseUrl');
const at = `at=${encodeURIComponent(END_ISO)}`;
let browser: Browser;
let truth: Truth;
let blocked: { name: string; failingTest: string; latestRun: { job: string; buildId: string } };
let unblocked: { name: string; latestRun: { job: string; buildId: string } };

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
  blocked = truth.promotion.gates.find((g: { blocked: boolean }) => g.blocked);
  unblocked = truth.promotion.gates.find((g: { blocked: boolean }) => !g.blocked);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const cspErrors = (errors: string[]) => errors.filter((e) => /Content Security Policy/i.test(e));

describe('promotion page', () => {
  it('shows the blocked gate with its failing test, verdict and timeline, and the unblocked gate as ok', async () => {
    const { page, errors, dialogs } = await newPage(browser);
    await page.goto(`${baseUrl}/promotion?${at}`);
    expect(await page.locator('[data-testid="promotion-headline"]').innerText()).toContain(`Promotion blocked: ${blocked.name}`);

    const gate = page.locator(`[data-testid="gate"][data-gate="${blocked.name}"]`);
    expect(await gate.getAttribute('data-blocked')).toBe('true');
    expect((await gate.locator('[data-testid="gate-status"]').innerText()).toLowerCase()).toBe('blocked');
    expect(await gate.locator('[data-testid="gate-summary"]').innerText()).toContain(`is blocked by ${blocked.latestRun.job}`);
    const row = gate.locator(`[data-testid="gate-job"][data-job="${blocked.latestRun.job}"]`);
    expect(await row.innerText()).toContain(blocked.latestRun.buildId);
    const test = row.locator('[data-testid="failing-test"]').filter({ hasText: blocked.failingTest });
    expect(await test.count()).toBe(1);
    expect(await test.locator('a').first().getAttribute('href')).toBe(`/tests/${testId(blocked.failingTest)}?${at}`);
    expect(await test.locator('.badge').innerText()).toBe(await test.getAttribute('data-classification'));

    // the 14-day timeline: a drawn bar whose last stretch is red (blocked now)
    const bars = gate.locator('[data-testid="timeline"] svg rect');
    expect(await bars.count()).toBeGreaterThan(1);
    expect(await bars.last().getAttribute('data-state')).toBe('blocked');
    const fill = await bars.last().evaluate((el) => getComputedStyle(el).fill);
    expect(fill).not.toBe(await gate.locator('[data-testid="timeline"] svg rect[data-state="unblocked"]').first().evaluate((el) => getComputedStyle(el).fill));

    const ok = page.locator(`[data-testid="gate"][data-gate="${unblocked.name}"]`);
    expect(await ok.getAttribute('data-blocked')).toBe('false');
    expect((await ok.locator('[data-testid="gate-status"]').innerText()).toLowerCase()).toBe('ok');
    expect(await ok.locator(`[data-testid="gate-job"][data-job="${unblocked.latestRun.job}"]`).innerText()).toContain(unblocked.latestRun.buildId);

    await page.screenshot({ path: path.join(TEST_OUTPUT, 'promotion.png'), fullPage: true });
    expect(cspErrors(errors)).toEqual([]);
    expect(dialogs).toEqual([]);
    await page.context().close();
  });

  it("shows each stream's latest and last accepted payload, and the rejected payload's failed job with its run and tests", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/promotion?${at}`);
    for (const [name, t] of Object.entries(truth.releaseStreams) as [string, any][]) {
      const stream = page.locator(`[data-testid="stream"][data-stream="${name}"]`);
      expect(await stream.locator('[data-testid="stream-latest"]').innerText()).toContain(`${t.latest} ${t.phase}`);
      const lastAccepted = Object.entries(t.phases as Record<string, string>).find(([, p]) => p === 'Accepted')![0];
      expect(await stream.locator('[data-testid="stream-last-accepted"]').innerText()).toBe(lastAccepted);
      if (t.phase !== 'Rejected') continue;
      const [jobName, ref] = Object.entries(t.blockingJobs as Record<string, { job: string; buildId: string; state: string }>).find(([, v]) => v.state === 'Failed')!;
      const job = stream.locator(`[data-testid="stream-job"][data-job="${jobName}"]`).first();
      expect(await job.getAttribute('data-state')).toBe('Failed');
      const run = job.locator('[data-testid="stream-job-run"]');
      expect(await run.innerText()).toBe(`${ref.job} ${ref.buildId}`);
      expect(await job.locator('[data-testid="failing-test"]').count()).toBeGreaterThan(0);
      // the run link leads to the run's page
      await Promise.all([page.waitForURL(new RegExp(`/runs/[^/]+/${ref.buildId}`)), run.click()]);
      expect(await page.locator('h1').innerText()).toContain(ref.buildId);
    }
    await page.context().close();
  });

  it('lists a blocking job\'s pending runs, one Deck stopped listing unfinished marked "lost track"', async () => {
    // two runs of the blocked gate's job, pending as passes leave them: one Deck lists, one it stopped
    // listing an hour before the end (removed after: the other files read the same database)
    const job = blocked.latestRun.job;
    const end = Date.parse(END_ISO) / 1000;
    const db = await openDatabase(inject('dbUrl'));
    const { id: lastPass } = (await db.get<{ id: number }>('SELECT MAX(id) AS id FROM ingest_pass'))!;
    const pending = (buildId: string, lastSeen: number, listedByPass: number) =>
      db.run('INSERT INTO pending_run (job, build_id, url, state, started, first_seen, last_seen, listed_by_pass) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        job, buildId, `https://prow.example/view/gs/bucket/logs/${job}/${buildId}`, 'pending', end - 7200, end - 7200, lastSeen, listedByPass,
      ]);
    await pending('9000000000000000001', end, lastPass);
    await pending('9000000000000000002', end - 3600, 0);
    try {
      const { page } = await newPage(browser);
      await page.goto(`${baseUrl}/promotion?${at}`);
      const cell = page.locator(`[data-testid="gate"][data-gate="${blocked.name}"] [data-testid="gate-job"][data-job="${job}"] td[data-label="Pending now"]`);
      const running = cell.locator('li', { hasText: '9000000000000000001' });
      const lost = cell.locator('li', { hasText: '9000000000000000002' });
      expect(await running.getAttribute('class')).toBe('state-pending');
      expect(await running.innerText()).not.toContain('lost track');
      expect(await lost.getAttribute('class')).toBe('muted');
      expect(await lost.innerText()).toMatch(/lost track: Deck stopped listing it after .+, no result yet/s);
      await page.context().close();
    } finally {
      await db.run("DELETE FROM pending_run WHERE build_id IN ('9000000000000000001', '9000000000000000002')");
      await closeDatabase(db);
    }
  });

  it("leads from a failing test to that test's page", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/promotion?${at}`);
    const link = page.locator(`[data-testid="gate"][data-gate="${blocked.name}"] [data-testid="failing-test"] a`, { hasText: blocked.failingTest }).first();
    await Promise.all([page.waitForURL(new RegExp(`/tests/${testId(blocked.failingTest)}`)), link.click()]);
    expect(await page.locator('h1').innerText()).toContain(blocked.failingTest);
    await page.context().close();
  });

  it('says what is wrong with a bad `at` instead of failing', async () => {
    const { page } = await newPage(browser);
    const res = await page.goto(`${baseUrl}/promotion?at=next-week`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('.notice.error[role="alert"]').innerText()).toMatch(/invalid at/);
    await page.context().close();
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const { page } = await newPage(browser, { width: 390, height: 844 });
    await page.goto(`${baseUrl}/promotion?${at}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: path.join(TEST_OUTPUT, 'promotion-phone.png'), fullPage: false });
    await page.context().close();
  });
});

describe('home page banner', () => {
  it('says which gate blocks promotion and links to /promotion', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${baseUrl}/?${at}`);
    const banner = page.locator('[data-testid="promotion-banner"]');
    const gates = banner.locator('[data-testid="banner-gates"] a');
    expect(await gates.innerText()).toBe(`Promotion blocked: ${blocked.name}`);
    await Promise.all([page.waitForURL(/\/promotion/), gates.click()]);
    expect(await page.locator('h1').innerText()).toBe('Promotion');
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });
});

describe('GET /api/promotion', () => {
  it('returns the contract JSON the page shows', async () => {
    const res = await fetch(`${baseUrl}/api/promotion?${at}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { gates: { name: string; blocked: boolean; jobs: { job: string; kind: string; latest: { buildId: string } | null }[] }[]; releaseStreams: { name: string }[] };
    expect(body.gates.map((g) => [g.name, g.blocked])).toEqual(truth.promotion.gates.map((g: { name: string; blocked: boolean }) => [g.name, g.blocked]));
    expect(body.releaseStreams.map((s) => s.name).sort()).toEqual(Object.keys(truth.releaseStreams).sort());
    expect((await fetch(`${baseUrl}/api/promotion?at=garbage`)).status).toBe(400);
  });
});
