// Answers for now are kept for a minute while the data is the same; a write of runs or bug links, or
// an explicit `at`, gives a new computation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Budget } from '../../lib/budget';
import { runAnswer } from '../../lib/server/recentAnswers';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { bumpDataVersion } from '../../lib/store/rollups';
import { TEST_WORLD_END } from '../../lib/replay/ensureWorld';
import { worldDatabaseUrl } from '../helpers/world';

let db: Database;
const ctx = () => ({ budget: Budget.unlimited(), config: undefined });

beforeAll(async () => {
  // a copy: this test writes
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-recent-')), 'world.db');
  fs.copyFileSync((await worldDatabaseUrl()).slice('file:'.length), file);
  db = await openDatabase(`file:${file}`);
}, 600_000);
afterAll(async () => closeDatabase(db));

it('serves the same answer for now again until the data changes; never one with `at`', async () => {
  const first = await runAnswer('hotlist', db, { window: '14d' }, ctx());
  expect(await runAnswer('hotlist', db, { window: '14d', budget: '5000' }, ctx())).toBe(first);
  expect(await runAnswer('hotlist', db, { window: '7d' }, ctx())).not.toBe(first);

  const at = TEST_WORLD_END.toISOString();
  const withAt = await runAnswer('hotlist', db, { window: '14d', at }, ctx());
  expect(await runAnswer('hotlist', db, { window: '14d', at }, ctx())).not.toBe(withAt);

  await bumpDataVersion(db, []); // what every write of runs does
  const afterWrite = await runAnswer('hotlist', db, { window: '14d' }, ctx());
  expect(afterWrite).not.toBe(first);
  // the same data: the same tests (its `to` is a later now)
  expect((afterWrite as { totalItems: number }).totalItems).toBe((first as { totalItems: number }).totalItems);

  const bug = await db.get<{ id: number }>('SELECT id FROM bug ORDER BY id LIMIT 1');
  expect(bug).toBeDefined();
  await db.run("INSERT INTO bug_link (bug_pk, test_hash, signature_hash, reason, manual, removed, created_at) VALUES (?, 'abc', '', 'by hand', 1, 0, 0)", [bug!.id]);
  expect(await runAnswer('hotlist', db, { window: '14d' }, ctx())).not.toBe(afterWrite);
});
