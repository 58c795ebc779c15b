// Ingest from GCS as OpenShift CI's bucket holds its files: Prow uploads build logs and JSON
// gzip-encoded (compress_file_types), GCS lists them at their compressed size and sends them
// compressed to a client that accepts gzip. Ingest must store exactly what it stores from plain files.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestPass } from '../../lib/ingest/pass';
import type { ReplayServer } from '../../lib/replay/server';
import type { Database } from '../../lib/store/db';
import { closeDatabase, freshDatabase, logicalDump, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, worldDatabaseUrl, type Truth } from '../helpers/world';
import { openDatabase } from '../../lib/store/db';

/** OpenShift CI's gcs_configuration.compress_file_types */
const OPENSHIFT_COMPRESS_FILE_TYPES = ['txt', 'log', 'json', 'tar', 'html', 'yaml'];

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
