// Day packs (lib/store/dayPacks.ts): each pack holds exactly its day's rollup rows; the answers read
// from packs (hot lists of all jobs and of one release, causes, test pages) equal the answers read
// from the rollups; a day written after it was packed is read from
// the rollup until it is packed again, and the next packing forgets days pruned whole;
// packing waits for a day to be over and stops at its budget.
// On SQLite and PostgreSQL, on the ingested sample world.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadJobs } from '../../lib/history/jobs';
import { testTotals } from '../../lib/history/rollupWindow';
import type { Database } from '../../lib/store/db';
import { decodeCells, packDays, PACK_AFTER_S, PACKED_ROLLUPS, readPacks } from '../../lib/store/dayPacks';
import { DAY, dayVersions } from '../../lib/store/rollups';
import { pruneRunsBefore } from '../../lib/store/retention';
import { answersJson } from '../helpers/answers';
import { describeEachDatabase } from '../helpers/databases';
import { freshWorldDatabase, TEST_WORLD_END } from '../helpers/world';

const END = Math.floor(TEST_WORLD_END.getTime() / 1000);
/** A release's failed and flaked runs per test, as the filtered ranking reads them and as the outcomes hold them. */
async function expectJobTotalsExact(db: Database): Promise<void> {
  const jobs = await loadJobs(db);
  const release = jobs.find((j) => j.release)!.release;
  const ids = new Set(jobs.filter((j) => j.release === release).map((j) => j.id));
  for (const [from, to] of [[END - 7 * DAY, END], [END - 9 * DAY - 7 * 3600 - 125, END - 2 * DAY + 3 * 3600 + 17]]) {
    const got = new Map([...(await testTotals(db, from, to, ids))].filter(([, c]) => c.failed + c.flaked > 0));
    const rows = await db.rows(`SELECT test_id, SUM(CASE WHEN outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 2 THEN 1 ELSE 0 END) FROM test_outcome WHERE started >= ? AND started < ? AND job_id IN (${[...ids].join(', ')}) GROUP BY test_id`, [from, to]);
    expect(got.size).toBeGreaterThan(10);
    expect(got).toEqual(new Map(rows.map(([t, f, fl]) => [Number(t), { failed: Number(f), flaked: Number(fl) }])));
  }
}

describeEachDatabase('day packs', (kind) => {
  let target: Awaited<ReturnType<typeof freshWorldDatabase>>;
  let db: Database;
  let unpacked: string;
  beforeAll(async () => {
    target = await freshWorldDatabase(kind);
    db = target.db;
    unpacked = await answersJson(target.url);
    await expectJobTotalsExact(db);
  }, 300_000);
  afterAll(async () => {
    await target?.drop();
  });

  it('packs only the days over, newest first within its budget, each exactly as its rollup holds it', async () => {
    const days = [...(await dayVersions(db)).keys()];
    const over = (now: number) => days.filter((d) => (d + 1) * DAY + PACK_AFTER_S <= now).length * PACKED_ROLLUPS.length;
    expect(await packDays(db, { now: END, budgetMs: 0 })).toMatchObject({ packed: 0, standing: 0, waiting: over(END), errors: [] });
    // the day before END is not over by PACK_AFTER_S yet at END
    const first = await packDays(db, { now: END });
    expect(first).toMatchObject({ packed: over(END), waiting: 0, errors: [] });
    expect(over(END)).toBeLessThan(days.length * PACKED_ROLLUPS.length);
    const later = END + 2 * DAY;
    expect(await packDays(db, { now: later })).toMatchObject({ packed: over(later) - over(END), standing: over(END), errors: [] });
    expect(await packDays(db, { now: later })).toMatchObject({ packed: 0, standing: over(later) });

    for (const r of PACKED_ROLLUPS) {
      const rows = await db.rows(`SELECT ${r.columns.join(', ')} FROM ${r.table}`);
      const want = rows.map((row) => row.map(Number).join('|')).sort();
      const packs = await db.rows('SELECT id, day, cells FROM day_pack WHERE rollup = ?', [r.name]);
      const got: string[] = [];
      for (const [id, day, cells] of packs) {
        const flat = decodeCells(cells as Uint8Array, r.columns.length, Number(id), Number(day));
        for (let i = 0; i < flat.length; i += r.columns.length) got.push([...flat.subarray(i, i + r.columns.length)].join('|'));
      }
      expect(got.sort(), r.name).toEqual(want);
    }
  });

  it('reads no pack of an earlier format: the day is packed again', async () => {
    const [[key, value]] = await db.rows("SELECT key, value FROM kv WHERE key >= 'day_pack:' AND key < 'day_pack;' ORDER BY key LIMIT 1");
    const [name, day] = [String(key).slice('day_pack:'.length, String(key).lastIndexOf(':')), Number(String(key).split(':').pop())];
    const rollup = PACKED_ROLLUPS.find((r) => r.name === name)!;
    const ids = (await db.rows('SELECT id FROM day_pack WHERE rollup = ? AND day = ?', [name, day])).map(([id]) => Number(id));
    expect((await readPacks(db, rollup, ids, day, day + 1, await dayVersions(db))).days.has(day)).toBe(true);
    // a pack written before its format was recorded stands for the bare day version
    await db.run('UPDATE kv SET value = ? WHERE key = ?', [(await dayVersions(db)).get(day)!, key as string]);
    expect((await readPacks(db, rollup, ids, day, day + 1, await dayVersions(db))).days.size).toBe(0);
    expect(await packDays(db, { now: END + 2 * DAY })).toMatchObject({ packed: 1, errors: [] });
    expect((await db.rows('SELECT value FROM kv WHERE key = ?', [key as string]))[0][0]).toBe(value);
    expect((await readPacks(db, rollup, ids, day, day + 1, await dayVersions(db))).days.has(day)).toBe(true);
  });

  it('gives the same answers read from the packs as from the rollups', async () => {
    const ids = (await db.rows('SELECT DISTINCT test_id FROM rollup_test_day')).map(([id]) => Number(id));
    const read = await readPacks(db, PACKED_ROLLUPS[0], ids, Math.floor(END / DAY) - 14, Math.floor(END / DAY), await dayVersions(db));
    expect(read.days.size).toBe(14); // every day of the lookback is read from packs
    expect(await answersJson(target.url)).toBe(unpacked);
    await expectJobTotalsExact(db);
  }, 120_000);

  it('reads a day written after it was packed from its rollup until it is packed again', async () => {
    // retention takes the first hours of a packed day away: that day changes, its packs no longer stand
    const cut = Math.floor((END - 10 * DAY) / DAY) * DAY + 7 * 3600;
    expect((await pruneRunsBefore(db, cut)).runs).toBeGreaterThan(0);
    const pruned = await answersJson(target.url);
    expect(pruned).not.toBe(unpacked);
    // the next packing forgets the days pruned whole (their packs and what kv records of them), and
    // packs the cut day again
    const cutDay = Math.floor(cut / DAY);
    const packsBefore = async () => Number((await db.rows('SELECT COUNT(*) FROM day_pack WHERE day < ?', [cutDay]))[0][0]);
    const keysBefore = async () =>
      (await db.rows("SELECT key FROM kv WHERE (key >= 'day_pack:' AND key < 'day_pack;') OR (key >= 'rollup_day:' AND key < 'rollup_day;')")).filter(([k]) => Number(String(k).split(':').pop()) < cutDay);
    expect(await packsBefore()).toBeGreaterThan(0);
    const prunedDays = [...(await dayVersions(db)).keys()].filter((d) => d < cutDay).length;
    expect(prunedDays).toBeGreaterThan(0);
    const repacked = await packDays(db, { now: END + 2 * DAY });
    expect(repacked).toMatchObject({ packed: PACKED_ROLLUPS.length, forgotten: prunedDays, waiting: 0, errors: [] }); // the cut day's packs, no more
    expect(repacked.standing + repacked.packed).toBe((await dayVersions(db)).size * PACKED_ROLLUPS.length);
    expect(await packsBefore()).toBe(0);
    expect(await keysBefore()).toEqual([]);
    expect(await answersJson(target.url)).toBe(pruned);
    expect(await packDays(db, { now: END + 2 * DAY })).toMatchObject({ packed: 0, forgotten: 0 });
    await db.run("DELETE FROM kv WHERE key >= 'day_pack:' AND key < 'day_pack;'");
    expect(await answersJson(target.url)).toBe(pruned); // the same with no pack at all
    expect((await packDays(db, { now: END + 2 * DAY })).packed).toBeGreaterThan(0);
    expect(await answersJson(target.url)).toBe(pruned);
  }, 180_000);
});
