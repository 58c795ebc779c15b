// A test's failed and flaked runs a page at a time (`limit`, `before`): following runsNext from the
// newest page lists every run of the window once, in order, also where runs of different jobs started
// in the same second and a page would end between them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseTestQuery, testDetail } from '../../lib/answers/testDetail';
import { iso } from '../../lib/history/window';
import type { Database } from '../../lib/store/db';
import { generateScaleDatabase } from '../../bench/scaleWorld';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';

const END = Date.UTC(2026, 10, 20) / 1000;
const at = iso(END);
const key = (r: { job: string; buildId: string }) => `${r.job}#${r.buildId}`;

describeEachDatabase('test runs, a page at a time', (kind) => {
  let t: TestDatabase;
  let db: Database;
  let top: string;
  let all: Awaited<ReturnType<typeof testDetail>>['runs'];

  beforeAll(async () => {
    t = await freshDatabase(kind);
    db = await open(t);
    // a day of 10,000 runs of 300 tests over 40 jobs: a test failing in a few thousand of them shares
    // seconds with runs of other jobs
    await generateScaleDatabase(db, { days: 1, runsPerDay: 10_000, tests: 300, jobs: 40, end: END });
    const row = await db.get<{ name: string }>('SELECT t.name FROM test_outcome o JOIN test t ON t.id = o.test_id GROUP BY t.name ORDER BY COUNT(*) DESC LIMIT 1');
    top = row!.name;
    const d = await testDetail(db, top, parseTestQuery({ window: '24h', at, limit: '10000' }));
    all = d.runs;
    expect(d.runsNext).toBeNull();
    expect(all.length).toBe(d.runsTotal);
  }, 300_000);
  afterAll(async () => {
    await closeDatabase(db);
    await t.drop();
  });

  it('has runs that started in the same second', () => {
    expect(all.some((r, i) => i > 0 && r.started === all[i - 1].started)).toBe(true);
  });

  it('lists every run once, newest first, following runsNext, for pages ending inside a second', async () => {
    // a page size that ends the first page between two runs of the same second
    const tie = all.findIndex((r, i) => i > 0 && r.started === all[i - 1].started);
    for (const limit of [tie, 50, 400]) {
      const seen: string[] = [];
      let before: string | undefined;
      let pages = 0;
      for (;;) {
        const d = await testDetail(db, top, parseTestQuery({ window: '24h', at, limit: String(limit), before }));
        expect(d.runs.length, `page ${pages} of ${limit}`).toBeGreaterThan(0);
        seen.push(...d.runs.map(key));
        pages++;
        if (!d.runsNext) break;
        // a page takes a whole second: the next starts before its last run's second
        expect(d.runsNext).toBe(d.runs[d.runs.length - 1].started);
        before = d.runsNext;
      }
      expect(seen, `pages of ${limit}`).toEqual(all.map(key));
      expect(pages).toBeGreaterThanOrEqual(Math.floor(all.length / (limit + 5)));
    }
  }, 120_000);
});
