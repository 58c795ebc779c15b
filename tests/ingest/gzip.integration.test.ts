// Ingest from GCS as OpenShift CI's bucket holds its files: Prow uploads build logs and JSON
// gzip-encoded (compress_file_types), GCS lists them at their compressed size and sends them
// compressed to a client that accepts gzip. Ingest must store exactly what it stores from plain files.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import { openDatabase, type Database } from '../../lib/store/db';
import { closeDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, worldDatabaseUrl, type Truth } from '../helpers/world';

/** OpenShift CI's gcs_configuration.compress_file_types */
const OPENSHIFT_COMPRESS_FILE_TYPES = ['txt', 'log', 'json', 'tar', 'html', 'yaml'];
/** one job, for the tests that need a few runs only */
const JOB = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';

let world: { dir: string; truth: Truth };
let server: ReplayServer;
let target: TestDatabase;
let db: Database;

beforeAll(async () => {
  world = await sampleWorld();
  server = await replay(world.dir, { compressFileTypes: OPENSHIFT_COMPRESS_FILE_TYPES, gcsPageSize: 1000 });
  target = await freshDatabase('sqlite');
  db = await open(target);
});
afterAll(async () => {
  await server?.close();
  if (db) await closeDatabase(db);
  await target?.drop();
});

/** A dump without what depends on where and how the files were served: the server's address, the listing's sizes. */
async function comparable(d: Database): Promise<unknown> {
  const dump = await logicalDump(d);
  for (const r of dump.runs as Record<string, unknown>[]) delete r.fingerprint;
  return JSON.parse(JSON.stringify(dump).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'REPLAY'));
}

it('stores from gzip-encoded build logs and JSON exactly what it stores from plain ones, having downloaded them compressed', async () => {
  const summary = await ingestPass({ config: configFor(world.dir, server.url), db });
  expect(summary.runsNew).toBe(world.truth.runs.finished);
  expect(summary.parseErrors).toBe(0);

  const logs = server.requests.filter((r) => r.path.endsWith('/build-log.txt'));
  expect(logs.length).toBeGreaterThan(world.truth.runs.finished / 2);
  expect(logs.every((r) => r.status === 200 && r.encoding === 'gzip')).toBe(true);
  expect(server.requests.find((r) => r.path.startsWith('/data.js'))?.encoding).toBe('gzip');

  const plain = await openDatabase(await worldDatabaseUrl());
  try {
    expect(await comparable(db)).toEqual(await comparable(plain));
  } finally {
    await closeDatabase(plain);
  }
});

it('records a file that is over the size cap once inflated as a parse error, and does not read its run again', async () => {
  // build logs of this job: listed at a few KB compressed, tens of KB inflated
  const maxFileBytes = 40_000;
  const other = await freshDatabase('sqlite');
  const d = await open(other);
  try {
    const config = configFor(world.dir, server.url, { prow: { url: server.url, jobs: `^${JOB}$` }, ingest: { maxFileBytes } });
    const first = await ingestPass({ config, db: d });
    expect(first.runsNew).toBeGreaterThan(0);
    const capped = await d.all<{ message: string }>("SELECT message FROM parse_error WHERE file = 'build-log.txt'");
    expect(capped.length).toBeGreaterThan(0);
    for (const p of capped) expect(p.message).toMatch(/^download failed: GET .*\/build-log\.txt: over the 40000-byte cap once inflated \(\d+ bytes gzip-encoded\)$/);
    // the run is stored as read, not as missing a file: a later pass leaves it alone
    expect(await d.all(`SELECT build_id FROM run WHERE meta LIKE '%"incomplete":true%'`)).toEqual([]);
    // time passing, as far as ingest can tell: stored an hour ago
    await d.run('UPDATE run SET ingested_at = ingested_at - 3600');
    const later = await ingestPass({ config, db: d });
    expect(later.runsNew + later.runsUpdated).toBe(0);
  } finally {
    await closeDatabase(d);
    await other.drop();
  }
});

it('downloads a fraction of the bytes, and says so in the pass summary', async () => {
  const plainServer = await replay(world.dir, { gcsPageSize: 1000 });
  const downloaded: number[] = [];
  try {
    for (const s of [plainServer, server]) {
      const t = await freshDatabase('sqlite');
      const d = await open(t);
      try {
        const summary = await ingestPass({ config: configFor(world.dir, s.url, { prow: { url: s.url, jobs: `^${JOB}$` } }), db: d });
        expect(summary.runsNew).toBeGreaterThan(0);
        downloaded.push(summary.downloadedBytes);
      } finally {
        await closeDatabase(d);
        await t.drop();
      }
    }
  } finally {
    await plainServer.close();
  }
  expect(downloaded[1]).toBeLessThan(downloaded[0] / 2);
});
