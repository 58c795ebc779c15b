// Benchmark of a CLI call end to end (a new `node bin/buildcop.mjs` process each time): `hotlist`,
// `test` and `promotion` on the ingested sample world. Cold: the first call after the sources
// changed (the bundled CLI is built first; scripts/cliBundle.mjs). Warm: later calls. The same
// through tsx (BUILDCOP_CLI_TSX=1) for comparison, cold with an empty transform cache of its own.
//   npm run bench:cli [-- --calls 5 --db URL --config FILE]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ingestPass } from '../lib/ingest/pass';
import { replayConfig } from '../lib/replay/config';
import { ensureWorld, TEST_WORLD_END } from '../lib/replay/ensureWorld';
import { startReplayServer } from '../lib/replay/server';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { sourcesDigest } from '../scripts/cliBundle.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({ options: { calls: { type: 'string', default: '5' }, db: { type: 'string' }, config: { type: 'string' } } });
const calls = Number(values.calls);
const AT = TEST_WORLD_END.toISOString();

async function sampleDatabase(): Promise<{ db: string; config: string; close(): Promise<void> }> {
  if (values.db && values.config) return { db: values.db, config: values.config, close: async () => undefined };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-cli-'));
  const dir = await ensureWorld({ end: TEST_WORLD_END });
  const server = await startReplayServer({ dir, port: 0, deckWindowHours: 24 * 15, gcsPageSize: 1000, recordRequests: false });
  const config = replayConfig(dir, server.url);
  const file = path.join(tmp, 'buildcop.config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  const dbUrl = `file:${path.join(tmp, 'bench.db')}`;
  const db = await openDatabase(dbUrl);
  await ingestPass({ config, db });
  await closeDatabase(db);
  return { db: dbUrl, config: file, close: async () => (await server.close(), fs.rmSync(tmp, { recursive: true, force: true })) };
}

function call(args: string[], env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  execFileSync(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  return (performance.now() - t0) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const sample = await sampleDatabase();
try {
  const common = ['--db', sample.db, '--config', sample.config, '--at', AT];
  const top = JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'hotlist', '--limit', '1', '--json', ...common], { cwd: ROOT, encoding: 'utf8' })).items[0].test as string;
  const commands: [string, string[]][] = [
    ['hotlist', ['hotlist', ...common]],
    ['test', ['test', top, ...common]],
    ['promotion', ['promotion', ...common]],
  ];
  const bundleDir = path.join(ROOT, 'node_modules/.cache/buildcop', `cli-${sourcesDigest(ROOT)}`);
  const tsxTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-tsx-'));
  for (const [name, args] of commands) {
    fs.rmSync(bundleDir, { recursive: true, force: true });
    const cold = call(args, process.env);
    const warm = Array.from({ length: calls }, () => call(args, process.env));
    fs.rmSync(tsxTmp, { recursive: true, force: true });
    fs.mkdirSync(tsxTmp);
    const tsxEnv = { ...process.env, BUILDCOP_CLI_TSX: '1', TMPDIR: tsxTmp };
    const tsxCold = call(args, tsxEnv);
    const tsxWarm = Array.from({ length: calls }, () => call(args, tsxEnv));
    console.log(
      `${name.padEnd(9)} bundled: cold ${cold.toFixed(2)} s, warm median ${median(warm).toFixed(2)} s (${warm.map((t) => t.toFixed(2)).join(' ')})` +
        ` | tsx: cold ${tsxCold.toFixed(2)} s, warm median ${median(tsxWarm).toFixed(2)} s`,
    );
  }
  fs.rmSync(tsxTmp, { recursive: true, force: true });
  console.log(`(${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
} finally {
  await sample.close();
}
