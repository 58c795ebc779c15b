// Benchmark of ingest: the sample world served on loopback by the replay server (in its own
// process, as Prow and GCS are elsewhere), ingested into a fresh database; compared with the time
// to merely list and download the same files (the I/O floor).
//   npm run bench:ingest [-- --pg postgresql://...] [--rounds 2]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { allowedHosts, validateConfig, type Config } from '../lib/config';
import { FINISHED_STATES, selectFiles } from '../lib/ingest/assemble';
import { ingestPass } from '../lib/ingest/pass';
import { DEFAULT_MAX_FILE_BYTES, httpClientFor } from '../lib/ingest/run';
import { gcsLocationFromUrl } from '../lib/parse/prowMetadata';
import { replayConfig } from '../lib/replay/config';
import { ensureWorld, TEST_WORLD_END } from '../lib/replay/ensureWorld';
import { fetchDeckRuns } from '../lib/sources/deck';
import { GcsClient } from '../lib/sources/gcs';
import { closeDatabase, openDatabase } from '../lib/store/db';

const { values } = parseArgs({ options: { pg: { type: 'string' }, rounds: { type: 'string', default: '2' }, port: { type: 'string', default: '18099' } } });
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
  await Promise.all(Array.from({ length: 8 }, worker)); // as many runs in flight as ingest keeps
  http.close();
  return { seconds: (performance.now() - t0) / 1000, files, bytes };
}

const dir = await ensureWorld({ end: TEST_WORLD_END });
const { child, url } = await startReplay(values.port!);
// runs only (prow and gcs): the floor downloads run artifacts, not bug trackers or payloads
const { prow, gcs } = replayConfig(dir, url);
const config = validateConfig({ prow, gcs });
console.log(`world: ${dir}; replay server ${url} (hosts ${[...allowedHosts(config)].join(', ')})`);
try {
  const targets = [{ label: 'sqlite', url: '' }, ...(values.pg ? [{ label: 'postgres', url: values.pg }] : [])];
  for (let round = 1; round <= Number(values.rounds); round++) {
    const floor = await downloadFloor(config);
    console.log(`round ${round}: download floor ${floor.seconds.toFixed(2)} s for ${floor.files} files, ${(floor.bytes / 1e6).toFixed(1)} MB (${(floor.bytes / 1e6 / floor.seconds).toFixed(0)} MB/s)`);
    for (const t of targets) {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-ingest-'));
      const db = await openDatabase(t.url || `file:${path.join(tmp, 'ingest.db')}`);
      if (t.label === 'postgres') for (const table of ['test_outcome', 'parse_error', 'run', 'pending_run', 'test_set', 'signature', 'test', 'job', 'ingest_pass']) await db.run(`DELETE FROM ${table}`);
      const s = await ingestPass({ config, db });
      await closeDatabase(db);
      fs.rmSync(tmp, { recursive: true, force: true });
      const runs = s.runsNew + s.runsUpdated;
      console.log(
        `round ${round}: ${t.label}: ${runs} runs, ${s.testResults.toLocaleString('en-US')} test outcomes in ${s.seconds.toFixed(2)} s: ` +
          `${(runs / s.seconds).toFixed(0)} runs/s, ${Math.round(s.testResults / s.seconds).toLocaleString('en-US')} outcomes/s, ` +
          `${(s.seconds / floor.seconds).toFixed(2)}x the download floor`,
      );
    }
  }
} finally {
  child.kill();
}
