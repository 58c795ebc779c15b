// Causes on the sample world: the mass failure is one cause with exactly its runs and tests, near the
// top, a regression of its release; its tests fold into its row; the flake overlapping it keeps its
// own verdict; the signature page tells its story with a real example.
import { beforeAll, describe, expect, it } from 'vitest';
import { causes, collapseMassFailures, type Causes } from '../../lib/answers/causes';
import { hotlist, type Hotlist } from '../../lib/answers/hotlist';
import { signatureDetail } from '../../lib/answers/signature';
import { openDatabase, type Database } from '../../lib/store/db';
import { sampleWorld, TEST_WORLD_END, worldDatabaseUrl, type Truth } from '../helpers/world';

const at = Math.floor(TEST_WORLD_END.getTime() / 1000);
let db: Database;
let truth: Truth;
let week: Causes;
let list: Hotlist;
const incident = () => week.causes.find((c) => /unable to handle the request/.test(c.text))!;

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
  db = await openDatabase(await worldDatabaseUrl());
  week = await causes(db, { window: '7d', at, limit: 20 });
  list = await hotlist(db, { window: '7d', at, limit: 10_000 });
}, 300_000);

describe('causes', () => {
  it('makes the mass failure one cause with exactly its runs and tests, ranked first or second', async () => {
    const m = truth.scenarios.massIncident;
    const c = incident();
    expect(c).toBeDefined();
    expect(c.runs).toBe(m.runs.length);
    expect(c.tests).toBe(m.tests.length);
    expect(c.testNames.map((t) => t.test).sort()).toEqual(m.tests);
    expect(c.mass).toBe(true);
    expect(c.kind).toBe('signature');
    expect(week.causes.indexOf(c)).toBeLessThanOrEqual(1);
    const day = await causes(db, { window: '24h', at, limit: 5 });
    expect(day.causes.findIndex((x) => x.id === c.id)).toBeLessThanOrEqual(1);
  });

  it("judges the mass failure a regression of its release from its payload, not infra", () => {
    const e = incident().evidence as Record<string, any>;
    expect(incident().classification).toBe('regression');
    expect(e.changedIn.some((s: string) => s.startsWith('4.2'))).toBe(true);
    expect(e.changedIn.some((s: string) => s.startsWith('4.1'))).toBe(false);
    // on the grid of UTC days: the day the incident's payload came
    expect(Math.floor(Date.parse(e.changeAt) / 1000 / 86_400)).toBe(Math.floor(truth.scenarios.massIncident.startAt / 86_400));
  });

  it('ranks by the runs taken down, gives examples with raw text, and the install step failures a cause of their own', () => {
    const runs = week.causes.map((c) => c.runs);
    expect(runs).toEqual([...runs].sort((a, b) => b - a));
    for (const c of week.causes) {
      expect(c.examples.length).toBeGreaterThan(0);
      expect(c.examples[0].message).not.toMatch(/UNIQ\d|DURATION/);
    }
    expect(week.causes.some((c) => c.kind === 'install')).toBe(true);
  });

  it('folds the mass failure\'s tests into one row, keeping the long-lived flake and every other test apart', () => {
    const rows = collapseMassFailures(list.items, week);
    const folded = rows.find((r) => r.kind === 'cause' && r.cause.id === incident().id);
    expect(folded && folded.kind === 'cause' && folded.items.length).toBeGreaterThan(50);
    // every test folded failed with mass failures only
    for (const r of rows) if (r.kind === 'cause') for (const it of r.items) expect(it.classification, it.test).toBe('infra');
    const flake = list.items.find((i) => i.test === truth.scenarios.flaky.test)!;
    expect(rows.some((r) => r.kind === 'test' && r.item.id === flake.id)).toBe(true);
    expect(flake.causes.map((c) => c.id)).toContain(incident().id);
    expect(flake.classification).toBe('flaky');
    // the API keeps every test
    expect(rows.reduce((n, r) => n + (r.kind === 'cause' ? r.items.length : 1), 0)).toBe(list.items.length);
  });
});

describe('a signature', () => {
  it('shows its text, a real example, its tests, runs per day against all runs, jobs and bugs', async () => {
    const d = await signatureDetail(db, incident().id, { window: '7d', at });
    expect(d.text).toMatch(/unable to handle the request/);
    expect(d.example?.message).toMatch(/https:\/\/api\.ci-op-/);
    expect(d.tests.map((t) => t.test).sort()).toEqual(truth.scenarios.massIncident.tests);
    expect(d.perDay.reduce((n, x) => n + x.runsWithIt, 0)).toBe(d.runs + d.flakedRuns);
    expect(d.perDay.every((x) => x.runs >= x.runsWithIt)).toBe(true);
    expect(d.jobs.every((j) => /4\.2|^pull-ci-/.test(j.job))).toBe(true);
    expect(d.exampleRuns.length).toBe(10);
    // all history, as its outcomes count it (read from its per-test days)
    const [[tests, occurrences]] = await db.rows('SELECT COUNT(DISTINCT test_id), COUNT(*) FROM test_outcome o JOIN signature s ON s.id = o.signature_id WHERE s.hash = ?', [d.id]);
    expect(d.allTime).toEqual({ tests: truth.scenarios.massIncident.tests.length, occurrences: Number(occurrences) });
    expect(Number(tests)).toBe(d.allTime.tests);
    expect(d.allTime.occurrences).toBeGreaterThan(d.runs);
    await expect(signatureDetail(db, 'ffffffffffffffff', { window: '7d', at })).rejects.toMatchObject({ status: 404 });
    await expect(signatureDetail(db, '../etc', { window: '7d', at })).rejects.toMatchObject({ status: 404 });
  });

  it("lists the bugs that quote a signature's key lines", async () => {
    const kubelet = list.items.find((i) => i.test === truth.scenarios.flaky.test)!.signatures.find((s) => /Status\.Phase/.test(s.text))!;
    const d = await signatureDetail(db, kubelet.id, { window: '14d', at });
    expect(d.bugs.map((b) => b.id)).toContain(truth.bugs.signature.id);
  });
});
