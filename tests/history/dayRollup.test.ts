// Per-day rollups summed over any range equal the same sums over the runs themselves: whole days, a
// partial day read from its runs, a partial day read as its rollup less the rest of the day, a range
// inside one day, and "now" (the rest of the day empty) on the sample world. A cause's examples over
// the same ranges are its newest outcomes as a full sort gives them, ties and all.
import { beforeAll, describe, expect, it } from 'vitest';
import { causeExamples, causeJobDays } from '../../lib/history/causeWindow';
import { runCells, testJobDays, testSignaturePairs, testTotals } from '../../lib/history/rollupWindow';
import { DAY, HOUR } from '../../lib/history/spans';
import { openDatabase, type Database } from '../../lib/store/db';
import { TEST_WORLD_END, worldDatabaseUrl } from '../helpers/world';

const end = Math.floor(TEST_WORLD_END.getTime() / 1000);
const today = Math.floor((end - 1) / DAY) * DAY;
let db: Database;
let tests: number[];
let sigs: number[];
let latest: number;

/** [label, from, to] */
const ranges = (): [string, number, number][] => [
  ['now, a week', end - 7 * DAY, end],
  ['now, the day so far', today, end],
  ['a week to a past hour', end - 7 * DAY + 3 * HOUR + 17 * 60, end - 29 * HOUR - 5 * 60],
  ['most of one day (the day less its rest)', today - 3 * DAY + 2 * HOUR, today - 3 * DAY + 21 * HOUR],
  ['a little of one day (its runs)', today - 2 * DAY + 7 * HOUR, today - 2 * DAY + 9 * HOUR + 30 * 60],
  ['whole days', today - 6 * DAY, today - 2 * DAY],
  ['a day to a past half hour, its hours across midnight (a 24h window)', today - 2 * DAY + 9 * HOUR + 30 * 60, today - DAY + 8 * HOUR + 30 * 60],
  ['a few hours across midnight', today - DAY + 20 * HOUR + 10 * 60, today + 3 * HOUR + 50 * 60],
  ['after the last run', latest + 1, latest + 2 * HOUR],
];

const BROKEN = '(r.install_failed = 1 OR r.failed >= 20)';

beforeAll(async () => {
  db = await openDatabase(await worldDatabaseUrl());
  tests = (await db.rows('SELECT test_id FROM test_outcome GROUP BY test_id ORDER BY COUNT(*) DESC LIMIT 40')).map((r) => Number(r[0]));
  sigs = (await db.rows('SELECT signature_id FROM test_outcome WHERE signature_id IS NOT NULL GROUP BY signature_id ORDER BY COUNT(*) DESC LIMIT 40')).map((r) => Number(r[0]));
  latest = Number((await db.rows('SELECT MAX(started) FROM run'))[0][0]);
}, 300_000);

/** Rows keyed by their first columns with the values summed, zeros left out: comparable either way. */
function summed(rows: number[][], keyLength: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const r of rows) {
    const k = r.slice(0, keyLength).join('|');
    const v = (out[k] ??= r.slice(keyLength).map(() => 0));
    r.slice(keyLength).forEach((x, i) => (v[i] += x));
  }
  for (const [k, v] of Object.entries(out)) if (v.every((x) => x === 0)) delete out[k];
  return out;
}

const num = (rows: unknown[][]) => rows.map((r) => r.map(Number));
const idList = (ids: number[]) => ids.join(', ');

describe('day rollups over any range', () => {
  it('hold what the runs hold for tests per job and day', async () => {
    for (const [label, from, to] of ranges()) {
      const got: number[][] = [];
      const starts: number[] = [];
      (await testJobDays(db, tests, from, to)).each((t, j, start, f, fl, fb, flb) => {
        got.push([t, j, Math.floor(start / DAY), f, fl, fb, flb]);
        starts.push(start);
      });
      const want = num(await db.rows(
        `SELECT o.test_id, o.job_id, o.started / ${DAY}, SUM(CASE WHEN o.outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN o.outcome = 2 THEN 1 ELSE 0 END),
                SUM(CASE WHEN o.outcome = 1 AND ${BROKEN} THEN 1 ELSE 0 END), SUM(CASE WHEN o.outcome = 2 AND ${BROKEN} THEN 1 ELSE 0 END)
         FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.test_id IN (${idList(tests)}) AND o.started >= ? AND o.started < ? GROUP BY o.test_id, o.job_id, o.started / ${DAY}`,
        [from, to],
      ));
      expect(summed(got, 3), label).toEqual(summed(want, 3));
      if (label.startsWith('now') || label.startsWith('most')) expect(want.length, label).toBeGreaterThan(0);
      // every bucket starts inside the range
      for (const start of starts) expect(start >= from && start < to, label).toBe(true);
    }
  });

  it("hold what the runs hold for tests' totals: every test or a few, of every job or some", async () => {
    const jobs = (await db.rows('SELECT id FROM job ORDER BY id')).map((r) => Number(r[0]));
    const some = new Set(jobs.filter((_, i) => i % 3 === 0));
    for (const [label, from, to] of ranges()) {
      for (const [jobLabel, allowed] of [['all jobs', null], ['a third of the jobs', some]] as const) {
        for (const only of [undefined, tests.slice(0, 15)]) {
          const what = `${label}, ${jobLabel}, ${only ? 'a few tests' : 'every test'}`;
          const got = [...(await testTotals(db, from, to, allowed, only))].map(([t, c]) => [t, c.failed, c.flaked]);
          const where = [allowed ? `job_id IN (${idList([...allowed])})` : '1 = 1', only ? `test_id IN (${idList(only)})` : '1 = 1'].join(' AND ');
          const want = num(await db.rows(`SELECT test_id, SUM(CASE WHEN outcome = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 2 THEN 1 ELSE 0 END) FROM test_outcome WHERE started >= ? AND started < ? AND ${where} GROUP BY test_id`, [from, to]));
          expect(summed(got, 1), what).toEqual(summed(want, 1));
          if (label.startsWith('now') || label.startsWith('most')) expect(want.length, what).toBeGreaterThan(0);
        }
      }
    }
  });

  it('hold what the runs hold for runs per job, test set and day or hour', async () => {
    for (const [label, from, to] of ranges()) {
      for (const bucket of [DAY, HOUR] as const) {
        const got = (await runCells(db, from, to, bucket)).map((c) => [c.jobId, c.setId, c.at, c.runs, c.broken]);
        const want = num(await db.rows(
          `SELECT r.job_id, COALESCE(r.test_set_id, 0), (r.started / ${bucket}) * ${bucket}, COUNT(*), SUM(CASE WHEN ${BROKEN} THEN 1 ELSE 0 END) FROM run r WHERE r.started >= ? AND r.started < ? GROUP BY r.job_id, COALESCE(r.test_set_id, 0), r.started / ${bucket}`,
          [from, to],
        ));
        expect(summed(got, 3), `${label}, ${bucket === DAY ? 'days' : 'hours'}`).toEqual(summed(want, 3));
      }
    }
  });

  it('hold what the runs hold for test and signature pairs, either way round', async () => {
    for (const [label, from, to] of ranges()) {
      const pairs = await testSignaturePairs(db, 'test_id', tests, from, to);
      const got = [...pairs].flatMap(([t, m]) => [...m].map(([s, n]) => [t, s, n]));
      const want = num(await db.rows(`SELECT test_id, signature_id, COUNT(*) FROM test_outcome WHERE test_id IN (${idList(tests)}) AND signature_id IS NOT NULL AND started >= ? AND started < ? GROUP BY test_id, signature_id`, [from, to]));
      expect(summed(got, 2), label).toEqual(summed(want, 2));
      const bySig = await testSignaturePairs(db, 'signature_id', sigs, from, to);
      const wantBySig = num(await db.rows(`SELECT signature_id, test_id, COUNT(*) FROM test_outcome WHERE signature_id IN (${idList(sigs)}) AND started >= ? AND started < ? GROUP BY signature_id, test_id`, [from, to]));
      expect(summed([...bySig].flatMap(([s, m]) => [...m].map(([t, n]) => [s, t, n])), 2), label).toEqual(summed(wantBySig, 2));
    }
  });

  it("hold what the runs hold for signatures' runs per job and day", async () => {
    for (const [label, from, to] of ranges()) {
      const got = (await causeJobDays(db, sigs, from, to)).map(([s, j, d, r, f]) => [s, j, Math.floor(d / DAY), r, f]);
      const want = num(await db.rows(
        `SELECT signature_id, job_id, started / ${DAY}, SUM(CASE WHEN worst = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN worst = 2 THEN 1 ELSE 0 END)
         FROM (SELECT run_id, signature_id, MIN(outcome) AS worst, MIN(started) AS started, MIN(job_id) AS job_id FROM test_outcome
               WHERE signature_id IN (${idList(sigs)}) AND started >= ? AND started < ? GROUP BY run_id, signature_id) x
         GROUP BY signature_id, job_id, started / ${DAY}`,
        [from, to],
      ));
      expect(summed(got, 3), label).toEqual(summed(want, 3));
    }
  });

  it("gives a signature's newest outcomes, those of one start by run then test, as a full sort of them would", async () => {
    const idOf = new Map((await db.rows('SELECT id, name FROM test')).map(([id, name]) => [String(name), Number(id)]));
    let tied = 0;
    for (const [label, from, to] of ranges()) {
      for (const sig of sigs.slice(0, 10)) {
        const all = num(await db.rows('SELECT started, run_id, test_id FROM test_outcome WHERE signature_id = ? AND started >= ? AND started < ?', [sig, from, to]));
        all.sort((a, b) => b[0] - a[0] || b[1] - a[1] || a[2] - b[2]);
        const want = all.slice(0, 5);
        if (want.some((r, i) => i > 0 && r[0] === want[i - 1][0])) tied++;
        const got = (await causeExamples(db, sig, from, to, 5)).map((e) => [Number(e.started), idOf.get(e.test)]);
        expect(got, `${label}, signature ${sig}`).toEqual(want.map(([started, , test]) => [started, test]));
      }
    }
    expect(tied).toBeGreaterThan(0); // mass failures: outcomes of one run share its start
  });
});
