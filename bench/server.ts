// Benchmark of the web server at scale: `npm start` (the built app, `next start`) on a database that
// `npm run bench:world` made. A cold first call, then rounds of warm calls to the hot list (24h, 7d,
// 14d, and 7d of the release with the most jobs), the causes, a test's API answer and its page; the
// server's memory (RSS of its process tree) after each round. Without --at the calls ask for "now",
// as a buildcop's browser does. Then, per route, --computed calls each at a time of its own a minute
// or so apart (nothing cached for it but the whole days before it: what every answer after an ingest
// pass costs). First, as the ingester does after each pass, the days over are packed
// (lib/store/dayPacks.ts) and the standing answers are computed (lib/answers/standing.ts), twice: as
// after an ingester's first pass and as after a later one that wrote today's runs;
// --without-standing drops them instead, so the cold call and the rounds compute what they serve.
//   npm run build && npm run bench:server -- --db URL [--rounds 3] [--calls 20] [--computed 5] [--at ISO] [--without-standing]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatStandingSummary, refreshStandingAnswers } from '../lib/answers/standing';
import { releaseWithMostJobs } from './database';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { formatReadIndexes, updateReadIndexes } from '../lib/store/readIndexes';
import { bumpDataVersion, DAY } from '../lib/store/rollups';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
  options: { db: { type: 'string' }, rounds: { type: 'string', default: '3' }, calls: { type: 'string', default: '20' }, computed: { type: 'string', default: '5' }, at: { type: 'string' }, 'without-standing': { type: 'boolean' } },
});
if (!values.db) {
  console.error('give --db URL (a database `npm run bench:world` made)');
  process.exit(2);
}
if (!fs.existsSync(path.join(ROOT, '.next/BUILD_ID'))) {
  console.error('no production build: run `npm run build` first');
  process.exit(2);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

/** Kilobytes of resident memory of the process and its descendants (Linux /proc). */
function treeRssKb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const walk = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return kb;
}

let release: string | undefined;
{
  const db = await openDatabase(values.db);
  release = await releaseWithMostJobs(db);
  if (values['without-standing']) {
    await db.run('DELETE FROM standing_answer');
    console.log('standing answers dropped: every answer is computed');
  } else {
    // the ingester's steps after a pass: the test sets indexed, the days over packed (all of them, as
    // after the passes that made the database; at most 20 s a pass otherwise), then the standing answers
    for (const line of formatReadIndexes(await updateReadIndexes(db, { budgetMs: Infinity }))) console.log(line);
    console.log(`${formatStandingSummary(await refreshStandingAnswers(db, undefined))} (the ingester's step after its first pass)`);
    // a later pass of the same ingester: it wrote today's runs, the whole days before stay in memory
    await bumpDataVersion(db, [Math.floor(Date.now() / 1000 / DAY)]);
    console.log(`${formatStandingSummary(await refreshStandingAnswers(db, undefined))} (after a later pass that wrote today)`);
  }
  await closeDatabase(db);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(port), DATABASE_URL: values.db },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => server.kill('SIGTERM');
process.on('exit', stop);

async function get(route: string): Promise<{ ms: number; status: number; body: string }> {
  const t0 = performance.now();
  const res = await fetch(base + route);
  const body = await res.text();
  return { ms: performance.now() - t0, status: res.status, body };
}

for (let i = 0; ; i++) {
  try {
    await fetch(`${base}/api/health`);
    break;
  } catch {
    if (i > 600) throw new Error('the server did not start in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const at = values.at ? `&at=${encodeURIComponent(values.at)}` : '';
// the longest budget an answer may have: a cold call at scale may need it
const cold = await get(`/api/hotlist?window=7d${at}&budget=60000`);
if (cold.status !== 200) throw new Error(`hot list answered ${cold.status}: ${cold.body.slice(0, 300)}`);
const hot = JSON.parse(cold.body) as { totalItems: number; items: { id: string; test: string }[] };
console.log(`cold first call (7d hot list): ${(cold.ms / 1000).toFixed(2)} s, ${hot.totalItems} tests failing; server RSS ${(treeRssKb(server.pid!) / 1024).toFixed(0)} MB`);
const testId = hot.items[0]?.id;

const routes: [string, string][] = [
  ['hot list 24h', `/api/hotlist?window=24h${at}`],
  ['hot list 7d', `/api/hotlist?window=7d${at}`],
  ['hot list 14d', `/api/hotlist?window=14d${at}`],
  ...(release ? [[`hot list 7d ${release}`, `/api/hotlist?window=7d&release=${release}${at}`] as [string, string]] : []),
  ['causes 7d', `/api/causes?window=7d${at}`],
  ['test (API) 7d', `/api/tests/${testId}?window=7d${at}`],
  ['test page 7d', `/tests/${testId}?window=7d${at}`],
];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const calls = Number(values.calls);
for (let round = 1; round <= Number(values.rounds); round++) {
  const line: string[] = [];
  for (const [label, route] of routes) {
    const first = await get(`${route}${route.includes('?') ? '&' : '?'}budget=60000`); // the first of each kind may warm what the others share
    if (first.status !== 200) throw new Error(`${label} answered ${first.status}: ${first.body.slice(0, 300)}`);
    const ms: number[] = [];
    for (let i = 0; i < calls; i++) ms.push((await get(route)).ms);
    line.push(`${label} ${pct(ms, 50).toFixed(0)}/${pct(ms, 95).toFixed(0)}/${Math.max(...ms).toFixed(0)} ms (first ${first.ms.toFixed(0)})`);
  }
  console.log(`round ${round} (median/p95/max of ${calls}): ${line.join('; ')}; server RSS ${(treeRssKb(server.pid!) / 1024).toFixed(0)} MB`);
}
const computed = Number(values.computed);
if (computed > 0) {
  const base = Math.floor((values.at ? Date.parse(values.at) : Date.now()) / 1000);
  const line: string[] = [];
  for (const [k, [label, route]] of routes.entries()) {
    const ms: number[] = [];
    for (let i = 1; i <= computed; i++) {
      // a time no other call asked for: nothing is shared with the routes before but the whole days
      const t = new Date((base - (k * computed + i) * 67) * 1000).toISOString();
      const r = await get(`${route.replace(/&at=[^&]*/, '')}&at=${encodeURIComponent(t)}&budget=60000`);
      if (r.status !== 200) throw new Error(`${label} answered ${r.status}: ${r.body.slice(0, 300)}`);
      ms.push(r.ms);
    }
    line.push(`${label} ${pct(ms, 50).toFixed(0)}/${pct(ms, 95).toFixed(0)}/${Math.max(...ms).toFixed(0)} ms`);
  }
  console.log(`computed, each at its own time (median/p95/max of ${computed}): ${line.join('; ')}; server RSS ${(treeRssKb(server.pid!) / 1024).toFixed(0)} MB`);
}
stop();
process.exit(0);
