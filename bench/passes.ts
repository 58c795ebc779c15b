// Benchmark of the passes of one `ingest --interval` process when a database has OpenShift's scale
// of history: what a pass costs when Deck lists nothing new, with the catalog, the clustering index
// and the bug linking indexes kept from the pass before, against the same pass reading and building
// them again. Passes read every source of the sample world: Deck, GCS, the bug trackers (the bugs
// are linked against every test and signature) and the release controller.
// The database gets 30,000 tests, 5,000 test sets and 50,000 signatures (texts of 40 random words of
// a failure's vocabulary, each a signature of its own), with --bugs that many bugs (prose, a tenth
// quoting a failure), then the sample world, served on loopback. Rounds alternate between the two
// ways (the machine's speed drifts). On the main thread (the default on 2 cores); a reader thread's
// passes are measured keeping only (its index is its own). Then relinking after a new test.
//   npm run bench:passes [-- --pg postgresql://...] [--rounds 5] [--signatures 50000] [--tests 30000] [--bugs 5000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { validateConfig } from '../lib/config';
import { testId } from '../lib/ids';
import { relinkBugs } from '../lib/ingest/bugLinks';
import { ingestPass, type PassSummary } from '../lib/ingest/pass';
import { takeIdleIndex } from '../lib/ingest/runReader';
import { replayConfig } from '../lib/replay/config';
import { ensureWorld, TEST_WORLD_END } from '../lib/replay/ensureWorld';
import { startReplayServer } from '../lib/replay/server';
import { insertMany } from '../lib/store/bulk';
import { closeDatabase, openDatabase, type Database } from '../lib/store/db';
import { joinComments } from '../lib/sources/trackerBug';
import { encodeTestSet, testSetHash } from '../lib/store/testSets';
import { makeRng } from './clustering';
import { emptyDatabase } from './database';

const { values } = parseArgs({ options: { pg: { type: 'string' }, rounds: { type: 'string', default: '5' }, signatures: { type: 'string', default: '50000' }, tests: { type: 'string', default: '30000' }, bugs: { type: 'string', default: '0' } } });
const WORDS = ('pod container namespace deployment failed timeout waiting for condition expected got error unable to connect route ingress operator degraded ' +
  'available progressing node ready image pull backoff crashloop etcd leader apiserver webhook admission denied quota exceeded volume mount attach detach').split(' ');

const PROSE = ('the cluster upgrade stalled while we were rolling out the new release and nobody could tell why it happened this time ' +
  'again after the last fix landed in master so please take a look when you have a moment thanks we also saw it on metal').split(' ');

/** History at scale, written straight through the bulk path. */
async function seedHistory(db: Database): Promise<void> {
  const r = makeRng(5);
  const text = (i: number) => {
    let s = `fail [github.com/openshift/origin/test/extended/${WORDS[Math.floor(r() * WORDS.length)]}.go:${Math.floor(r() * 900)}]: `;
    for (let k = 0; k < 40; k++) s += WORDS[Math.floor(r() * WORDS.length)] + (r() < 0.1 ? '\n' : ' ');
    return `${s}${i}`;
  };
  const start = TEST_WORLD_END.getTime() / 1000 - 60 * 86_400;
  const tests = Number(values.tests);
  await db.tx(async (sql) => {
    await insertMany(sql, 'test', ['hash', 'name', 'first_seen'], Array.from({ length: tests }, (_, i) => {
      const name = `[sig-history] behaviour ${i} seen in earlier weeks should hold [Suite:openshift/conformance/parallel]`;
      return [testId(name), name, start];
    }));
    const ids = (await sql.rows('SELECT id FROM test ORDER BY id')).map(([id]) => Number(id));
    await insertMany(sql, 'test_set', ['hash', 'size', 'members'], Array.from({ length: 5_000 }, (_, i) => {
      const members = encodeTestSet(Int32Array.from(ids.filter((_, k) => (k + i) % 97 !== 0).slice(0, 3_000)).sort());
      return [`${testSetHash(members)}${i}`, 3_000, members];
    }));
    await insertMany(sql, 'signature', ['hash', 'text', 'first_seen'], Array.from({ length: Number(values.signatures) }, (_, i) => [`history${i}`, text(i), start]));
    // bugs of 90 days: a summary, a description and a thread of comments in prose, a tenth of them
    // quoting a failure
    const prose = (n: number) => Array.from({ length: n }, () => PROSE[Math.floor(r() * PROSE.length)]).join(' ');
    await insertMany(sql, 'bug', ['tracker', 'bug_id', 'url', 'summary', 'status', 'description', 'comments', 'fetched_at'], Array.from({ length: Number(values.bugs) }, (_, i) => [
      'jira', `HIST-${i}`, `https://issues.example/browse/HIST-${i}`, prose(8), 'New',
      `${prose(300)}\n${i % 10 === 0 ? `Seen in CI:\n${text(Math.floor(r() * Number(values.signatures)))}\n` : ''}${prose(200)}`,
      joinComments(Array.from({ length: 8 }, () => prose(250))), start,
    ]));
  });
}

const world = await ensureWorld({ end: TEST_WORLD_END });
const server = await startReplayServer({ dir: world, deckWindowHours: 24 * 15 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
try {
  const targets = [{ label: 'sqlite', url: '' }, ...(values.pg ? [{ label: 'postgres', url: values.pg }] : [])];
  for (const t of targets) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-bench-passes-'));
    const url = t.url || `file:${path.join(tmp, 'passes.db')}`;
    let db = await openDatabase(url);
    if (t.label === 'postgres') await emptyDatabase(db);
    let t0 = performance.now();
    await seedHistory(db);
    console.log(`${t.label}: history of ${Number(values.tests).toLocaleString('en-US')} tests, 5,000 test sets and ${Number(values.signatures).toLocaleString('en-US')} signatures written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const workers of [0, 1]) {
      const config = validateConfig({ ...replayConfig(world, server.url), ingest: { workers } });
      t0 = performance.now();
      const first = await ingestPass({ config, db, morePasses: true });
      console.log(`${t.label}, ${first.parsedOn}: a first pass stored ${first.runsNew} runs in ${first.seconds.toFixed(2)} s`);
      const seconds = { kept: [] as number[], rebuilt: [] as number[] };
      for (let round = 1; round <= Number(values.rounds); round++) {
        for (const way of workers ? (['kept'] as const) : (['kept', 'rebuilt'] as const)) {
          if (way === 'rebuilt') {
            // what a pass that keeps nothing does: a new database object has nothing kept, and the
            // idle clustering index is dropped
            await closeDatabase(db);
            db = await openDatabase(url);
            takeIdleIndex('');
          }
          const s: PassSummary = await ingestPass({ config, db, morePasses: true });
          if (s.runsNew + s.runsUpdated) throw new Error('a pass found something new: the bench measures passes with nothing new');
          seconds[way].push(s.seconds);
          console.log(`round ${round}: ${t.label}, ${s.parsedOn}, ${way}: ${s.seconds.toFixed(3)} s (kept: ${JSON.stringify(s.kept)})`);
        }
      }
      if (!workers) {
        // a new test name: the kept linking indexes take it in, and look again at the signatures that hold it
        for (let k = 1; k <= 2; k++) {
          const name = `[sig-history] behaviour ${k} that appeared today should hold [Suite:openshift/conformance/parallel]`;
          await db.run('INSERT INTO test (hash, name, first_seen) VALUES (?, ?, ?)', [testId(name), name, Math.floor(Date.now() / 1000)]);
          t0 = performance.now();
          const kept = await relinkBugs(db);
          const keptSeconds = (performance.now() - t0) / 1000;
          await closeDatabase(db);
          db = await openDatabase(url);
          t0 = performance.now();
          await relinkBugs(db);
          console.log(`${t.label}: linking bugs after a new test: ${keptSeconds.toFixed(3)} s bringing the kept indexes up to date (kept: ${kept.indexesKept}), ${((performance.now() - t0) / 1000).toFixed(3)} s building them`);
        }
      }
      const rebuilt = seconds.rebuilt.length ? `, ${median(seconds.rebuilt).toFixed(3)} s reading and building them` : '';
      console.log(`${t.label}, ${first.parsedOn}: a pass with nothing new, median of ${values.rounds}: ${median(seconds.kept).toFixed(3)} s keeping what passes keep${rebuilt}`);
    }
    await closeDatabase(db);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
} finally {
  await server.close();
}
