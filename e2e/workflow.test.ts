// The buildcop's day in Debian's Chromium against `next start` on the ingested sample world: the
// banner names the rejected release stream, a run page counts its one real failure as 1 (ci-operator's
// wrapper tests apart) and links its logs, a job page shows its grid, and the copied bug comment holds
// a real failure message in the chosen tracker's format.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testId } from '../lib/ids';
import { closeDatabase, openDatabase, type Database } from '../lib/store/db';
import { JOBS, operatorTestNames } from '../lib/world/catalog';
import { MONITOR_TEST } from '../lib/world/testNames';
import { sampleWorld, type Truth } from '../tests/helpers/world';
import { launchChromium, newPage } from './support/browser';
import { END_ISO, TEST_OUTPUT } from './support/server';

const baseUrl = inject('baseUrl');
const at = `at=${encodeURIComponent(END_ISO)}`;
// the world's wrapper tests, as its generator writes them
const WRAPPERS = new Set([MONITOR_TEST, ...JOBS.flatMap((j) => [true, false].flatMap((p) => Object.values(operatorTestNames(j.ciTest, p))))]);
let browser: Browser;
let truth: Truth;
let db: Database;

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
  browser = await launchChromium();
  db = await openDatabase(inject('dbUrl'));
});
afterAll(async () => {
  await browser?.close();
  if (db) await closeDatabase(db);
});

const cspErrors = (errors: string[]) => errors.filter((e) => /Content Security Policy/i.test(e));

describe('home page banner', () => {
  it('lists the release stream whose latest payloads were rejected, how many in a row and since when', async () => {
    const status = (await (await fetch(`${baseUrl}/api/promotion?${at}`)).json()) as { rejectedStreams: string[]; releaseStreams: { name: string; rejectedInARow: number; failingBlockingJobs: { name: string }[] }[] };
    const stream = status.releaseStreams.find((s) => s.rejectedInARow > 1)!;
    expect(status.rejectedStreams).toContain(stream.name);
    const { page, errors } = await newPage(browser);
    await page.goto(`${baseUrl}/?${at}`);
    const line = page.locator('[data-testid="banner-stream"]', { hasText: stream.name });
    const text = await line.innerText();
    expect(text).toContain(`Release stream ${stream.name}: ${stream.rejectedInARow} payloads rejected in a row`);
    expect(text).toMatch(/since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC; none accepted since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(text).toContain(`failing blocking ${stream.failingBlockingJobs[0].name} (`);
    // the blocked gate is still named beside it
    expect(await page.locator('[data-testid="banner-gates"]').innerText()).toContain('Promotion blocked: ');
    await page.locator('[data-testid="promotion-banner"]').screenshot({ path: path.join(TEST_OUTPUT, 'banner-streams.png') });
    await Promise.all([page.waitForURL(/\/promotion/), line.locator('a').click()]);
    expect(await page.locator(`[data-testid="stream"][data-stream="${stream.name}"] [data-testid="stream-summary"]`).innerText()).toContain(`${stream.rejectedInARow} payloads rejected in a row`);
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });
});

describe('run page', () => {
  it('counts one real failure as 1, shows the wrapper tests apart, and links the logs and the junit file', async () => {
    const runs = await db.all<{ id: number; job: string; build_id: string }>(
      `SELECT r.id, j.name AS job, r.build_id FROM run r JOIN job j ON j.id = r.job_id WHERE r.failed BETWEEN 2 AND 5 AND r.pull IS NOT NULL ORDER BY r.started DESC`,
    );
    let pick: { job: string; build_id: string; real: string; wrappers: number } | undefined;
    for (const r of runs) {
      const names = (await db.all<{ name: string }>('SELECT t.name FROM test_outcome o JOIN test t ON t.id = o.test_id WHERE o.run_id = ? AND o.outcome = 1', [r.id])).map((x) => x.name);
      const real = names.filter((n) => !WRAPPERS.has(n));
      if (real.length === 1 && names.length > 1) {
        pick = { ...r, real: real[0], wrappers: names.length - 1 };
        break;
      }
    }
    expect(pick).toBeDefined();
    const { page, errors } = await newPage(browser);
    await page.goto(`${baseUrl}/runs/${encodeURIComponent(pick!.job)}/${pick!.build_id}`);
    expect(await page.locator('[data-testid="run-counts"]').innerText()).toMatch(/^1 failed, /);
    expect(await page.locator('h2#failed-h').innerText()).toBe('Failed tests (1)');
    const failed = page.locator('[data-testid="run-failed"] tbody tr');
    expect(await failed.count()).toBe(1);
    expect(await failed.locator('td.test a').first().innerText()).toBe(pick!.real);
    const wrappers = page.locator('[data-testid="run-wrappers"]');
    expect(await wrappers.getAttribute('class')).toContain('muted');
    expect(await wrappers.locator('tbody tr').count()).toBeGreaterThanOrEqual(pick!.wrappers);
    // a presubmit: its pull request and head commit, not a payload
    expect(await page.locator('[data-testid="run-pull"] a').getAttribute('href')).toMatch(/^https:\/\/github\.com\/openshift\/(origin|installer)\/pull\/\d+$/);
    expect(await page.locator('dt', { hasText: 'Head commit' }).count()).toBe(1);
    // direct links, where the files are (the replay server serves them as GCS would)
    const buildLog = (await page.getByRole('link', { name: 'build-log.txt' }).getAttribute('href'))!;
    const junit = (await failed.locator('[data-testid="junit-link"]').getAttribute('href'))!;
    for (const href of [buildLog, junit]) {
      expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/origin-ci-test\//);
      expect((await fetch(href)).status, href).toBe(200);
    }
    const folder = buildLog.slice(0, -'build-log.txt'.length);
    expect(junit).toMatch(new RegExp(`^${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}artifacts/([^/]+)/openshift-e2e-test/artifacts/junit/junit_e2e_[^/]+\\.xml$`));
    // the e2e step's log, where ci-operator uploads it (the sample world gathers no e2e step log)
    const ciTest = /artifacts\/([^/]+)\/openshift-e2e-test\//.exec(junit)![1];
    expect(await page.locator('[data-testid="step-log"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toContain(`${folder}artifacts/${ciTest}/openshift-e2e-test/build-log.txt`);
    await page.screenshot({ path: path.join(TEST_OUTPUT, 'run-one-failure.png'), fullPage: true });
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('links the failed install step\'s log of a run whose cluster never came up', async () => {
    const row = (await db.get<{ job: string; build_id: string }>(
      `SELECT j.name AS job, r.build_id FROM run r JOIN job j ON j.id = r.job_id WHERE r.install_failed = 1 ORDER BY r.started DESC LIMIT 1`,
    ))!;
    const { page } = await newPage(browser);
    await page.goto(`${baseUrl}/runs/${encodeURIComponent(row.job)}/${row.build_id}`);
    const hrefs = await page.locator('[data-testid="step-log"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    const install = hrefs.find((h) => /\/artifacts\/[^/]+\/ipi-install-install\/build-log\.txt$/.test(h));
    expect(install, hrefs.join(' ')).toBeDefined();
    expect((await fetch(install!)).status).toBe(200);
    await page.context().close();
  });
});

describe('job page', () => {
  it('shows the grid: latest runs as columns, failing tests as rows, cells with the failure on hover, linking to the run', async () => {
    const job = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';
    const detail = (await (await fetch(`${baseUrl}/api/jobs/${encodeURIComponent(job)}?${at}`)).json()) as {
      runs: { buildId: string }[];
      grid: { columns: { buildId: string }[]; rows: { test: string; cells: { outcome: string; message?: string }[] }[] };
    };
    expect(detail.grid.columns.map((c) => c.buildId)).toEqual(detail.runs.slice(0, 30).map((r) => r.buildId));
    const { page, errors } = await newPage(browser);
    await page.goto(`${baseUrl}/jobs/${encodeURIComponent(job)}?${at}`);
    const grid = page.locator('[data-testid="job-grid"]');
    expect(await grid.locator('thead th.grid-run').count()).toBe(detail.grid.columns.length);
    expect(await grid.locator('tbody tr').count()).toBe(detail.grid.rows.length);
    const regression = truth.scenarios.top.test as string;
    const row = grid.locator('tbody tr', { has: page.locator(`th a[href="/tests/${testId(regression)}"]`) });
    expect(await row.count()).toBe(1);
    const cells = row.locator('td.grid-cell');
    expect(await cells.count()).toBe(detail.grid.columns.length);
    const expected = detail.grid.rows.find((r) => r.test === regression)!;
    expect(await cells.evaluateAll((tds) => tds.map((td) => td.getAttribute('data-outcome')))).toEqual(expected.cells.map((c) => c.outcome));
    const i = expected.cells.findIndex((c) => c.outcome === 'failed');
    const failedCell = cells.nth(i);
    expect(await failedCell.getAttribute('title')).toBe(`failed in #${detail.grid.columns[i].buildId}: ${expected.cells[i].message}`);
    expect(await failedCell.evaluate((td) => getComputedStyle(td).backgroundColor)).not.toBe(await cells.nth(expected.cells.findIndex((c) => c.outcome === 'passed')).evaluate((td) => getComputedStyle(td).backgroundColor));
    await grid.screenshot({ path: path.join(TEST_OUTPUT, 'job-grid.png') });
    await Promise.all([page.waitForURL(/\/runs\//), failedCell.locator('a').click()]);
    expect(page.url()).toBe(`${baseUrl}/runs/${encodeURIComponent(job)}/${detail.grid.columns[i].buildId}`);
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });
});

describe('test page', () => {
  it('copies a bug comment in the chosen tracker\'s format, holding a real failure message', async () => {
    const top = truth.scenarios.top.test as string;
    const id = testId(top);
    const detail = (await (await fetch(`${baseUrl}/api/tests/${id}?${at}`)).json()) as { runs: { outcome: string; message: string }[]; signatures: { text: string }[] };
    const stored = new Set(detail.runs.filter((r) => r.outcome === 'failed').map((r) => r.message));
    const { page, errors } = await newPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await page.goto(`${baseUrl}/tests/${id}?${at}`);
    // the chart draws once the page is hydrated: a choice made before that would be reset
    await page.locator('[data-testid="test-history-chart"] svg.recharts-surface').first().waitFor();
    await page.locator('[data-testid="bug-comment-tracker"]').selectOption({ label: 'Jira (wiki markup)' });
    await page.getByRole('button', { name: 'Copy as bug comment' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('Copied for Jira (wiki markup)');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    const lines = text.split('\n');
    const block = lines.slice(lines.indexOf('{noformat}') + 1, lines.lastIndexOf('{noformat}')).join('\n');
    // a message as stored for one of its failed runs, not the signature's normalised text
    expect(stored.has(block)).toBe(true);
    expect(detail.signatures.some((s) => s.text === block)).toBe(false);
    expect(lines.find((l) => l.startsWith('||Test|'))).toBe(`||Test|${top.replace(/[[\]]/g, (c) => `\\${c}`)}|`);
    expect(lines).toContain('||Run||Started||');
    expect(text).toContain(`[permanent link|${baseUrl}/tests/${id}?at=${END_ISO.replace('.000Z', 'Z')}]`);
    expect(cspErrors(errors)).toEqual([]);
    await page.context().close();
  });
});
