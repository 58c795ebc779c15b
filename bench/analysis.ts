// Benchmark of the analysis: hot-list latency on a database at OpenShift scale (14 days of 2,000
// runs a day over 3,000 tests), 14-day searches over their build logs and failure texts
// (bench/scaleLogs.ts; --test-lines 0 leaves them out), and clustering throughput for 1,000,000
// failure texts.
//   npm run bench:analysis [-- --days 14 --runs-per-day 2000 --tests 3000 --test-lines 250 --clustering 1000000 --pg URL]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hotlist } from '../lib/answers/hotlist';
import { testDetail } from '../lib/answers/testDetail';
import { closeDatabase, openDatabase, type Database } from '../lib/store/db';
import { benchClustering, benchUnmatchedTails } from './clustering';
import { generateScaleDatabase } from './scaleWorld';
import { addScaleLogs, timeScaleSearches } from './scaleLogs';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '14' },
    'runs-per-day': { type: 'string', default: '2000' },
    tests: { type: 'string', default: '3000' },
    jobs: { type: 'string', default: '60' },
    clustering: { type: 'string', default: '1000000' },
    calls: { type: 'string', default: '20' },
    'test-lines': { type: 'string', default: '250' },
    pg: { type: 'string' },
  },
});
const opts = { days: Number(values.days), runsPerDay: Number(values['runs-per-day']), tests: Number(values.tests), jobs: Number(values.jobs), end: Date.UTC(2026, 10, 23) / 1000 };

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

async function measure(label: string, db: Database): Promise<void> {
  const t0 = performance.now();
  const stats = await generateScaleDatabase(db, opts);
  console.log(`${label}: generated ${stats.runs} runs, ${stats.outcomes} non-passing outcomes, ${stats.sets} test sets in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const calls = Number(values.calls);
  const cold = performance.now();
  let list = await hotlist(db, { window: '7d', at: opts.end, limit: 100 });
  console.log(`${label}: first hot list (cold caches) ${(performance.now() - cold).toFixed(0)} ms, ${list.totalItems} tests failing, top: ${list.items[0]?.test} (${list.items[0]?.classification})`);
  // Two rounds of 20 calls, each at a different `at` (a new window every call, so nothing is
  // answered from a cache): the first round includes the JIT warming up, the second is steady state.
  for (const round of ['first 20 calls', 'next 20 calls']) {
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const at = opts.end - (round === 'first 20 calls' ? i : calls + i) * 3600;
      const s = performance.now();
      list = await hotlist(db, { window: '7d', at, limit: 100 });
      times.push(performance.now() - s);
    }
    console.log(`${label}: hot list 7d, limit 100, ${round}: median ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms (each: ${times.map((t) => t.toFixed(0)).join(' ')})`);
  }
  const td: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    await testDetail(db, list.items[i % list.items.length].id, { window: '7d', at: opts.end });
    td.push(performance.now() - s);
  }
  console.log(`${label}: test detail median ${percentile(td, 50).toFixed(0)} ms`);
  const testLines = Number(values['test-lines']);
  if (testLines > 0) {
    const l0 = performance.now();
    const logs = await addScaleLogs(db, { end: opts.end, testLines });
    console.log(`${label}: build logs of ${logs.runs} runs (${(logs.logBytes / 1e9).toFixed(2)} GB, ${(logs.storedBytes / 1e6).toFixed(0)} MB compressed) and ${logs.failures} failure texts stored and indexed in ${((performance.now() - l0) / 1000).toFixed(1)} s`);
    await timeScaleSearches(db, opts.end, (line) => console.log(`${label}: ${line}`));
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-'));
try {
  const sqlite = await openDatabase(`file:${path.join(dir, 'bench.db')}`);
  await measure('sqlite', sqlite);
  await closeDatabase(sqlite);
  if (values.pg) {
    const pg = await openDatabase(values.pg);
    await measure('postgres', pg);
    await closeDatabase(pg);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
const n = Number(values.clustering);
if (n > 0) {
  const c = await benchClustering(n);
  console.log(`clustering: ${c.texts} failure texts -> ${c.signatures} signatures in ${c.seconds.toFixed(1)} s (${Math.round(c.perSecond)} texts/s)`);
  const tails = benchUnmatchedTails();
  console.log(`clustering: a new log tail against ${tails.signatures} stored tails it does not join: ${tails.budgetedMs.toFixed(0)} ms (without the edit-work budget: ${tails.exhaustiveMs.toFixed(0)} ms)`);
}
