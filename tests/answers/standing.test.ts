// Standing answers: what the ingester stores after a pass is what the answer would be, on every
// window tab, and is served only while the data, the ignored tests and the time it answers for stand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Budget } from '../../lib/budget';
import { causes, parseCausesQuery } from '../../lib/answers/causes';
import { hotlist, parseHotlistQuery, type Hotlist } from '../../lib/answers/hotlist';
import { refreshStandingAnswers, STANDING_MAX_AGE_S, STANDING_REFRESH_S, STANDING_WINDOWS, standingAnswer, standingReleases } from '../../lib/answers/standing';
import { runAnswer } from '../../lib/server/recentAnswers';
import { INDENTED_UP_TO_CHARS, jsonText } from '../../lib/server/jsonText';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { bumpDataVersion } from '../../lib/store/rollups';
import { TEST_WORLD_END } from '../../lib/replay/ensureWorld';
import { iso } from '../../lib/history/window';
import { worldDatabaseUrl } from '../helpers/world';
import { describeEachDatabase, freshDatabase, open } from '../helpers/databases';

let db: Database;
/** the stored views: every tab's hot list and two causes, and the same on 7d per release (the world has 4.1 and 4.2) */
const VIEWS = (STANDING_WINDOWS.length + 2) * 3;
const END = TEST_WORLD_END.getTime();
const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

beforeAll(async () => {
  // a copy: this test writes
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-standing-')), 'world.db');
  fs.copyFileSync((await worldDatabaseUrl()).slice('file:'.length), file);
  db = await openDatabase(`file:${file}`);
}, 600_000);
afterAll(async () => closeDatabase(db));

it('stores, for every window tab, the hot list and causes the answers compute', async () => {
  const first = await refreshStandingAnswers(db, undefined, END);
  expect(first).toMatchObject({ computed: VIEWS, kept: 0, errors: [] });
  const later = END + 60_000; // a minute after the pass
  for (const window of STANDING_WINDOWS) {
    const live = await hotlist(db, parseHotlistQuery({ window }, END), { budget: Budget.unlimited() });
    expect(live.items.length).toBeGreaterThan(5);
    expect(await standingAnswer(db, 'hotlist', { window }, undefined, later)).toEqual(asJson(live));
    // a shorter page is the first items, as computing it gives
    const five = await hotlist(db, parseHotlistQuery({ window, limit: '5' }, END));
    expect(await standingAnswer(db, 'hotlist', { window, limit: '5' }, undefined, later)).toEqual(asJson(five));
    for (const limit of ['8', '20']) {
      const liveCauses = await causes(db, parseCausesQuery({ window, limit }, END));
      expect(await standingAnswer(db, 'causes', { window, limit }, undefined, later)).toEqual(asJson(liveCauses));
    }
  }
  // the default window is 7d
  expect(((await standingAnswer(db, 'hotlist', {}, undefined, later)) as Hotlist).window).toBe('7d');
});

it('stores the 7d tab of each release, newest first, as its filtered answers compute', async () => {
  expect(await standingReleases(db)).toEqual(['4.2', '4.1']);
  await refreshStandingAnswers(db, undefined, END);
  const later = END + 60_000;
  for (const release of ['4.1', '4.2']) {
    const live = await hotlist(db, parseHotlistQuery({ window: '7d', release }, END), { budget: Budget.unlimited() });
    expect(live.items.length).toBeGreaterThan(3);
    expect(await standingAnswer(db, 'hotlist', { window: '7d', release }, undefined, later)).toEqual(asJson(live));
    const three = await hotlist(db, parseHotlistQuery({ release, limit: '3' }, END));
    expect(await standingAnswer(db, 'hotlist', { release, limit: '3' }, undefined, later)).toEqual(asJson(three));
    for (const limit of ['8', '20']) {
      const liveCauses = await causes(db, parseCausesQuery({ window: '7d', limit, release }, END));
      expect(await standingAnswer(db, 'causes', { window: '7d', limit, release }, undefined, later)).toEqual(asJson(liveCauses));
    }
  }
  // the two releases' lists differ: each is its own answer, not the unfiltered one
  const [a, b] = await Promise.all(['4.1', '4.2'].map((release) => standingAnswer(db, 'hotlist', { window: '7d', release }, undefined, later) as Promise<Hotlist>));
  expect(a.items.map((i) => i.id)).not.toEqual(b.items.map((i) => i.id));
});

it('stands for as many releases as configured, and no longer for a release left out', async () => {
  const later = END + 60_000;
  const stored = async () => Number((await db.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM standing_answer'))!.n);
  const one = await refreshStandingAnswers(db, undefined, END, 1);
  expect(one.computed + one.kept).toBe((STANDING_WINDOWS.length + 1) * 3);
  expect(await stored()).toBe((STANDING_WINDOWS.length + 1) * 3);
  expect(await standingAnswer(db, 'hotlist', { release: '4.2' }, undefined, later)).toBeDefined();
  expect(await standingAnswer(db, 'hotlist', { release: '4.1' }, undefined, later)).toBeUndefined();
  const none = await refreshStandingAnswers(db, undefined, END, 0);
  expect(none.computed + none.kept).toBe(STANDING_WINDOWS.length * 3);
  expect(await standingAnswer(db, 'hotlist', { release: '4.2' }, undefined, later)).toBeUndefined();
  expect(await standingAnswer(db, 'causes', { release: '4.2', limit: '8' }, undefined, later)).toBeUndefined();
  expect(await stored()).toBe(STANDING_WINDOWS.length * 3);
});

it('is not served for a filter, a time, a longer page or a window beyond the tabs', async () => {
  await refreshStandingAnswers(db, undefined, END);
  const later = END + 60_000;
  for (const params of [{ window: '7d', job: 'e2e' }, { window: '7d', at: TEST_WORLD_END.toISOString() }, { window: '7d', limit: '101' }, { window: '30d' }, { window: '7d', classification: 'flaky' }, { window: '7d', sort: 'severity' }, { window: '7d', noBug: 'true' }, { window: 'bogus' }]) {
    expect(await standingAnswer(db, 'hotlist', params, undefined, later), JSON.stringify(params)).toBeUndefined();
  }
  expect(await standingAnswer(db, 'causes', { window: '7d', limit: '9' }, undefined, later)).toBeUndefined();
  // a release stands on 7d only, alone, and only a release the jobs name
  for (const params of [{ window: '24h', release: '4.2' }, { window: '7d', release: '4.2', platform: 'aws' }, { window: '7d', release: '4.3' }]) {
    expect(await standingAnswer(db, 'hotlist', params, undefined, later), JSON.stringify(params)).toBeUndefined();
  }
  expect(await standingAnswer(db, 'causes', { window: '24h', limit: '8', release: '4.2' }, undefined, later)).toBeUndefined();
  expect(await standingAnswer(db, 'causes', { window: '7d', limit: '8', release: '4.2', job: 'e2e' }, undefined, later)).toBeUndefined();
  expect(await standingAnswer(db, 'test', { id: 'x' }, undefined, later)).toBeUndefined();
});

it('stands while the data, the ignored tests and its time stand; a pass computes again only what moved', async () => {
  await refreshStandingAnswers(db, undefined, END);
  const q = { window: '24h' };
  expect(await standingAnswer(db, 'hotlist', q, undefined, END + (STANDING_MAX_AGE_S - 1) * 1000)).toBeDefined();
  expect(await standingAnswer(db, 'hotlist', q, undefined, END + (STANDING_MAX_AGE_S + 1) * 1000)).toBeUndefined();
  expect(await standingAnswer(db, 'hotlist', q, ['.*'], END)).toBeUndefined();

  // a pass that changed nothing soon after: nothing to compute
  expect(await refreshStandingAnswers(db, undefined, END + 60_000)).toMatchObject({ computed: 0, kept: VIEWS });
  // one that came later: the windows have slid, every answer is computed again
  expect(await refreshStandingAnswers(db, undefined, END + STANDING_REFRESH_S * 1000)).toMatchObject({ computed: VIEWS, kept: 0 });

  await bumpDataVersion(db, []); // what every write of runs does
  expect(await standingAnswer(db, 'hotlist', q, undefined, END + STANDING_REFRESH_S * 1000)).toBeUndefined();
  expect(await refreshStandingAnswers(db, undefined, END + STANDING_REFRESH_S * 1000)).toMatchObject({ computed: VIEWS });

  const bug = await db.get<{ id: number }>('SELECT id FROM bug ORDER BY id LIMIT 1');
  await db.run("INSERT INTO bug_link (bug_pk, test_hash, signature_hash, reason, manual, removed, created_at) VALUES (?, 'abc', '', 'by hand', 1, 0, 0)", [bug!.id]);
  expect(await standingAnswer(db, 'hotlist', q, undefined, END + STANDING_REFRESH_S * 1000)).toBeUndefined();
});

it('is what the server answers for now, its `to` the time of the pass', async () => {
  const summary = await refreshStandingAnswers(db, undefined);
  expect(summary.errors).toEqual([]);
  const stored = await db.get<{ at: unknown }>("SELECT at FROM standing_answer WHERE view = 'hotlist:14d'");
  const served = (await runAnswer('hotlist', db, { window: '14d', limit: '3' }, { budget: Budget.unlimited(), config: undefined })) as Hotlist;
  expect(served.to).toBe(iso(Number(stored!.at)));
  expect(served.items.length).toBeLessThanOrEqual(3);
});

describeEachDatabase('standing answers stored', (kind) => {
  it('are written, served and replaced on this engine', async () => {
    const t = await freshDatabase(kind);
    const fresh = await open(t);
    try {
      // no runs yet, one job naming a release: every tab, and 7d for 4.16
      await fresh.run('INSERT INTO job (name, first_seen) VALUES (?, 0)', ['periodic-ci-openshift-release-master-nightly-4.16-e2e-aws-ovn']);
      const views = STANDING_WINDOWS.length * 3 + 3;
      expect(await refreshStandingAnswers(fresh, undefined, END)).toMatchObject({ computed: views, errors: [] });
      const live = await hotlist(fresh, parseHotlistQuery({ window: '14d' }, END));
      expect(await standingAnswer(fresh, 'hotlist', { window: '14d' }, undefined, END)).toEqual(asJson(live));
      const release = await hotlist(fresh, parseHotlistQuery({ release: '4.16' }, END));
      expect(await standingAnswer(fresh, 'hotlist', { release: '4.16' }, undefined, END)).toEqual(asJson(release));
      await bumpDataVersion(fresh, []);
      expect(await standingAnswer(fresh, 'hotlist', { window: '14d' }, undefined, END)).toBeUndefined();
      expect(await refreshStandingAnswers(fresh, undefined, END)).toMatchObject({ computed: views, kept: 0 });
      expect(await standingAnswer(fresh, 'hotlist', { window: '14d' }, undefined, END)).toEqual(asJson(live));
      expect(Number((await fresh.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM standing_answer'))!.n)).toBe(views);
    } finally {
      await closeDatabase(fresh);
      await t.drop();
    }
  });
});

it('goes to a route as the stored text, and to a page as the answer', async () => {
  await refreshStandingAnswers(db, undefined);
  const ctx = { budget: Budget.unlimited(), config: undefined };
  const text = jsonText(await runAnswer('hotlist', db, { window: '7d' }, ctx, { json: true }));
  const page = await runAnswer('hotlist', db, { window: '7d' }, ctx);
  expect(JSON.parse(text)).toEqual(page);
  expect(text).toBe(text.length > INDENTED_UP_TO_CHARS ? `${JSON.stringify(page)}\n` : `${JSON.stringify(page, null, 2)}\n`);
});
