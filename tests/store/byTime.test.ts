// Reads of a range of time over every test or job take the time index on SQLite, whatever ANALYZE's
// statistics say: with OpenShift's proportions (3,000 tests, 1,400 jobs) SQLite's planner otherwise
// skip-scans the index led by the test or job, a seek per test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, closeDatabase, type Database } from '../../lib/store/db';
import { byTime } from '../../lib/store/sql';
import { freshDatabase, type TestDatabase } from '../helpers/databases';

/** sqlite_stat1 as ANALYZE wrote it on the 24,000-runs-a-day world (rows, then rows per distinct key prefix). */
const OPENSHIFT_STATS: [string, string, string][] = [
  ['rollup_test_hour', 'rollup_test_hour', '1008000 3000 1'],
  ['rollup_test_hour', 'rollup_test_hour_test_id_hour_idx', '1008000 336 1'],
  ['test_outcome', 'test_outcome_by_test_idx', '20505000 6835 2 2 2 1 1'],
  ['test_outcome', 'test_outcome_by_start_idx', '20505000 2 2 2 2 1 1'],
  ['test_outcome', 'test_outcome_signature_id_started_idx', '20505000 300 2'],
  ['run', 'run_job_id_started_idx', '358960 256 1'],
  ['run', 'run_by_start_idx', '358960 1 1 1 1 1'],
];

const RANGES: [Parameters<typeof byTime>[1], string][] = [
  ['rollup_test_hour', 'SELECT test_id, SUM(failed) FROM {} WHERE hour >= 498877 AND hour < 498888 GROUP BY test_id'],
  ['test_outcome', 'SELECT test_id, outcome FROM {} WHERE started >= 1795957200 AND started < 1795999000'],
  ['run', 'SELECT r.id FROM {} WHERE r.started >= 1795957200 AND r.started < 1795999000 AND r.failed >= 20'],
];

describe('byTime on SQLite', () => {
  let t: TestDatabase;
  let db: Database;
  const plan = async (sql: string) => (await db.rows(`EXPLAIN QUERY PLAN ${sql}`)).map((r) => String(r[3])).join(' | ');
  beforeAll(async () => {
    t = await freshDatabase('sqlite');
    db = await openDatabase(t.url);
    await db.run('ANALYZE');
    for (const [tbl, idx, stat] of OPENSHIFT_STATS) {
      await db.run('DELETE FROM sqlite_stat1 WHERE tbl = ? AND idx = ?', [tbl, idx]);
      await db.run('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)', [tbl, idx, stat]);
    }
    await closeDatabase(db);
    db = await openDatabase(t.url); // the statistics are read when the schema is
  });
  afterAll(async () => {
    await closeDatabase(db);
    await t.drop();
  });

  it('reads each table through its time index, where the planner would skip-scan', async () => {
    for (const [table, sql] of RANGES) {
      const alias = table === 'run' ? 'r' : '';
      const bare = await plan(sql.replace('{}', `${table}${alias ? ` ${alias}` : ''}`));
      const held = await plan(sql.replace('{}', byTime(db, table, alias)));
      expect(held, table).not.toMatch(/ANY\(/);
      expect(held, table).toMatch(table === 'rollup_test_hour' ? /USING PRIMARY KEY \(hour>\? AND hour<\?\)/ : /_by_start_idx \(started>\? AND started<\?\)/);
      // the statistics do mislead the planner where nothing holds it (stat4's samples, as on the
      // real database, make the other two tables skip-scan for some ranges too)
      if (table === 'rollup_test_hour') expect(bare).toMatch(/ANY\(test_id\)/);
    }
  });

  it('leaves PostgreSQL its own plans', () => {
    expect(byTime({ dialect: 'postgres' }, 'run', 'r')).toBe('run r');
    expect(byTime({ dialect: 'postgres' }, 'test_outcome')).toBe('test_outcome');
  });
});
