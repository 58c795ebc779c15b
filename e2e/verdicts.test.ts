// The verdict in the browser: one badge per test on every tab and on its page; a regression's slices;
// a fixed flake's badge and its evidence.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testId } from '../lib/ids';
import { sampleWorld, type Truth } from '../tests/helpers/world';
import { launchChromium, newPage } from './support/browser';
import { END_ISO } from './support/server';

const baseUrl = inject('baseUrl');
const at = `at=${encodeURIComponent(END_ISO)}`;
const WINDOWS = ['24h', '3d', '7d', '14d'];
let browser: Browser;
let truth: Truth;

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Each test's badge on a hot-list tab (absent where the tab does not list it). */
async function badgesOnTab(page: Page, window: string): Promise<Map<string, string>> {
  await page.goto(`${baseUrl}/?window=${window}&${at}&limit=1000`);
  // a test's own row (a mass failure's tests are folded into its cause's row, which carries the cause's verdict)
  const rows = await page.locator('table.hotlist tbody tr[data-test-id]').evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelector('a.test-link')?.textContent ?? '', tr.querySelector('.badge')?.textContent ?? ''] as [string, string]),
  );
  return new Map(rows);
}

describe('verdicts in the browser', () => {
  it('shows the same badge for a test on every tab and on its page in every window', async () => {
    const { page } = await newPage(browser);
    const tabs = [];
    for (const w of WINDOWS) tabs.push(await badgesOnTab(page, w));
    const seen = new Map<string, Set<string>>();
    for (const tab of tabs) for (const [test, badge] of tab) seen.set(test, (seen.get(test) ?? new Set()).add(badge));
    for (const [test, badges] of seen) expect([...badges], test).toHaveLength(1);
    for (const [test, expected] of Object.entries(truth.expectedVerdicts)) {
      expect([...(seen.get(test) ?? [expected])], test).toEqual([expected]);
      for (const w of ['24h', '14d']) {
        await page.goto(`${baseUrl}/tests/${testId(test)}?window=${w}&${at}`);
        expect(await page.locator('.verdict .badge').innerText(), `${test} page, ${w}`).toBe(expected);
      }
    }
    await page.context().close();
  }, 180_000);

  it("shows a regression's slices on its test page: where it rose and where it did not", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/tests/${testId(truth.scenarios.intermittentRegression.test)}?${at}`);
    const slices = page.locator('[data-testid="slices"]');
    await slices.waitFor();
    const row = (label: string) => slices.locator('tbody tr').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${label}$`) }) });
    expect(await row('4.1 aws').locator('td').last().innerText()).toBe('no');
    expect(await row('4.2 aws').locator('td').last().innerText()).toBe('rose');
    expect(await page.locator('.verdict').innerText()).toMatch(/not in .*4\.1 aws/);
    await page.context().close();
  });

  it("shows the fixed flake's badge with since when, the clean runs and its closed bug", async () => {
    const { page } = await newPage(browser);
    const f = truth.scenarios.fixedFlake;
    await page.goto(`${baseUrl}/tests/${testId(f.test)}?window=24h&${at}`);
    expect(await page.locator('.verdict .badge').innerText()).toBe('fixed');
    const text = await page.locator('.verdict').innerText();
    expect(text).toContain('Clean runs since');
    expect(text).toContain(`#${f.lastFailure.buildId}`);
    expect(text).toMatch(new RegExp(`Bug closed\\s+${f.bug.tracker} ${f.bug.id}`));
    await page.goto(`${baseUrl}/?window=14d&classification=fixed&${at}`);
    expect(await page.locator('table.hotlist a.test-link').allInnerTexts()).toContain(f.test);
    await page.context().close();
  });
});
