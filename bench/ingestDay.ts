// bench:ingest's day at OpenShift's scale: how long ingest takes for one day of 24,000 runs of 3,000
// tests (72 million test results), extrapolated from a measured slice: the sample world generated with
// openshift-tests suites of 3,000 tests (`buildcop world --tests 3000`: 812 runs, about 2 million
// results), served by the replay server in its own process and ingested in one pass into a fresh
// database per engine. The replay server reads every file once first (GCS has no such cost); round 1
// is this process's first pass (as `ingest --once`), later rounds are warm (as `ingest --interval`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { validateConfig } from '../lib/config';
import { ingestPass } from '../lib/ingest/pass';
import { replayConfig } from '../lib/replay/config';
import { ensureWorld, TEST_WORLD_END } from '../lib/replay/ensureWorld';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { emptyDatabase } from './database';
import { downloadFloor } from './downloadFloor';

export const DAY_RUNS = 24_000;
export const DAY_TESTS = 3_000;
/** the least slice the figure is extrapolated from */
const MIN_SLICE_RUNS = 500;

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const minutes = (s: number) => `${(s / 60).toFixed(1)} min`;

/**
 * Runs `rounds` passes per target over the 3,000-test world and prints each round's figures and the
 * day they extrapolate to, by test results (72 million) and by runs (24,000).
 */
export async function dayRounds(
  targets: { label: string; url: string }[],
  rounds: number,
  startReplay: (args: string[]) => Promise<{ child: ChildProcess; url: string }>,
  workers: string | undefined,
): Promise<void> {
  const t0 = performance.now();
  const dir = await ensureWorld({ end: TEST_WORLD_END, tests: DAY_TESTS });
  const replay = await startReplay(['--tests', String(DAY_TESTS)]);
  try {
    const { prow, gcs } = replayConfig(dir, replay.url);
    const config = validateConfig({ prow, gcs, ...(workers !== undefined ? { ingest: { workers: Number(workers) } } : {}) });
    await downloadFloor(config); // the replay server reads its files
    const floor = await downloadFloor(config);
    console.log(`day at scale: world of ${DAY_TESTS.toLocaleString('en-US')}-test suites ${dir} (ready in ${((performance.now() - t0) / 1000).toFixed(0)} s); download floor ${floor.seconds.toFixed(2)} s for ${n(floor.files)} files, ${(floor.bytes / 1e6).toFixed(0)} MB`);
    const best = new Map<string, { byResults: number; byRuns: number }>();
    for (let round = 1; round <= rounds; round++) {
      for (const t of targets) {
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-day-'));
        try {
          const db = await openDatabase(t.url || `file:${path.join(tmp, 'ingest.db')}`);
          if (t.label === 'postgres') await emptyDatabase(db);
          const s = await ingestPass({ config, db, morePasses: true });
          const full = Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM run WHERE passed + failed + flaked + skipped >= ?', [DAY_TESTS]))!.n);
          await closeDatabase(db);
          const runs = s.runsNew + s.runsUpdated;
          const byResults = (s.seconds / s.testResults) * DAY_RUNS * DAY_TESTS;
          const byRuns = (s.seconds / runs) * DAY_RUNS;
          const b = best.get(t.label);
          if (round > 1 || rounds === 1) if (!b || byResults < b.byResults) best.set(t.label, { byResults, byRuns });
          console.log(
            `day at scale, round ${round}${round === 1 ? ' (first pass of this process)' : ''}: ${t.label}: ${n(runs)} runs (${n(full)} of ${n(DAY_TESTS)} tests), ${n(s.testResults)} test results in ${s.seconds.toFixed(1)} s ` +
              `(${n(s.testResults / s.seconds)} results/s, ${(runs / s.seconds).toFixed(1)} runs/s, ${s.seconds > 0 ? (s.seconds / floor.seconds).toFixed(2) : '-'}x the floor): ` +
              `a day of ${n(DAY_RUNS)} runs x ${n(DAY_TESTS)} tests in ${minutes(byResults)} by its ${n(DAY_RUNS * DAY_TESTS)} results, ${minutes(byRuns)} by its runs` +
              (full < MIN_SLICE_RUNS ? ` (WARNING: fewer than ${MIN_SLICE_RUNS} runs of ${DAY_TESTS} tests in the slice)` : ''),
          );
        } finally {
          fs.rmSync(tmp, { recursive: true, force: true });
        }
      }
    }
    for (const [label, b] of best) console.log(`${label}: a day of ${n(DAY_RUNS)} runs x ${n(DAY_TESTS)} tests: ${minutes(b.byResults)} (by results; ${minutes(b.byRuns)} by runs), best of the warm rounds`);
  } finally {
    replay.child.kill();
  }
}
