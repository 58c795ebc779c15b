// Benchmark of ingest: the sample world served on loopback by the replay server (in its own
// process, as Prow and GCS are elsewhere), ingested into a fresh database; compared with the time
// to merely list and download the same files (the I/O floor).
// The replay server first reads every file once (from disk: GCS has no such cost) and the floor runs
// a few times, so that every floor and every ingest sees them warm. Round 1 is this process's first
// pass (cold code, as `ingest --once` runs); later rounds are warm, as passes of a long-running
// `ingest --interval` are.
// The machine's speed drifts by a third over minutes, so each round's floor is the mean of one
// measured right before and one right after its ingest, and the summary gives the median and the
// best of the warm rounds.
//   npm run bench:ingest [-- --pg postgresql://...] [--rounds 5] [--workers 0|1]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { allowedHosts, validateConfig, type Config } from '../lib/config';
import { FINISHED_STATES, selectFiles } from '../lib/ingest/assemble';
import { ingestPass, RUNS_IN_FLIGHT } from '../lib/ingest/pass';
import { DEFAULT_MAX_FILE_BYTES, httpClientFor } from '../lib/ingest/run';
import { gcsLocationFromUrl } from '../lib/parse/prowMetadata';
import { replayConfig } from '../lib/replay/config';
import { ensureWorld, TEST_WORLD_END } from '../lib/replay/ensureWorld';
import { fetchDeckRuns } from '../lib/sources/deck';
import { GcsClient } from '../lib/sources/gcs';
import { closeDatabase, openDatabase } from '../lib/store/db';

const { values } = parseArgs({ options: { pg: { type: 'string' }, rounds: { type: 'string', default: '5' }, port: { type: 'string', default: '18099' }, workers: { type: 'string' } } });
const root = path.resolve(import.meta.dirname, '..');

async function startReplay(port: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(root, 'bin/buildcop.mjs'), 'replay', '--port', port, '--end', TEST_WORLD_END.toISOString()], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /at (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`replay server exited with ${code}`)));
  });
  return { child, url };
}

/** Lists and downloads what ingest would, with the same concurrency, and does nothing else. */
async function downloadFloor(config: Config): Promise<{ seconds: number; files: number; bytes: number }> {
  const t0 = performance.now();
  const http = httpClientFor(config);
  const gcs = new GcsClient(http, config.gcs!.url);
  const { runs } = await fetchDeckRuns(http, config.prow.url);
  const queue = runs.filter((r) => FINISHED_STATES.has(r.state));
  let files = 0;
  let bytes = 0;
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const loc = gcsLocationFromUrl(r.url)!;
      const prefix = `${loc.path}/`;
      const listed = (await gcs.list(loc.bucket, prefix)).map((o) => ({ path: o.name.slice(prefix.length), size: o.size, version: o.version }));
      await Promise.all(
        selectFiles(listed, DEFAULT_MAX_FILE_BYTES).fetch.map(async (o) => {
          const body = await gcs.download(loc.bucket, prefix + o.path);
          bytes += body.length;
          files++;
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: RUNS_IN_FLIGHT }, worker)); // as many runs in flight as ingest keeps
  http.close();
  return { seconds: (performance.now() - t0) / 1000, files, bytes };
}

const dir = await ensureWorld({ end: TEST_WORLD_END });
const { child, url } = await startReplay(values.port!);
// runs only (prow and gcs): the floor downloads run artifacts, not bug trackers or payloads
const { prow, gcs } = replayConfig(dir, url);
const config = validateConfig({ prow, gcs, ...(values.workers !== undefined ? { ingest: { workers: Number(values.workers) } } : {}) });
console.log(`world: ${dir}; replay server ${url} (hosts ${[...allowedHosts(config)].join(', ')})`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
try {
  const targets = [{ label: 'sqlite', url: '' }, ...(values.pg ? [{ label: 'postgres', url: values.pg }] : [])];
  const warm = new Map<string, { outcomesPerSec: number; ratio: number }[]>(targets.map((t) => [t.label, []]));
  // the replay server reads its files the first time, and the floor's own code needs a few runs to be
  // compiled: round 1's floor is then as warm as the others
  const warmUps = [];
  for (let i = 0; i < 3; i++) warmUps.push(await downloadFloor(config));
  console.log(`replay server and floor warmed up: ${warmUps.map((w) => w.seconds.toFixed(2)).join(', ')} s to serve ${warmUps[0].files} files (${(warmUps[0].bytes / 1e6).toFixed(1)} MB)`);
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const t of targets) {
      const before = await downloadFloor(config);
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-ingest-'));
      const db = await openDatabase(t.url || `file:${path.join(tmp, 'ingest.db')}`);
      if (t.label === 'postgres') for (const table of ['test_outcome', 'parse_error', 'run', 'pending_run', 'test_set', 'signature', 'test', 'job', 'ingest_pass']) await db.run(`DELETE FROM ${table}`);
      // as the passes of `ingest --interval` (the reader thread where `ingest --interval` has it by default; --workers 0|1 forces)
      const s = await ingestPass({ config, db, morePasses: true });
      await closeDatabase(db);
      fs.rmSync(tmp, { recursive: true, force: true });
      const after = await downloadFloor(config);
      const floor = { ...before, seconds: (before.seconds + after.seconds) / 2 };
      const runs = s.runsNew + s.runsUpdated;
      const outcomesPerSec = s.testResults / s.seconds;
      const ratio = s.seconds / floor.seconds;
      if (round > 1) warm.get(t.label)!.push({ outcomesPerSec, ratio });
      console.log(
        `round ${round}${round === 1 ? ' (cold)' : ''}: ${t.label}: download floor ${floor.seconds.toFixed(2)} s (${before.seconds.toFixed(2)} before, ${after.seconds.toFixed(2)} after; ${floor.files} files, ${(floor.bytes / 1e6).toFixed(1)} MB); ` +
          `ingest ${runs} runs, ${s.testResults.toLocaleString('en-US')} test outcomes in ${s.seconds.toFixed(2)} s: ` +
          `${(runs / s.seconds).toFixed(0)} runs/s, ${Math.round(outcomesPerSec).toLocaleString('en-US')} outcomes/s, ${ratio.toFixed(2)}x the download floor`,
      );
    }
  }
  for (const [label, rounds] of warm) {
    if (!rounds.length) continue;
    const ops = rounds.map((r) => r.outcomesPerSec);
    const ratios = rounds.map((r) => r.ratio);
    console.log(
      `${label}, warm rounds (${rounds.length}): median ${Math.round(median(ops)).toLocaleString('en-US')} outcomes/s and ${median(ratios).toFixed(2)}x the floor; ` +
        `best ${Math.round(Math.max(...ops)).toLocaleString('en-US')} outcomes/s and ${Math.min(...ratios).toFixed(2)}x`,
    );
  }
} finally {
  child.kill();
}
