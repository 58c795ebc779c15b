// The answers a buildcop reads, computed from nothing kept in memory: for tests that change how the
// answers are read (day packs, the test set index) and must not change what they say.
import { expect, vi } from 'vitest';
import { DAY } from '../../lib/store/rollups';
import { TEST_WORLD_END } from './world';

const END = Math.floor(TEST_WORLD_END.getTime() / 1000);
/** the world's end and a past time inside a day (partial days at both ends of every window) */
export const ANSWER_ATS = [END, END - 3 * DAY - 5 * 3600];

/**
 * The hot lists, causes and top tests' pages at ANSWER_ATS, computed by a fresh copy of the code (no day,
 * verdict or answer kept in memory from an earlier call), as JSON.
 */
export async function answersJson(url: string): Promise<string> {
  vi.resetModules();
  const store = await import('../../lib/store/db');
  const { hotlist } = await import('../../lib/answers/hotlist');
  const { causes, parseCausesQuery } = await import('../../lib/answers/causes');
  const { testDetail } = await import('../../lib/answers/testDetail');
  // the connection the test opened (one per URL per process), under code that has kept nothing
  const db = await store.openDatabase(url);
  const jobs = await import('../../lib/history/jobs');
  const releases = [...new Set((await jobs.loadJobs(db)).map((j) => j.release).filter((r) => r))].sort();
  expect(releases.length).toBeGreaterThan(1);
  const out: unknown[] = [];
  for (const at of ANSWER_ATS) {
    const list = await hotlist(db, { window: '14d', at, limit: 10_000 });
    out.push(list, await causes(db, parseCausesQuery({ window: '14d', limit: '50' }, at * 1000)));
    // a hot list of one release's jobs ranks on those jobs' rows alone
    for (const release of releases.slice(0, 2)) out.push(await hotlist(db, { window: '7d', at, limit: 10_000, release }));
    for (const item of list.items.slice(0, 2)) out.push(await testDetail(db, item.id, { window: '14d', at }));
  }
  return JSON.stringify(out);
}

