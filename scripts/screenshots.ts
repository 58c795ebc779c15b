// The README's screenshots, refreshed: the sample world ingested into a fresh SQLite database (as the
// browser tests do), the built dashboard started on it, and Debian's Chromium at 1440x900 saving
// docs/hotlist.png (the home page) and docs/test-page.png (the intermittent 4.2 regression, whose
// page shows the verdict's slices). Rebuilds .next first when it is older than the sources.
//   npm run screenshots
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { launchChromium } from '../e2e/support/browser';
import { END_ISO, prepareSampleDatabase, ROOT, startNext } from '../e2e/support/server';
import { buildIsStale } from '../lib/cli/demo';
import { testId } from '../lib/ids';

const VIEWPORT = { width: 1440, height: 900 };
const at = `at=${encodeURIComponent(END_ISO)}`;

if (buildIsStale(ROOT)) {
  console.log('screenshots: building the dashboard (next build)');
  const b = spawnSync(path.join(ROOT, 'node_modules/.bin/next'), ['build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const sample = await prepareSampleDatabase();
try {
  const server = await startNext({ dbUrl: sample.dbUrl, configFile: sample.configFile });
  try {
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' })).newPage();
      const shots = [
        { file: 'docs/hotlist.png', url: `${server.baseUrl}/?${at}`, ready: 'table.hotlist tbody tr' },
        { file: 'docs/test-page.png', url: `${server.baseUrl}/tests/${testId(sample.truth.scenarios.intermittentRegression.test)}?window=7d&${at}`, ready: '.verdict .badge' },
      ];
      for (const s of shots) {
        await page.goto(s.url);
        await page.locator(s.ready).first().waitFor();
        // the charts draw on the client: wait until Recharts has drawn them
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: path.join(ROOT, s.file), fullPage: false });
        console.log(`screenshots: ${s.file} (${s.url})`);
      }
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
} finally {
  await sample.close();
}
