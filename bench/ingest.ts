// Benchmark of ingest: the sample world served on loopback by the replay server (in its own
// process, as Prow and GCS are elsewhere), ingested into a fresh database; compared with the time
// to merely list and download the same files (the I/O floor).
// The replay server first reads every file once (from disk: GCS has no such cost) and the floor runs
// a few times, so that every floor and every ingest sees them warm. Round 1 is this process's first
// pass (cold code, as `ingest --once` runs); later rounds are warm, as passes of a long-running
// `ingest --interval` are.
// Then fresh-process rounds: a pass in a new process against a floor in a new process, both cold,
// as `ingest --once` from cron runs (round 1 compares a cold pass with a floor whose code is warm).
// The machine's speed drifts by a third over minutes, so each round's floor is the mean of one
// measured right before and one right after its ingest, and the summary gives the median and the
// best of the warm rounds.
// Then backfill rounds: the same world served with Deck listing only its last hour, ingested with
// --since 15d, so nearly every run is found in the GCS job folders (listed with delimiter=/, presubmits
// through pr-logs/directory) rather than in Deck's listing: runs/s backfilled.
// --compress-file-types txt,log,json,tar,html,yaml serves build logs and JSON gzip-encoded, as OpenShift
// CI's bucket holds them: fewer bytes on the wire, and inflating them is then part of each pass and of
// the floor (the same client downloads, and inflates, for both).
// Then the day at OpenShift's scale (bench/ingestDay.ts): a day of 24,000 runs of 3,000 tests,
// extrapolated from a pass over the 812 runs of the world with 3,000-test suites.
//   npm run bench:ingest [-- --pg postgresql://...] [--rounds 5] [--fresh-rounds 3] [--backfill-rounds 3] [--day-rounds 2] [--workers 0|1] [--compress-file-types LIST]
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { allowedHosts, validateConfig } from '../lib/config';
import { ingestPass } from '../lib/ingest/pass';
import { replayConfig } from '../lib/replay/config';
import { ensureWorld, TEST_WORLD_END } from '../lib/replay/ensureWorld';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { emptyDatabase } from './database';
import { downloadFloor, listingCost, type Floor } from './downloadFloor';
import { dayRounds } from './ingestDay';

const { values } = parseArgs({ options: { pg: { type: 'string' }, rounds: { type: 'string', default: '5' }, 'fresh-rounds': { type: 'string', default: '3' }, 'backfill-rounds': { type: 'string', default: '3' }, 'day-rounds': { type: 'string', default: '2' }, port: { type: 'string', default: '18099' }, workers: { type: 'string' }, 'compress-file-types': { type: 'string' } } });
const root = path.resolve(import.meta.dirname, '..');

async function startReplay(port: string, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const compressed = values['compress-file-types'] ? ['--compress-file-types', values['compress-file-types']] : [];
  const child = spawn(process.execPath, [path.join(root, 'bin/buildcop.mjs'), 'replay', '--port', port, '--end', TEST_WORLD_END.toISOString(), ...compressed, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /at (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`replay server exited with ${code}`)));
  });
  return { child, url };
}

const dir = await ensureWorld({ end: TEST_WORLD_END });
const { child, url } = await startReplay(values.port!);
// runs only (prow and gcs): the floor downloads run artifacts, not bug trackers or payloads
const { prow, gcs } = replayConfig(dir, url);
const config = validateConfig({ prow, gcs, ...(values.workers !== undefined ? { ingest: { workers: Number(values.workers) } } : {}) });
console.log(`world: ${dir}; replay server ${url} (hosts ${[...allowedHosts(config)].join(', ')})`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
/** Runs bench/freshProcess.ts in a new process (with tsx, as the CLI runs) and returns its figures. */
async function inFreshProcess<T>(mode: 'floor' | 'ingest', dbUrl?: string): Promise<T> {
  const args = ['--import', 'tsx', path.join(root, 'bench/freshProcess.ts'), mode, JSON.stringify({ prow, gcs }), ...(dbUrl ? [dbUrl] : [])];
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, args, { cwd: root, maxBuffer: 1 << 20 }, (err, out, errOut) => (err ? reject(new Error(`${mode} process failed: ${errOut || err.message}`)) : resolve(out))),
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}
try {
  const targets = [{ label: 'sqlite', url: '' }, ...(values.pg ? [{ label: 'postgres', url: values.pg }] : [])];
  const warm = new Map<string, { outcomesPerSec: number; ratio: number }[]>(targets.map((t) => [t.label, []]));
  // the replay server reads its files the first time, and the floor's own code needs a few runs to be
  // compiled: round 1's floor is then as warm as the others
  const warmUps = [];
  for (let i = 0; i < 3; i++) warmUps.push(await downloadFloor(config));
  console.log(`replay server and floor warmed up: ${warmUps.map((w) => w.seconds.toFixed(2)).join(', ')} s to serve ${warmUps[0].files} files (${(warmUps[0].bytes / 1e6).toFixed(1)} MB; ${(warmUps[0].wireBytes / 1e6).toFixed(1)} MB on the wire)`);
  // what the run-files glob saves: run folders carry gathered artifacts that ingest does not read
  const [globbed, full] = [await listingCost(config, true), await listingCost(config, false)];
  console.log(`listing the run folders: with the glob ${globbed.objects.toLocaleString('en-US')} objects in ${globbed.seconds.toFixed(2)} s; in full ${full.objects.toLocaleString('en-US')} objects in ${full.seconds.toFixed(2)} s`);
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const t of targets) {
      const before = await downloadFloor(config);
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-ingest-'));
      const db = await openDatabase(t.url || `file:${path.join(tmp, 'ingest.db')}`);
      if (t.label === 'postgres') await emptyDatabase(db);
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
        `round ${round}${round === 1 ? ' (first pass of this process)' : ''}: ${t.label}: download floor ${floor.seconds.toFixed(2)} s (${before.seconds.toFixed(2)} before, ${after.seconds.toFixed(2)} after; ${floor.files} files, ${(floor.bytes / 1e6).toFixed(1)} MB); ` +
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
  // cold against cold: a new process for each pass and each floor, timed from the first request
  // (module loading and migration are outside both, as they are outside the warm rounds)
  const fresh = new Map<string, number[]>(targets.map((t) => [t.label, []]));
  for (let round = 1; round <= Number(values['fresh-rounds']); round++) {
    for (const t of targets) {
      const before = await inFreshProcess<Floor>('floor');
      const s = await inFreshProcess<{ seconds: number; runs: number; testResults: number }>('ingest', t.url || undefined);
      const after = await inFreshProcess<Floor>('floor');
      const floorSeconds = (before.seconds + after.seconds) / 2;
      fresh.get(t.label)!.push(s.seconds / floorSeconds);
      console.log(
        `fresh process ${round}: ${t.label}: download floor ${floorSeconds.toFixed(2)} s (${before.seconds.toFixed(2)} before, ${after.seconds.toFixed(2)} after); ` +
          `ingest ${s.runs} runs, ${s.testResults.toLocaleString('en-US')} test outcomes in ${s.seconds.toFixed(2)} s: ` +
          `${Math.round(s.testResults / s.seconds).toLocaleString('en-US')} outcomes/s, ${fresh.get(t.label)!.at(-1)!.toFixed(2)}x the download floor`,
      );
    }
  }
  for (const [label, ratios] of fresh) {
    if (ratios.length) console.log(`${label}, fresh processes (${ratios.length}): median ${median(ratios).toFixed(2)}x the floor, best ${Math.min(...ratios).toFixed(2)}x`);
  }
  if (Number(values['backfill-rounds']) > 0) await backfillRounds(targets, Number(values['backfill-rounds']));
  if (Number(values['day-rounds']) > 0) await dayRounds(targets, Number(values['day-rounds']), (args) => startReplay(String(Number(values.port) + 2), args), values.workers);
} finally {
  child.kill();
}

/** Passes with --since 15d against the world served with Deck listing its last hour only. */
async function backfillRounds(targets: { label: string; url: string }[], rounds: number): Promise<void> {
  const little = await startReplay(String(Number(values.port) + 1), ['--deck-window', '1h']);
  try {
    const { prow, gcs } = replayConfig(dir, little.url);
    const backfillConfig = validateConfig({ prow, gcs, ...(values.workers !== undefined ? { ingest: { workers: Number(values.workers) } } : {}) });
    const perSec = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const t of targets) {
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-backfill-'));
        const db = await openDatabase(t.url || `file:${path.join(tmp, 'ingest.db')}`);
        if (t.label === 'postgres') await emptyDatabase(db);
        const s = await ingestPass({ config: backfillConfig, db, morePasses: true, since: '15d' });
        await closeDatabase(db);
        fs.rmSync(tmp, { recursive: true, force: true });
        // round 1 is this replay server's first reading of the world's files (GCS has no such cost)
        if (round > 1 || rounds === 1) perSec.get(t.label)!.push(s.runsBackfilled / s.seconds);
        console.log(
          `backfill ${round}${round === 1 ? ' (the replay server reads its files)' : ''}: ${t.label}: Deck listed ${s.runsNew - s.runsBackfilled} runs; ${s.backfill!.jobsListed} job folders listed, ${s.runsBackfilled} runs backfilled from GCS ` +
            `(${s.testResults.toLocaleString('en-US')} test outcomes in all) in ${s.seconds.toFixed(2)} s: ${(s.runsBackfilled / s.seconds).toFixed(0)} runs/s backfilled`,
        );
      }
    }
    for (const [label, xs] of perSec) console.log(`${label}, backfill (${xs.length} rounds after the first): median ${median(xs).toFixed(0)} runs/s backfilled, best ${Math.max(...xs).toFixed(0)}`);
  } finally {
    little.child.kill();
  }
}
