// The schema: both engines' files generated from one source and up to date, migrations applied on
// first use (twice is a no-op), the same tables and columns on SQLite and PostgreSQL, test sets
// round-trip; transactions.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialectOf, openDatabase, type Sql } from '../../lib/store/db';
import { MIGRATIONS } from '../../lib/store/generated/migrations';
import { migrate } from '../../lib/store/migrate';
import { decodeTestSet, encodeTestSet, loadTestSets, TestSetMembers } from '../../lib/store/testSets';
import { closeDatabase, describeEachDatabase, freshDatabase, open } from '../helpers/databases';

const ROOT = path.resolve(__dirname, '../..');

describe('schema files', () => {
  it('the PostgreSQL schema and the embedded migrations are generated from the sources', () => {
    expect(() => execFileSync(process.execPath, [path.join(ROOT, 'scripts/prisma-generate.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('DATABASE_URL', () => {
  it('selects the engine, and refuses an in-memory or unknown database with a message', () => {
    expect(dialectOf('file:./data/buildcop.db')).toBe('sqlite');
    expect(dialectOf('postgresql://u@h/db')).toBe('postgres');
    expect(() => dialectOf(':memory:')).toThrow(/in-memory SQLite database cannot be shared.*use file:PATH/);
    expect(() => dialectOf('file::memory:?cache=shared')).toThrow(/in-memory/);
    expect(() => dialectOf('mysql://h/db')).toThrow(/DATABASE_URL must be file:PATH \(SQLite\) or postgresql:/);
  });
});

describe('test sets', () => {
  it('round-trip sorted ids through the varint encoding, about a byte per dense id', () => {
    const ids = [1, 2, 3, 200, 201, 70_000, 70_001, 2_000_000];
    expect([...decodeTestSet(encodeTestSet(ids))]).toEqual(ids);
    const dense = Array.from({ length: 3000 }, (_, i) => i + 1);
    expect(encodeTestSet(dense).length).toBe(3000);
    expect(() => encodeTestSet([3, 2])).toThrow(/sorted/);
  });

  it('answer membership as bits over a dense range and as sorted ids when sparse, the same either way', () => {
    const dense = Int32Array.from({ length: 3000 }, (_, i) => 1000 + i * 2);
    const bits = TestSetMembers.fromSorted(dense);
    expect(bits.bytes).toBeLessThan(1000); // a bit per id of its range, not 4 bytes per id
    const sparse = Int32Array.from([5, 70_000, 2_000_000]);
    const sorted = TestSetMembers.fromSorted(sparse);
    expect(sorted.bytes).toBe(12);
    for (const [set, ids] of [[bits, dense], [sorted, sparse]] as const) {
      expect(set.size).toBe(ids.length);
      expect([...set.ids()]).toEqual([...ids]);
      for (const id of ids) expect(set.has(id)).toBe(true);
      for (const id of [0, ids[0] - 1, ids[0] + 1, ids[ids.length - 1] + 1, 3_000_000]) expect(set.has(id)).toBe(false);
    }
    expect(TestSetMembers.fromSorted(new Int32Array()).has(1)).toBe(false);
  });
});

async function columns(kind: 'sqlite' | 'postgres'): Promise<Record<string, string[]>> {
  const t = await freshDatabase(kind);
  const db = await open(t);
  try {
    expect(await migrate(db)).toEqual([]); // opening migrated it; a second run has nothing to do
    const rows =
      kind === 'sqlite'
        ? await db.all<{ t: string; c: string }>(`SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`)
        : await db.all<{ t: string; c: string }>(`SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public'`);
    const out: Record<string, string[]> = {};
    // SQLite's FTS5 index of search_doc and its shadow tables (PostgreSQL's is a GIN index): checked apart
    for (const r of rows) if (!r.t.startsWith('search_doc_fts')) (out[r.t] ??= []).push(r.c);
    for (const k of Object.keys(out)) out[k].sort();
    return out;
  } finally {
    await closeDatabase(db);
    await t.drop();
  }
}

describeEachDatabase('migrations', (kind) => {
  it('create every table of the schema on a fresh database, the same on both engines', async () => {
    const got = await columns(kind);
    expect(Object.keys(got).sort()).toEqual(
      ['_prisma_migrations', 'alert_event', 'backfill_cursor', 'bug', 'bug_link', 'day_pack', 'ingest_pass', 'job', 'kv', 'parse_error', 'pending_run', 'release_tag', 'rollup_run_day', 'rollup_run_hour', 'rollup_sig_day', 'rollup_sig_hour', 'rollup_sig_test_day', 'rollup_sig_total', 'rollup_test_day', 'rollup_test_hour', 'rollup_test_total', 'run', 'run_log', 'search_doc', 'signature', 'standing_answer', 'test', 'test_outcome', 'test_set', 'test_set_block'].sort(),
    );
    if (kind === 'postgres') expect(got).toEqual(await columns('sqlite'));
  });

  it("create search_doc's trigram index: FTS5 with the trigram tokenizer on SQLite, pg_trgm GIN on PostgreSQL", async () => {
    const t = await freshDatabase(kind);
    const db = await open(t);
    try {
      if (kind === 'sqlite') {
        const fts = await db.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'search_doc_fts'");
        expect(fts!.sql).toMatch(/USING fts5\("grams", content='search_doc', content_rowid='id', tokenize='trigram', detail='none'\)/);
      } else {
        const idx = await db.get<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'search_doc' AND indexdef LIKE '%gin%'");
        expect(idx!.indexdef).toMatch(/USING gin \(grams gin_trgm_ops\)/);
      }
    } finally {
      await closeDatabase(db);
      await t.drop();
    }
  });

  it('bring a database made by an earlier version up to date, keeping its rows', async () => {
    const t = await freshDatabase(kind);
    try {
      const earlier = await openDatabase(t.url, MIGRATIONS[kind].slice(0, 1));
      await earlier.run("INSERT INTO pending_run (job, build_id, state, started, first_seen, last_seen, attempts) VALUES ('j', '1', 'pending', 1, 2, 3, 4)");
      const pass = (await earlier.get<{ id: number }>("INSERT INTO ingest_pass (started_at, status) VALUES (5, 'ok') RETURNING id"))!.id;
      // first_seen was the time of the pass that stored the job's (the test's) first run
      await earlier.exec(`INSERT INTO job (id, name, type, first_seen) VALUES (1, 'j', 'periodic', 9000);
        INSERT INTO run (id, job_id, build_id, state, started, ingested_at) VALUES (1, 1, '7', 'failure', 8000, 9000), (2, 1, '8', 'failure', 8500, 9000);
        INSERT INTO test (id, hash, name, first_seen) VALUES (1, 'h1', 't1', 9000), (2, 'h2', 't2', 9000);
        INSERT INTO test_outcome (run_id, test_id, outcome, started, job_id) VALUES (2, 1, 1, 8500, 1)`);
      await closeDatabase(earlier);
      const db = await openDatabase(t.url);
      try {
        // a run pending before is taken as listed by the latest pass, until the next pass says otherwise
        expect(await db.get('SELECT job, build_id, last_seen, attempts, next_check, listed_by_pass FROM pending_run')).toEqual({ job: 'j', build_id: '1', last_seen: 3, attempts: 4, next_check: 0, listed_by_pass: pass });
        // now the earliest stored run's start: exact for jobs, for tests where a failure tells
        expect(await db.all('SELECT name, first_seen FROM job')).toEqual([{ name: 'j', first_seen: 8000 }]);
        expect(await db.all('SELECT name, first_seen FROM test ORDER BY name')).toEqual([{ name: 't1', first_seen: 8500 }, { name: 't2', first_seen: 9000 }]);
        const applied = await db.all<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
        expect(applied.map((m) => m.migration_name)).toEqual(MIGRATIONS[kind].map((m) => m.name));
      } finally {
        await closeDatabase(db);
      }
    } finally {
      await t.drop();
    }
  });
});

describeEachDatabase('transactions', (kind) => {
  it('a lazy-commit transaction commits, and on PostgreSQL only it skips waiting for the disk', async () => {
    const t = await freshDatabase(kind);
    const db = await open(t);
    try {
      const setting = (sql: Sql) => (kind === 'postgres' ? sql.get<{ synchronous_commit: string }>('SHOW synchronous_commit').then((r) => r!.synchronous_commit) : Promise.resolve('n/a'));
      const inLazy = await db.tx(async (sql) => {
        await sql.run('INSERT INTO kv (key, value) VALUES (?, ?)', ['lazy', '1']);
        return setting(sql);
      }, { lazyCommit: true });
      const inPlain = await db.tx((sql) => setting(sql));
      expect([inLazy, inPlain]).toEqual(kind === 'postgres' ? ['off', 'on'] : ['n/a', 'n/a']);
      expect(await db.get('SELECT value FROM kv WHERE key = ?', ['lazy'])).toEqual({ value: '1' });
    } finally {
      await closeDatabase(db);
      await t.drop();
    }
  });
});

describeEachDatabase('stored test sets', (kind) => {
  it('load as they were stored, in one range or by id, once for answers asking at the same time', async () => {
    const t = await freshDatabase(kind);
    const db = await open(t);
    try {
      const members = (i: number) => Array.from({ length: 50 + (i % 7) }, (_, k) => 1 + k * (1 + (i % 3)) + (i % 5));
      for (let i = 1; i <= 600; i++) {
        const bytes = encodeTestSet(members(i));
        await db.run('INSERT INTO test_set (id, hash, size, members) VALUES (?, ?, ?, ?)', [i, `h${i}`, members(i).length, bytes]);
      }
      const all = Array.from({ length: 600 }, (_, i) => i + 1);
      const few = [1, 299, 600, 0, 9999];
      const [a, b, c] = await Promise.all([loadTestSets(db, all), loadTestSets(db, all), loadTestSets(db, few)]);
      expect(a.size).toBe(600);
      expect([...c.keys()].sort((x, y) => x - y)).toEqual([1, 299, 600]);
      for (const i of all) {
        expect([...a.get(i)!.ids()]).toEqual(members(i));
        expect(b.get(i)).toBe(a.get(i));
      }
      expect(c.get(299)).toBe(a.get(299));
    } finally {
      await closeDatabase(db);
      await t.drop();
    }
  });
});
