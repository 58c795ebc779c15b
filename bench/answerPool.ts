// How many answer threads (lib/server/answerPool.ts): on the ingested sample world, the same burst of
// requests (hot lists, searches reading every log, a test, the jobs) answered by 1, 2 and 3 threads,
// and by the main thread itself (0, as before): the wall time of the burst, how late the main
// thread's event loop ran meanwhile (what /api/health waits behind), and the memory the threads' own
// windows take.
//   npx tsx bench/answerPool.ts [--rounds 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ingestPass } from '../lib/ingest/pass';
import { answer, closeAnswerPool } from '../lib/server/answerPool';
import { closeDatabase, openDatabase } from '../lib/store/db';
import { configFor, END_ISO, replay, sampleWorld } from '../tests/helpers/world';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-'));
{
  const world = await sampleWorld();
  const server = await replay(world.dir);
  const db = await openDatabase(`file:${path.join(dir, 'world.db')}`);
  await ingestPass({ config: configFor(world.dir, server.url), db });
  await closeDatabase(db);
  await server.close();
}
process.env.DATABASE_URL = `file:${path.join(dir, 'world.db')}`;

const burst = () =>
  Promise.all([
    answer('hotlist', { at: END_ISO, window: '7d' }),
    answer('hotlist', { at: END_ISO, window: '14d', release: '4.2' }),
    answer('search', { q: 'Kubelet', at: END_ISO }),
    answer('search', { q: '(.+)+X', at: END_ISO }),
    answer('jobs', { at: END_ISO }),
    answer('hotlist', { at: END_ISO, window: '3d' }),
  ]);

for (const threads of ['0', '1', '2', '3']) {
  process.env.BUILDCOP_ANSWER_THREADS = threads;
  await closeAnswerPool();
  const first = await burst(); // threads started, code warm, windows loaded
  if (threads === '0') console.log(`the burst: hot lists of ${first[0].totalItems} tests, searches matching ${first[2].matchingRuns} and ${first[3].matchingRuns} runs`);
  const walls: number[] = [];
  const delays: number[] = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const t0 = performance.now();
    await burst();
    walls.push(performance.now() - t0);
    h.disable();
    delays.push(h.max / 1e6);
  }
  const rss = process.memoryUsage().rss / 1e6;
  console.log(
    `${threads === '0' ? 'main thread (no answer threads)' : `${threads} answer thread${threads === '1' ? '' : 's'}`}: burst of 6 answers ${walls.map((w) => (w / 1000).toFixed(2)).join(', ')} s; ` +
      `main event loop late by at most ${delays.map((d) => d.toFixed(0)).join(', ')} ms; process RSS ${rss.toFixed(0)} MB`,
  );
}
await closeAnswerPool();
fs.rmSync(dir, { recursive: true, force: true });
