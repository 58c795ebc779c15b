// Benchmark of the CLI at scale: `buildcop` as a new process (nothing in memory) on a database that
// `npm run bench:world` made, as a buildcop runs it: the hot list for now (a standing answer), a
// test's answer, a hot list of one release for now (standing, as the 7d tab of each release is), and
// the answers computed when asked: a hot list at another time, of one release at another time, causes
// at another time. Each `--calls` times (the computed ones each at an hour of their own); prints
// seconds (median and max) and the peak RSS. First, as the ingester does after a pass, the test sets
// are indexed, the days over packed and the standing answers computed (--as-is skips that).
//   npm run bench:cli-scale -- --db URL [--calls 3] [--as-is]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatStandingSummary, refreshStandingAnswers } from '../lib/answers/standing';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { formatReadIndexes, updateReadIndexes } from '../lib/store/readIndexes';
import { releaseWithMostJobs } from './database';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({ options: { db: { type: 'string' }, calls: { type: 'string', default: '3' }, 'as-is': { type: 'boolean' } } });
if (!values.db) {
  console.error('give --db URL (a database `npm run bench:world` made)');
  process.exit(2);
}
const url = values.db;
const calls = Number(values.calls);

const db = await openDatabase(url);
const [span] = await db.rows('SELECT MAX(started) FROM run');
const newest = Number(span[0]);
const release = await releaseWithMostJobs(db);
if (!values['as-is']) {
  for (const line of formatReadIndexes(await updateReadIndexes(db, { budgetMs: Infinity }))) console.log(line);
  console.log(formatStandingSummary(await refreshStandingAnswers(db, undefined)));
}
await closeDatabase(db);

const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One CLI call as a new process: seconds, peak RSS (MB, where /usr/bin/time is there) and what it printed. */
function call(args: string[]): { s: number; mb?: number; stdout: string } {
  const argv = [process.execPath, path.join(ROOT, 'bin/buildcop.mjs'), ...args, '--db', url];
  const t0 = performance.now();
  const r = TIME ? spawnSync(TIME, ['-f', '%M', ...argv], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 }) : spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`buildcop ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const kb = TIME ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { s, mb: Number.isFinite(kb) ? kb / 1024 : undefined, stdout: r.stdout };
}

// The hours asked are fixed times of day (14:30, 07:30, 00:30, 17:30 the day before, ...), counted
// back from the last 14:30 UTC at least five hours before the newest run: how much of its day a call
// reads weighs as much as the code, so databases generated at other times of day are asked the same.
const ANCHOR_OF_DAY = 14.5 * 3600;
const anchor = Math.floor((newest - 5 * 3600 - ANCHOR_OF_DAY) / 86400) * 86400 + ANCHOR_OF_DAY;
const hourIso = (k: number) => new Date((anchor - 7 * 3600 * k) * 1000).toISOString();
const top = JSON.parse(call(['hotlist', '--limit', '1', '--json']).stdout).items[0]?.id as string;

const commands: [string, (k: number) => string[]][] = [
  ['hotlist --window 7d --limit 5 (for now)', () => ['hotlist', '--window', '7d', '--limit', '5', '--json']],
  ['hotlist --window 14d (for now)', () => ['hotlist', '--window', '14d', '--json']],
  ['test ID --json (the top test, for now)', () => ['test', top, '--json']],
  ['hotlist --window 7d --at an hour of its own', (k) => ['hotlist', '--window', '7d', '--at', hourIso(k), '--json']],
  ...(release
    ? ([
        [`hotlist --window 7d --release ${release} (for now)`, () => ['hotlist', '--window', '7d', '--release', release, '--json']],
        [`hotlist --window 7d --release ${release} --at an hour`, (k) => ['hotlist', '--window', '7d', '--release', release, '--at', hourIso(k + 2), '--json']],
      ] as [string, (k: number) => string[]][])
    : []),
  ['causes --window 7d --at an hour of its own', (k) => ['causes', '--window', '7d', '--at', hourIso(k + 1), '--json']],
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, args] of commands) {
  const runs = Array.from({ length: calls }, (_, k) => call(args(k)));
  const secs = runs.map((r) => r.s);
  const mbs = runs.map((r) => r.mb).filter((m): m is number => m !== undefined);
  console.log(
    `${name.padEnd(48)} median ${median(secs).toFixed(2)} s, max ${secs.reduce((a, b) => Math.max(a, b)).toFixed(2)} s (${secs.map((x) => x.toFixed(2)).join(' ')})` +
      `${mbs.length ? `, peak RSS ${mbs.reduce((a, b) => Math.max(a, b)).toFixed(0)} MB` : ''}, ${(Buffer.byteLength(runs[0].stdout) / 1024).toFixed(0)} KB printed`,
  );
}
console.log(`(${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
