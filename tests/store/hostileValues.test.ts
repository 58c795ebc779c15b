// Hostile values at the storage boundary. PostgreSQL text cannot hold NUL, and one string with it had
// failed the INSERT of a whole batch (then the run, kept pending and failing every pass): strings are
// stored without NUL, and with lone surrogates as U+FFFD, on both engines, so both keep the same
// data. And a run whose values the database refuses outright fails alone: the batch and the pass go on.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SignatureIndex } from '../../lib/signatures/clustering';
import { RunAssembler } from '../../lib/ingest/runReader';
import { storeBatch } from '../../lib/ingest/storeBatch';
import { validateConfig } from '../../lib/config';
import type { ProwRun } from '../../lib/parse/types';
import { insertMany } from '../../lib/store/bulk';
import { Catalog } from '../../lib/store/catalog';
import { SearchBases } from '../../lib/store/searchIndex';
import type { Database } from '../../lib/store/db';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';

const assembler = () => new RunAssembler(validateConfig({ prow: { url: 'https://prow.example' } }), new SignatureIndex());

describeEachDatabase('hostile values', (kind) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await freshDatabase(kind);
    db = await open(t);
  });
  afterAll(async () => {
    await closeDatabase(db);
    await t.drop();
  });

  it('strings are stored without NUL, lone surrogates as U+FFFD, through every write path, and found by the same key', async () => {
    await db.run('INSERT INTO kv (key, value) VALUES (?, ?)', ['one\u0000', 'a\u0000b']);
    await insertMany(db, 'kv', ['key', 'value'], [['two', '\u0000c\u0000'], ['three\ud800', 'lone \udc00 surrogate']]);
    expect(await db.all('SELECT key, value FROM kv ORDER BY key')).toEqual([
      { key: 'one', value: 'ab' }, { key: 'three\ufffd', value: 'lone \ufffd surrogate' }, { key: 'two', value: 'c' },
    ]);
    // a lone surrogate is not UTF-8: SQLite had kept its bytes, which read back as three other characters
    expect(await db.get('SELECT value FROM kv WHERE key = ?', ['three\ud800'])).toEqual({ value: 'lone \ufffd surrogate' });
    expect(await db.get('SELECT value FROM kv WHERE key = ?', ['o\u0000ne'])).toEqual({ value: 'ab' });
    expect(await db.rows('SELECT value FROM kv WHERE key IN (?, ?)', ['two\u0000', 'x'])).toEqual([['c']]);
    await db.run('DELETE FROM kv');
  });

  it('bulk inserts keep strings that mean something in an array literal, and return the rows inserted', async () => {
    // on PostgreSQL each column goes as one array: quotes, backslashes, braces, commas, the word NULL
    const values = ['"quoted"', 'back\\slash\\', '{a,b}', 'x, y', 'NULL', '', '  spaced  ', 'line\nbreak\ttab', '🦀 ünïcode', "it's"];
    const rows = values.map((v, i) => [`k${String(i).padStart(2, '0')}`, v]);
    const inserted = await insertMany<{ key: string }>(db, 'kv', ['key', 'value'], [...rows, ['k00', 'a duplicate key']], 'ON CONFLICT (key) DO NOTHING', 'key');
    expect(inserted.map((r) => r.key).sort()).toEqual(rows.map((r) => r[0]));
    expect(await db.all('SELECT key, value FROM kv ORDER BY key')).toEqual(rows.map(([key, value]) => ({ key, value })));
    await db.run('DELETE FROM kv');
  });

  it('a run from Deck whose job, URL and refs hold NUL is stored, not kept pending', async () => {
    // openshift-tests' output as a build log: Go-quoted names (a NUL written \x00), raw failure text
    const log = Buffer.from('started: (0/1/1) "a test\\x00 name"\n\nfail [github.com/x/y.go:12]: boom\u0000\nfailed: (1s) 2026-11-19T04:38:22 "a test\\x00 name"\n');
    const run: ProwRun = {
      job: 'pull-ci-x\u0000-e2e', buildId: '7', type: 'presubmit\u0000', state: 'failure', started: 1_763_500_000, finished: 1_763_503_600,
      url: 'https://prow.example/view/gs/bucket/pr-logs/7\u0000', refs: { org: 'o', repo: 'r', baseRef: 'main\u0000', baseSha: 'abc', pulls: [{ number: 1, sha: 'def', author: 'me\u0000' }] },
    };
    const read = assembler().assemble({ run, gcsPath: 'gs://bucket/pr-logs/7', files: [{ path: 'build-log.txt', bytes: log }], listing: [], problems: [] });
    const stored = await storeBatch(db, await Catalog.load(db), [{ run, update: false, wasPending: false, attempts: 0, listedByPass: 1, read }], 1_763_600_000, await SearchBases.load(db));
    expect(stored.map((s) => s.outcome)).toEqual(['new']);
    expect(await db.get('SELECT j.name AS job, r.url, r.base_ref FROM run r JOIN job j ON j.id = r.job_id')).toEqual({
      job: 'pull-ci-x-e2e', url: 'https://prow.example/view/gs/bucket/pr-logs/7', base_ref: 'main',
    });
    expect(await db.get('SELECT t.name, o.message FROM test_outcome o JOIN test t ON t.id = o.test_id')).toEqual({ name: 'a test name', message: 'fail [github.com/x/y.go:12]: boom' });
    expect(Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pending_run'))!.n)).toBe(0);
  });

  it('a run the database refuses fails alone, even when its pending row is refused too; the runs around it are stored', async () => {
    const run = (buildId: string): ProwRun => ({ job: 'periodic-e2e', buildId, type: 'periodic', state: 'success', started: 1_763_500_000, finished: 1_763_503_600, url: '' });
    // a value no parser lets through (a missing job name), standing in for whatever a database refuses
    const refused = { ...run('2'), job: null as unknown as string };
    const reader = assembler();
    const items = [run('1'), refused, run('3')].map((r) => ({ run: r, update: false, wasPending: false, attempts: 0, listedByPass: 1, read: reader.assemble({ run: r, gcsPath: '', files: [], listing: [], problems: [] }) }));
    const stored = await storeBatch(db, await Catalog.load(db), items, 1_763_600_000, await SearchBases.load(db));
    expect(stored.map((s) => s.outcome)).toEqual(['new', 'failed', 'new']);
    expect(stored[1].message).toMatch(/^storing failed: .*null/i);
    expect((await db.all<{ build_id: string }>("SELECT r.build_id FROM run r JOIN job j ON j.id = r.job_id WHERE j.name = 'periodic-e2e' ORDER BY r.build_id")).map((r) => r.build_id)).toEqual(['1', '3']);
  });
});
