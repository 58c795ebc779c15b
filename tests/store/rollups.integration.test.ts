// The rollups stay exact through everything that writes runs: a pass, a second pass, runs read again
// and replaced, retention, and runs stored again after it; on SQLite and PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import type { Database } from '../../lib/store/db';
import { testJobDays } from '../../lib/history/rollupWindow';
import { DAY } from '../../lib/history/spans';
import { pruneRunsBefore } from '../../lib/store/retention';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';
import { expectRollupsExact } from '../helpers/rollups';
import { configFor, replay, sampleWorld, type Truth } from '../helpers/world';

/**
 * The tests' failures per job and day as the answers read them (whole days kept in memory per day
 * version, lib/history/dayCache.ts) against the runs themselves: a write to a day must reach them.
 */
let range: { tests: number[]; from: number; to: number } | undefined;
async function expectAnswersSeeRuns(db: Database): Promise<void> {
  if (!range) {
    // the same tests and days each time: those the first pass stored
    const tests = (await db.rows('SELECT test_id FROM test_outcome GROUP BY test_id ORDER BY COUNT(*) DESC LIMIT 60')).map((r) => Number(r[0]));
    const [span] = await db.rows('SELECT MIN(started), MAX(started) FROM run');
    range = { tests, from: Math.floor(Number(span[0]) / DAY) * DAY, to: Math.ceil((Number(span[1]) + 1) / DAY) * DAY };
  }
  const { tests, from, to } = range;
  const got = new Map<string, number>();
  (await testJobDays(db, tests, from, to)).each((t, j, start, failed) => {
    if (failed) got.set(`${t}|${j}|${Math.floor(start / DAY)}`, failed);
  });
  const want = new Map<string, number>();
  const rows = await db.rows(`SELECT test_id, job_id, started / ${DAY}, COUNT(*) FROM test_outcome WHERE outcome = 1 AND test_id IN (${tests.join(', ')}) AND started >= ? AND started < ? GROUP BY test_id, job_id, started / ${DAY}`, [from, to]);
  for (const [t, j, d, n] of rows) want.set(`${t}|${j}|${d}`, Number(n));
  expect(got).toEqual(want);
}

describeEachDatabase('rollups', (kind) => {
  beforeAll(() => void (range = undefined));
  let world: { dir: string; truth: Truth };
  let server: ReplayServer;
  let target: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    world = await sampleWorld();
    server = await replay(world.dir);
    target = await freshDatabase(kind);
    db = await open(target);
  });
  afterAll(async () => {
    await server?.close();
    if (db) await closeDatabase(db);
    await target?.drop();
  });

  it('count exactly what the runs of a pass hold, and a second pass changes nothing', async () => {
    const config = configFor(world.dir, server.url);
    await ingestPass({ config, db });
    await expectRollupsExact(db);
    await expectAnswersSeeRuns(db);
    const total = await db.get<{ n: number }>('SELECT SUM(failed) AS n FROM rollup_test_total');
    expect(Number(total?.n)).toBe(world.truth.testResults.failed);
    const runs = await db.get<{ n: number }>('SELECT SUM(runs) AS n FROM rollup_run_day');
    expect(Number(runs?.n)).toBe(world.truth.runs.finished);
    await ingestPass({ config, db });
    await expectRollupsExact(db);
  }, 300_000);

  it('take away what retention prunes, and count the runs again when they are stored again', async () => {
    const before = await db.rows('SELECT day, test_id, job_id, failed, flaked FROM rollup_test_day ORDER BY test_id, day, job_id');
    const mid = (world.truth as unknown as { endUnix: number }).endUnix - 7 * 86_400 + 3 * 3600;
    const pruned = await pruneRunsBefore(db, mid);
    expect(pruned.runs).toBeGreaterThan(100);
    await expectRollupsExact(db);
    await expectAnswersSeeRuns(db); // the days kept in memory before pruning are read again
    const left = await db.get<{ n: number }>('SELECT MIN(day) AS n FROM rollup_run_day WHERE runs > 0');
    expect(Number(left?.n)).toBe(Math.floor(mid / 86_400));
    // the next pass as a new process runs it (the passes of one process keep what they stored)
    await closeDatabase(db);
    db = await open(target);
    await ingestPass({ config: configFor(world.dir, server.url), db });
    await expectRollupsExact(db);
    await expectAnswersSeeRuns(db);
    expect(await db.rows('SELECT day, test_id, job_id, failed, flaked FROM rollup_test_day WHERE failed + flaked > 0 ORDER BY test_id, day, job_id')).toEqual(before.filter((r) => Number(r[3]) + Number(r[4]) > 0));
  }, 300_000);
});
