// Causes in the browser: the home page's top causes, a mass failure folded into one row and opened,
// a signature page with its chart, and at least 8 distinct problems on the first screen.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

describe('causes in the browser', () => {
  it('shows the top causes first, the mass failure among the first two, and 8+ problems on the first screen', async () => {
    const { page } = await newPage(browser, { width: 1440, height: 900 });
    await page.goto(`${baseUrl}/?${at}`);
    const causes = page.locator('[data-testid="causes"] tbody tr');
    await causes.first().waitFor();
    const texts = await causes.locator('a.cause-link').allInnerTexts();
    expect(texts.slice(0, 2).some((t) => t.includes(truth.scenarios.massIncident.signatureText))).toBe(true);
    // distinct problems visible without scrolling: cause rows and hot-list rows (a folded mass failure is one)
    const visible = await page.locator('[data-testid="causes"] tbody tr, table.hotlist tbody tr').evaluateAll((rows) =>
      rows.filter((r) => {
        const b = r.getBoundingClientRect();
        return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight;
      }).length,
    );
    await page.screenshot({ path: path.join(TEST_OUTPUT, 'hotlist-causes.png'), fullPage: false });
    expect(visible).toBeGreaterThanOrEqual(8);
    await page.context().close();
  });

  it('folds the mass failure into one hot-list row that opens to its tests', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/?${at}&limit=1000`);
    const row = page.locator('table.hotlist tr.cause-row').filter({ hasText: truth.scenarios.massIncident.signatureText });
    await row.waitFor();
    const tests = row.locator('[data-testid="collapsed-tests"] a.test-link');
    expect(await tests.first().isVisible()).toBe(false);
    await row.locator('[data-testid="collapsed-tests"] summary').click();
    await tests.first().waitFor({ state: 'visible' });
    const names = await tests.allInnerTexts();
    expect(names.length).toBeGreaterThan(50);
    // (innerText collapses the double space some test names have)
    const squash = (s: string) => s.replace(/\s+/g, ' ');
    const expected = new Set(truth.scenarios.massIncident.tests.map(squash));
    expect(names.filter((n) => !expected.has(squash(n)))).toEqual([]);
    // the long-lived flake that overlapped it keeps its own row and verdict
    const flake = page.locator('table.hotlist tbody tr[data-test-id]').filter({ has: page.locator('a.test-link', { hasText: truth.scenarios.flaky.test }) });
    expect(await flake.locator('.badge').innerText()).toBe('flaky');
    await page.context().close();
  });

  it("opens a signature page from a cause: its text, a real example, its tests and the chart", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/?${at}`);
    await Promise.all([page.waitForURL(/\/signatures\/[0-9a-f]+/), page.locator('[data-testid="causes"] a.cause-link').filter({ hasText: truth.scenarios.massIncident.signatureText }).click()]);
    expect(await page.locator('[data-testid="signature-example"]').innerText()).toMatch(/https:\/\/api\.ci-op-/);
    expect(await page.locator('[data-testid="signature-tests"] li').count()).toBe(truth.scenarios.massIncident.tests.length);
    await page.locator('[data-testid="signature-chart"] svg.recharts-surface').first().waitFor();
    expect(await page.locator('[data-testid="signature-chart"] .recharts-bar-rectangle').count()).toBeGreaterThan(0);
    expect(await page.locator('.verdict .badge').innerText()).toBe('regression');
    await page.screenshot({ path: path.join(TEST_OUTPUT, 'signature-page.png'), fullPage: false });
    await page.context().close();
  });
});
