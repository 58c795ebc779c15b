// Measures what the quality bar asks for, on the sample world (run after `next build`):
//   npx tsx e2e/support/measure.ts
// - hot list server time: time to the last byte of `/` over loopback, 20 requests after 3 warm-ups
//   (median and p95), and of /api/hotlist for comparison;
// - first-load JavaScript per route: the script bytes Chromium downloads (compressed, as sent) on
//   a cold load of each page.
// Prints a table and writes test-output/measurements.json. Figures, not assertions.
import fs from 'node:fs';
import path from 'node:path';
import { testId } from '../../lib/ids';
import { launchChromium } from './browser';
import { END_ISO, prepareSampleDatabase, startNext, TEST_OUTPUT } from './server';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function timeRoute(url: string, n = 20): Promise<{ median: number; p95: number }> {
  const once = async () => {
    const t0 = performance.now();
    const r = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    await r.arrayBuffer();
    return performance.now() - t0;
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await once());
  return { median: Math.round(quantile(times, 0.5)), p95: Math.round(quantile(times, 0.95)) };
}

const sample = await prepareSampleDatabase();
const server = await startNext({ dbUrl: sample.dbUrl, configFile: sample.configFile });
const at = `at=${encodeURIComponent(END_ISO)}`;
try {
  const top = sample.truth.scenarios.top.test as string;
  const job = [...sample.truth.perTest[top].window.jobs].sort()[0];
  const detail = (await (await fetch(`${server.baseUrl}/api/tests/${testId(top)}?${at}`)).json()) as { runs: { job: string; buildId: string }[] };
  const run = detail.runs[0];
  const routes: Record<string, string> = {
    '/': `/?${at}`,
    '/tests/[id]': `/tests/${testId(top)}?${at}`,
    '/jobs': `/jobs?${at}`,
    '/jobs/[name]': `/jobs/${encodeURIComponent(job)}?${at}`,
    '/runs/[job]/[buildId]': `/runs/${encodeURIComponent(run.job)}/${run.buildId}`,
    '/search': `/search?q=${encodeURIComponent('connection refused')}&${at}`,
    '/_not-found': '/tests/0000000000000000',
  };
  const timing = {
    hotlistPage: await timeRoute(`${server.baseUrl}${routes['/']}`),
    hotlistApi: await timeRoute(`${server.baseUrl}/api/hotlist?${at}`),
    testPage: await timeRoute(`${server.baseUrl}${routes['/tests/[id]']}`),
  };

  const browser = await launchChromium();
  const firstLoadJs: Record<string, { files: number; compressedKB: number; uncompressedKB: number }> = {};
  for (const [route, url] of Object.entries(routes)) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts: Promise<{ encoded: number; decoded: number }>[] = [];
    page.on('requestfinished', (req) => {
      if (req.resourceType() !== 'script') return;
      scripts.push((async () => ({ encoded: (await req.sizes()).responseBodySize, decoded: (await (await req.response())?.body())?.length ?? 0 }))());
    });
    await page.goto(`${server.baseUrl}${url}`, { waitUntil: 'networkidle' });
    const sizes = await Promise.all(scripts);
    firstLoadJs[route] = {
      files: sizes.length,
      compressedKB: Math.round(sizes.reduce((s, x) => s + x.encoded, 0) / 102.4) / 10,
      uncompressedKB: Math.round(sizes.reduce((s, x) => s + x.decoded, 0) / 102.4) / 10,
    };
    await context.close();
  }
  await browser.close();

  const result = { measuredAt: new Date().toISOString(), timingMs: timing, firstLoadJs };
  fs.mkdirSync(TEST_OUTPUT, { recursive: true });
  fs.writeFileSync(path.join(TEST_OUTPUT, 'measurements.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log('server time (ms, loopback, last byte):');
  for (const [k, v] of Object.entries(timing)) console.log(`  ${k.padEnd(12)} median ${v.median}  p95 ${v.p95}`);
  console.log('first-load JS (Chromium, cold load):');
  for (const [k, v] of Object.entries(firstLoadJs)) console.log(`  ${k.padEnd(22)} ${String(v.compressedKB).padStart(6)} kB compressed  ${String(v.uncompressedKB).padStart(6)} kB raw  (${v.files} files)`);
} finally {
  await server.stop();
  await sample.close();
}
