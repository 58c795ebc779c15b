// The dashboard in Debian's Chromium against `next start` on the ingested sample world.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testId } from '../lib/ids';
import { NOT_FINISHED } from '../lib/ingest/pass';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { sampleWorld, type Truth } from '../tests/helpers/world';
import { launchChromium, newPage } from './support/browser';
import { END_ISO, TEST_OUTPUT } from './support/server';

const baseUrl = inject('baseUrl');
const at = `at=${encodeURIComponent(END_ISO)}`;
let browser: Browser;
let truth: Truth;

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const cspErrors = (errors: string[]) => errors.filter((e) => /Content Security Policy/i.test(e));

describe('hot list', () => {
  it("shows the sample world's top test first, with fresh data", async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${baseUrl}/?${at}`);
    const first = page.locator('table.hotlist tbody tr').first();
    await expect.poll(() => first.locator('a.test-link').innerText()).toBe(truth.scenarios.top.test);
    expect(Number(await first.locator('td[data-label="Failed"]').innerText())).toBe(truth.scenarios.top.failedRuns);
    expect(await page.locator('[data-freshness]').getAttribute('data-freshness')).toBe('ok');
    expect(await page.locator('.freshness').innerText()).toMatch(/Ingested .* ago/);
    expect(await page.locator('[data-testid="without-bug"]').innerText()).toMatch(/^\d+ without a bug yet$/);
    await page.screenshot({ path: path.join(TEST_OUTPUT, 'hotlist.png'), fullPage: false });
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('changes the URL and the list when a filter changes', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/?${at}`);
    const total = Number(await page.locator('[data-testid="total"]').innerText());
    await page.locator('select[name="classification"]').selectOption('flaky');
    await Promise.all([page.waitForURL(/classification=flaky/), page.getByRole('button', { name: 'Apply' }).click()]);
    const url = new URL(page.url());
    expect(url.searchParams.get('classification')).toBe('flaky');
    expect(url.searchParams.get('at')).toBe(END_ISO);
    // the empty fields of the form are not in the shared URL
    expect([...url.searchParams.keys()].sort()).toEqual(['at', 'classification']);
    const badges = await page.locator('table.hotlist tbody tr td[data-label="Verdict"]').allInnerTexts();
    expect(badges.length).toBeGreaterThan(0);
    expect(new Set(badges.map((b) => b.trim()))).toEqual(new Set(['flaky']));
    expect(Number(await page.locator('[data-testid="total"]').innerText())).toBeLessThan(total);
    const names = await page.locator('table.hotlist a.test-link').allInnerTexts();
    expect(names).toContain(truth.scenarios.flaky.test);
    expect(names).not.toContain(truth.scenarios.regression.test);
    // the window tab keeps the filter
    await Promise.all([page.waitForURL(/window=14d/), page.getByRole('link', { name: '14d' }).click()]);
    expect(new URL(page.url()).searchParams.get('classification')).toBe('flaky');
    await page.context().close();
  });

  it('is usable on a phone and in dark mode, starting with a skip link', async () => {
    const { page } = await newPage(browser, { width: 390, height: 844, colorScheme: 'dark' });
    await page.goto(`${baseUrl}/?${at}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // no horizontal scrolling of the page itself
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).not.toBe('rgb(255, 255, 255)');
    await page.screenshot({ path: path.join(TEST_OUTPUT, 'hotlist-phone-dark.png') });
    await page.context().close();
  });
});

describe('test page', () => {
  it('draws the chart, lists the runs and copies a bug comment with a permanent link', async () => {
    const { page, errors } = await newPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await page.goto(`${baseUrl}/?${at}`);
    await Promise.all([page.waitForURL(/\/tests\/[0-9a-f]{16}/), page.locator('table.hotlist a.test-link').first().click()]);
    const top = truth.scenarios.top.test;
    expect(page.url()).toContain(`/tests/${testId(top)}`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(top);
    await page.locator('[data-testid="test-history-chart"] svg.recharts-surface').first().waitFor();
    expect(await page.locator('[data-testid="test-history-chart"] .recharts-bar-rectangle').count()).toBeGreaterThan(0);
    const t = truth.perTest[top].window;
    expect(await page.locator('.verdict').innerText()).toContain(truth.expectedVerdicts[top]);
    await page.screenshot({ path: path.join(TEST_OUTPUT, 'test-page.png'), fullPage: false });
    expect(await page.locator('#runs-h').innerText()).toContain(`(${t.failedRuns + t.flakedRuns})`);
    const firstPage = await page.locator('[data-testid="test-runs"] tbody tr').count();
    expect(firstPage).toBe(Math.min(50, t.failedRuns + t.flakedRuns));

    await page.getByRole('button', { name: 'Copy as bug comment' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('Copied');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    // the first configured tracker's format: Bugzilla's plain text
    expect(text).toContain(`Test: ${top}`);
    expect(text).toContain(`${baseUrl}/tests/${testId(top)}?at=${END_ISO.replace('.000Z', 'Z')}`);
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('pages through the failed and flaked runs, newest first, each once', async () => {
    const { page, errors } = await newPage(browser);
    const top = truth.scenarios.top.test;
    const t = truth.perTest[top].window;
    const total = t.failedRuns + t.flakedRuns;
    expect(total, 'the top test fails in more runs than a page lists').toBeGreaterThan(50);
    await page.goto(`${baseUrl}/tests/${testId(top)}?${at}`);
    const seen: string[] = [];
    for (let pages = 1; ; pages++) {
      const rows = page.locator('[data-testid="test-runs"] tbody tr td[data-label="Run"] a');
      seen.push(...(await rows.allInnerTexts()));
      const older = page.getByRole('link', { name: 'Older runs' });
      if (!(await older.count())) {
        // a page ends on a whole second, so it may list a few more than 50
        expect(pages, 'pages of 50').toBeGreaterThan(1);
        expect(pages).toBeLessThanOrEqual(Math.ceil(total / 50));
        break;
      }
      await Promise.all([page.waitForURL(/before=/), older.click()]);
      expect(await page.getByRole('link', { name: 'Newest runs' }).count()).toBe(1);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(total);
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('answers an unknown test id with the 404 page', async () => {
    const { page } = await newPage(browser);
    const res = await page.goto(`${baseUrl}/tests/0000000000000000?${at}`);
    expect(res?.status()).toBe(404);
    // the not-found boundary may stream in after the first bytes: wait for it rather than sample once
    await page.locator('[data-testid="not-found"]').waitFor({ state: 'visible', timeout: 15_000 });
    await page.context().close();
  });
});

describe('untrusted test names', () => {
  it('shows the XSS probe as literal text and runs no script', async () => {
    const name = truth.scenarios.xss.test as string;
    const { page, dialogs, errors } = await newPage(browser);
    for (const url of [`${baseUrl}/?${at}&test=${encodeURIComponent('sig-xss')}`, `${baseUrl}/tests/${testId(name)}?${at}`, `${baseUrl}/search?q=${encodeURIComponent('onerror')}&${at}`]) {
      await page.goto(url);
      await page.waitForLoadState('load');
      await expect.poll(() => page.getByText(name, { exact: true }).count(), { message: url }).toBeGreaterThan(0);
      expect(await page.locator('img[src="x"], img[onerror]').count(), url).toBe(0);
      expect(await page.evaluate(() => document.body.innerHTML.includes('<img src=x'))).toBe(false);
    }
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });
});

describe('jobs, runs and search', () => {
  it('draws the job chart and links to runs that show their failures', async () => {
    const { page } = await newPage(browser);
    const job = [...truth.perTest[truth.scenarios.top.test].window.jobs].sort()[0];
    await page.goto(`${baseUrl}/jobs?${at}`);
    await Promise.all([page.waitForURL(/\/jobs\/.+/), page.getByRole('link', { name: job, exact: true }).click()]);
    await page.locator('[data-testid="job-chart"] svg.recharts-surface').first().waitFor();
    expect(await page.locator('[data-testid="job-top-tests"] tbody tr').count()).toBeGreaterThan(0);
    const failedRun = page.locator('[data-testid="job-runs"] tbody tr').filter({ has: page.locator('td.state-failure') }).first();
    await Promise.all([page.waitForURL(/\/runs\//), failedRun.locator('a').first().click()]);
    expect(await page.locator('[data-testid="run-state"]').innerText()).toContain('failure');
    expect(await page.locator('[data-testid="run-failed"] tbody tr').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it("links a job's unfinished runs to Prow: they have no run page yet", async () => {
    const { page } = await newPage(browser);
    const { job, buildId } = truth.runs.pendingRuns[0];
    await page.goto(`${baseUrl}/jobs/${encodeURIComponent(job)}?${at}`);
    const link = page.locator('[data-testid="job-pending"] a', { hasText: `#${buildId}` });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^https?://[^/]+/view/gs/.+/${buildId}$`));
    await page.context().close();
  });

  it('tells a run Deck stopped listing unfinished from one still running', async () => {
    const { job, buildId } = truth.runs.pendingRuns.find((r) => !r.job.startsWith('release-promote'))!;
    // as a pass leaves a run Deck no longer lists and whose finished.json is not there yet (restored
    // after: the other files read the same database)
    const db = await openDatabase(inject('dbUrl'));
    const before = (await db.get<{ listed_by_pass: number; last_error: string }>('SELECT listed_by_pass, last_error FROM pending_run WHERE build_id = ?', [buildId]))!;
    await db.run('UPDATE pending_run SET listed_by_pass = 0, last_error = ? WHERE build_id = ?', [NOT_FINISHED, buildId]);
    try {
      const { page } = await newPage(browser);
      await page.goto(`${baseUrl}/jobs/${encodeURIComponent(job)}?${at}`);
      const item = page.locator('[data-testid="job-pending"] li', { hasText: `#${buildId}` });
      expect(await item.getAttribute('class')).toBe('muted');
      expect(await item.innerText()).toMatch(new RegExp(`lost track: Deck stopped listing it after .+${NOT_FINISHED}`, 's'));
      const others = page.locator('[data-testid="job-pending"] li', { hasNotText: `#${buildId}` });
      for (const text of await others.allInnerTexts()) expect(text).not.toContain('lost track');
      await page.context().close();
    } finally {
      await db.run('UPDATE pending_run SET listed_by_pass = ?, last_error = ? WHERE build_id = ?', [before.listed_by_pass, before.last_error, buildId]);
      await closeDatabase(db);
    }
  });

  it('the ingest log shows the passes, the pending runs and why, the parse errors and the warnings', async () => {
    // a parse error and a warning of the latest pass, for the time of this test (restored after)
    const db = await openDatabase(inject('dbUrl'));
    const victim = (await db.get<{ id: number; build_id: string; job: string }>('SELECT r.id, r.build_id, j.name AS job FROM run r JOIN job j ON j.id = r.job_id ORDER BY r.started DESC LIMIT 1'))!;
    const pass = (await db.get<{ id: number; warnings: string }>('SELECT id, warnings FROM ingest_pass ORDER BY id DESC LIMIT 1'))!;
    const hostile = '<img src=x onerror=alert(1)> unexpected end of file';
    await db.run('INSERT INTO parse_error (run_id, file, message) VALUES (?, ?, ?)', [victim.id, 'artifacts/e2e/junit_e2e.xml', hostile]);
    await db.run('UPDATE ingest_pass SET warnings = ? WHERE id = ?', [JSON.stringify(['bugs: jira: HTTP 503 from https://issues.example/rest/api/2/search']), pass.id]);
    try {
      const { page, errors } = await newPage(browser);
      await page.goto(`${baseUrl}/`);
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ingest' }).getAttribute('href')).toBe('/ingest');
      // the freshness line says so, and links to the log
      const freshness = page.locator('.freshness');
      expect(await freshness.innerText()).toMatch(/Ingested .* ago\. The latest pass reported a problem reading its sources; see the ingest log\./);
      await Promise.all([page.waitForURL(/\/ingest$/), freshness.getByRole('link', { name: 'ingest log' }).click()]);
      expect(await page.locator('[data-testid="latest-pass-problems"]').innerText()).toMatch(/completed with warnings:\s*bugs: jira: HTTP 503/);
      const passes = page.locator('[data-testid="ingest-passes"] tbody tr');
      expect(await passes.count()).toBeGreaterThan(0);
      expect((await passes.first().locator('td[data-label="Status"]').innerText()).trim()).toBe('ok');
      const pending = page.locator('[data-testid="ingest-pending"] li');
      expect(await pending.count()).toBe(truth.runs.pending);
      for (const text of await pending.allInnerTexts()) expect(text).toMatch(/: running, started /);
      const parseError = page.locator('[data-testid="ingest-parse-errors"] li');
      expect(await parseError.count()).toBe(1);
      expect(await parseError.innerText()).toContain(hostile); // shown as text, not markup
      expect(await page.locator('[data-testid="ingest-parse-errors"] img').count()).toBe(0);
      expect(await parseError.locator('a').getAttribute('href')).toBe(`/runs/${encodeURIComponent(victim.job)}/${encodeURIComponent(victim.build_id)}`);
      await page.screenshot({ path: path.join(TEST_OUTPUT, 'ingest.png'), fullPage: true });
      expect(cspErrors(errors)).toEqual([]);
      await page.context().close();
    } finally {
      await db.run('DELETE FROM parse_error WHERE run_id = ? AND message = ?', [victim.id, hostile]);
      await db.run('UPDATE ingest_pass SET warnings = ? WHERE id = ?', [pass.warnings, pass.id]);
      await closeDatabase(db);
    }
  });

  it('charts matching runs per day for a search', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/search?q=${encodeURIComponent('connection refused')}&${at}`);
    await page.locator('[data-testid="search-chart"] svg.recharts-surface').first().waitFor();
    expect(Number(await page.locator('[data-testid="matching-runs"]').innerText())).toBeGreaterThan(0);
    expect(await page.locator('mark').count()).toBeGreaterThan(0);
    await page.context().close();
  });
});
