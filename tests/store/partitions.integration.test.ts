// test_outcome by day: on PostgreSQL each day's outcomes in a partition of their own, created by
// ingest and the backfill before they are written, dropped whole by retention with the rollups still
// exact, and a database made before partitioning converted keeping its rows. SQLite: one table.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import { openDatabase, type Database } from '../../lib/store/db';
import { MIGRATIONS } from '../../lib/store/generated/migrations';
import { DAY_SECONDS, dayStart, outcomePartition } from '../../lib/store/partitions';
import { pruneRunsBefore } from '../../lib/store/retention';
import { DECK_WINDOW_HOURS, worldManifest } from '../helpers/backfill';
import { closeDatabase, describeEachDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { expectRollupsExact } from '../helpers/rollups';
import { configFor, replay, sampleWorld } from '../helpers/world';

/** PostgreSQL: test_outcome's partitions as [name, from, to]; SQLite: the tables named like one. */
async function partitions(db: Database): Promise<[string, number, number][]> {
  if (db.dialect === 'sqlite') {
    return (await db.rows("SELECT name FROM sqlite_master WHERE name LIKE 'test_outcome_%' AND type = 'table'")).map(([n]) => [n as string, 0, 0]);
  }
  const rows = await db.rows(
    `SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'test_outcome'::regclass ORDER BY 1`,
  );
  return rows.map(([name, bound]) => {
    const [, from, to] = /FROM \('?(\d+)'?\) TO \('?(\d+)/.exec(bound as string)!;
    return [name as string, Number(from), Number(to)];
  });
}

/** The days the stored outcomes start on. */
const outcomeDays = async (db: Database) => (await db.rows(`SELECT DISTINCT started / ${DAY_SECONDS} * ${DAY_SECONDS} FROM test_outcome ORDER BY 1`)).map(([d]) => Number(d));

describeEachDatabase('outcomes by day', (kind) => {
  let dir: string;
  let end: number;
  let server: ReplayServer;
  const made: TestDatabase[] = [];
  let db: Database;
  const fresh = async () => {
    const t = await freshDatabase(kind);
    made.push(t);
    return t;
  };

  beforeAll(async () => {
    dir = (await sampleWorld()).dir;
    end = worldManifest(dir).endUnix;
    server = await replay(dir);
    db = await open(await fresh());
  }, 120_000);
  afterAll(async () => {
    if (db) await closeDatabase(db);
    await server?.close();
    for (const t of made) await t.drop();
  });

  it('ingest writes each day to a partition of its own on PostgreSQL, one table on SQLite', async () => {
    await ingestPass({ config: configFor(dir, server.url), db });
    const days = await outcomeDays(db);
    expect(days.length).toBeGreaterThanOrEqual(14);
    const parts = await partitions(db);
    if (kind === 'sqlite') {
      expect(parts).toEqual([]);
      return;
    }
    expect(await db.get("SELECT relkind FROM pg_class WHERE oid = 'test_outcome'::regclass")).toEqual({ relkind: 'p' });
    expect(parts).toEqual(days.map((d) => [outcomePartition(d), d, d + DAY_SECONDS]));
    // every row in its own day's partition, each partition with the day's rows only
    for (const [name, from, to] of parts) {
      const inside = await db.get<{ n: number; lo: number; hi: number }>(`SELECT COUNT(*) AS n, MIN(started) AS lo, MAX(started) AS hi FROM "${name}"`);
      expect(Number(inside!.n)).toBeGreaterThan(0);
      expect(inside!.lo).toBeGreaterThanOrEqual(from);
      expect(inside!.hi).toBeLessThan(to);
    }
    expect(Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ONLY test_outcome'))!.n)).toBe(0);
  }, 300_000);

  it('retention drops the whole days before its cutoff, deletes the rest of its day row by row, the rollups exact', async () => {
    const cutoff = end - 7 * 86_400 + 3 * 3600;
    const kept = await db.rows('SELECT run_id, test_id, outcome, message FROM test_outcome WHERE started >= ? ORDER BY run_id, test_id', [cutoff]);
    const partsBefore = await partitions(db);
    const pruned = await pruneRunsBefore(db, cutoff);
    expect(pruned.runs).toBeGreaterThan(100);
    const wholeDays = partsBefore.filter(([, , to]) => to <= dayStart(cutoff)).map(([, from]) => from);
    expect(pruned.outcomeDaysDropped).toEqual(kind === 'postgres' ? wholeDays : []);
    if (kind === 'postgres') {
      expect(wholeDays.length).toBeGreaterThanOrEqual(6);
      expect(await partitions(db)).toEqual(partsBefore.filter(([, from]) => from >= dayStart(cutoff)));
    }
    expect(await db.rows('SELECT run_id, test_id, outcome, message FROM test_outcome ORDER BY run_id, test_id')).toEqual(kept);
    expect(Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM run WHERE started < ?', [cutoff]))!.n)).toBe(0);
    await expectRollupsExact(db);
  }, 300_000);

  it('the backfill writes the days before Deck to partitions of their own again', async () => {
    // a new process (the passes of one process keep what they stored); Deck lists the last days only
    server.setDeckWindowHours(DECK_WINDOW_HOURS);
    const url = made[0].url;
    await closeDatabase(db);
    db = await openDatabase(url);
    const s = await ingestPass({ config: configFor(dir, server.url), db, since: '15d' });
    expect(s.runsBackfilled).toBeGreaterThan(100);
    const days = await outcomeDays(db);
    expect(days.length).toBeGreaterThanOrEqual(14);
    if (kind === 'postgres') expect((await partitions(db)).map(([, from]) => from)).toEqual(days);
    await expectRollupsExact(db);
    server.setDeckWindowHours(24 * 15);
  }, 300_000);

  it('a database made before partitioning is converted, keeping its rows', async () => {
    const t = await fresh();
    const migrations = MIGRATIONS[kind];
    const before = migrations.findIndex((m) => m.name.endsWith('_outcomes_by_day'));
    expect(before).toBeGreaterThan(0);
    const earlier = await openDatabase(t.url, migrations.slice(0, before));
    await ingestPass({ config: configFor(dir, server.url), db: earlier });
    const dump = await logicalDump(earlier);
    expect(dump.outcomes.length).toBeGreaterThan(1000);
    if (kind === 'postgres') expect(await partitions(earlier)).toEqual([]); // not partitioned yet: nothing created
    await closeDatabase(earlier);
    const now = await openDatabase(t.url);
    try {
      expect(await logicalDump(now)).toEqual(dump);
      await expectRollupsExact(now);
      if (kind === 'postgres') expect((await partitions(now)).map(([, from]) => from)).toEqual(await outcomeDays(now));
    } finally {
      await closeDatabase(now);
    }
  }, 300_000);
});
