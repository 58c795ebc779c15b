// A database of runs laid out by hand, for cases a generated world may never hit: written through
// the same bulk path and rollups as ingest's (lib/store/bulk.ts, lib/store/rollups.ts).
import { testId } from '../../lib/ids';
import type { Database } from '../../lib/store/db';
import { insertMany } from '../../lib/store/bulk';
import { ensureOutcomeDays } from '../../lib/store/partitions';
import { rollUpStored } from '../../lib/store/rollups';
import { encodeTestSet, testSetHash } from '../../lib/store/testSets';

export interface CraftedRun {
  job: string;
  /** Unix seconds */
  started: number;
  /** the tests that did not pass: 1 failed, 2 flaked (every other test passed) */
  outcomes?: Record<string, 1 | 2>;
}

/** The build id of the i-th run written (from 0). */
export const craftedBuildId = (i: number) => String(1001 + i);

/** Writes the jobs, the tests (each run executes all of them) and the runs; returns the tests' ids. */
export async function writeCraftedRuns(db: Database, jobs: string[], tests: string[], runs: CraftedRun[]): Promise<Map<string, number>> {
  const first = runs.reduce((m, r) => Math.min(m, r.started), Infinity);
  await db.tx(async (sql) => {
    await insertMany(sql, 'job', ['name', 'type', 'first_seen'], jobs.map((n) => [n, 'periodic', first]));
    await insertMany(sql, 'test', ['hash', 'name', 'first_seen'], tests.map((n) => [testId(n), n, first]));
    await insertMany(sql, 'signature', ['hash', 'text', 'first_seen'], [['crafted', 'it failed', first]]);
  });
  const jobId = new Map((await db.all<{ id: number; name: string }>('SELECT id, name FROM job')).map((j) => [j.name, Number(j.id)]));
  const ids = new Map((await db.all<{ id: number; name: string }>('SELECT id, name FROM test')).map((t) => [t.name, Number(t.id)]));
  const sig = Number((await db.get<{ id: number }>("SELECT id FROM signature WHERE hash = 'crafted'"))!.id);
  const members = encodeTestSet([...ids.values()].sort((a, b) => a - b));
  await ensureOutcomeDays(db, runs.map((r) => r.started));
  await db.tx(async (sql) => {
    await insertMany(sql, 'test_set', ['id', 'hash', 'size', 'members'], [[1, testSetHash(members), ids.size, members]]);
    const runRows: (string | number | null)[][] = [];
    const outcomeRows: (string | number | null)[][] = [];
    runs.forEach((r, i) => {
      const id = i + 1;
      const build = craftedBuildId(i);
      const bad = Object.entries(r.outcomes ?? {});
      const failed = bad.filter(([, o]) => o === 1).length;
      for (const [t, o] of bad) outcomeRows.push([id, ids.get(t)!, o, sig, r.started, jobId.get(r.job)!, 'it failed']);
      runRows.push([id, jobId.get(r.job)!, build, failed ? 'failure' : 'success', r.started, r.started + 3000, `https://prow.example/view/gs/b/logs/${r.job}/${build}`, `gs://b/logs/${r.job}/${build}`, null, '', '', '', 1, ids.size - bad.length, failed, bad.length - failed, 0, 0, 0, '{}', '', r.started + 3000]);
    });
    await insertMany(sql, 'run', ['id', 'job_id', 'build_id', 'state', 'started', 'finished', 'url', 'gcs_path', 'pull', 'base_ref', 'commit_sha', 'payload', 'test_set_id', 'passed', 'failed', 'flaked', 'skipped', 'install_failed', 'parse_errors', 'meta', 'fingerprint', 'ingested_at'], runRows);
    await insertMany(sql, 'test_outcome', ['run_id', 'test_id', 'outcome', 'signature_id', 'started', 'job_id', 'message'], outcomeRows);
    await rollUpStored(
      sql,
      runRows.map((row) => ({ id: row[0] as number, jobId: row[1] as number, started: row[4] as number, testSetId: 1, broken: false })),
      outcomeRows.map((o) => ({ runId: o[0] as number, testId: o[1] as number, outcome: o[2] as number, signatureId: o[3] as number, started: o[4] as number, jobId: o[5] as number })),
    );
  });
  if (db.dialect === 'postgres') for (const t of ['run', 'test_set']) await db.run(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT MAX(id) FROM ${t}))`);
  return ids;
}
