// Writing runs inside the caller's transaction, replacing whatever the database had for each (job,
// build): a kill -9 leaves whole runs or none, and re-ingest never duplicates.
import { cleanText } from '../parse/testNames';
import type { AssembledRun } from '../ingest/runReader';
import type { Catalog } from './catalog';
import type { Database, Param, Sql } from './db';
import { insertMany } from './bulk';

export const OUTCOME_CODE = { failed: 1, flaked: 2 } as const;
/** Raw failure text kept per outcome (the normalised text lives once on the signature). */
export const MESSAGE_CAP = 4000;

export interface KnownRun {
  state: string;
  fingerprint: string;
  /** some file of it could not be downloaded */
  incomplete: boolean;
  /** passes that read it and still missed a file (0 when complete) */
  readAttempts: number;
  /** when it was last stored (Unix seconds) */
  ingestedAt: number;
}

/** The runs already stored among the given (job, build) pairs, keyed "job/build". */
export async function knownRuns(db: Database, sinceStarted: number): Promise<Map<string, KnownRun>> {
  const rows = await db.all<{ name: string; build_id: string; state: string; fingerprint: string; meta: string; ingested_at: number }>(
    `SELECT j.name, r.build_id, r.state, r.fingerprint, r.meta, r.ingested_at FROM run r JOIN job j ON j.id = r.job_id WHERE r.started >= ?`,
    [sinceStarted],
  );
  return new Map(
    rows.map((r) => {
      // meta is read without parsing it: most runs are complete, and there are many
      const incomplete = r.meta.includes('"incomplete":true');
      const readAttempts = incomplete ? Number(/"readAttempts":(\d+)/.exec(r.meta)?.[1] ?? 1) : 0;
      return [`${r.name}/${r.build_id}`, { state: r.state, fingerprint: r.fingerprint, incomplete, readAttempts, ingestedAt: Number(r.ingested_at) }];
    }),
  );
}

function capMessage(s: string): string {
  return s.length <= MESSAGE_CAP ? s : `${s.slice(0, MESSAGE_CAP / 2)}\n...[truncated]...\n${s.slice(-MESSAGE_CAP / 2)}`;
}

/** A run to store, with what the pass knows about rows it may already have. */
export interface RunToWrite {
  assembled: AssembledRun;
  /** an earlier version may be stored (else it is assumed new, and checked by the insert) */
  replace: boolean;
  /** it has a pending_run row to clear */
  wasPending: boolean;
}

const RUN_COLUMNS = ['job_id', 'build_id', 'state', 'started', 'finished', 'url', 'gcs_path', 'pull', 'base_ref', 'commit_sha', 'payload',
  'test_set_id', 'passed', 'failed', 'flaked', 'skipped', 'install_failed', 'parse_errors', 'meta', 'fingerprint', 'ingested_at'];
const RUN_TUPLE = `(${RUN_COLUMNS.map(() => '?').join(', ')})`;
const RUN_INSERT = `INSERT INTO run (${RUN_COLUMNS.join(', ')}) VALUES`;
/** runs per INSERT statement (21 parameters each) */
const RUN_CHUNK = 200;

/**
 * Stores runs; to be called inside a transaction. A batch of new runs costs one statement for the runs and one for their failures, whatever
 * its size: on PostgreSQL each statement is a round trip.
 */
export async function writeRuns(sql: Sql, catalog: Catalog, runs: RunToWrite[], now: number): Promise<void> {
  if (!runs.length) return;
  const ids = await catalog.testIds(sql, runs.map((r) => r.assembled.record.results), now);
  const rows: Param[][] = [];
  for (let k = 0; k < runs.length; k++) {
    const rec = runs[k].assembled.record;
    const jobId = await catalog.jobId(sql, rec.job, rec.type, now);
    const executed = new Int32Array(rec.results.length);
    let e = 0;
    const counts = { passed: 0, failed: 0, flaked: 0, skipped: 0 };
    for (let i = 0; i < rec.results.length; i++) {
      const outcome = rec.results[i].outcome;
      counts[outcome]++;
      if (outcome !== 'skipped') executed[e++] = ids[k][i];
    }
    const testSetId = e ? await catalog.testSetId(sql, executed.subarray(0, e)) : null;
    rows.push([
      jobId, rec.buildId, rec.state, rec.started, rec.finished, rec.url, rec.gcsPath, rec.pull, rec.baseRef, rec.commitSha, rec.payload,
      testSetId, counts.passed, counts.failed, counts.flaked, counts.skipped, rec.installFailed ? 1 : 0, rec.problems.length,
      JSON.stringify(rec.meta), rec.fingerprint, now,
    ]);
  }
  // New runs in one INSERT; runs stored before (known, or found by the insert) are replaced: the
  // earlier version's outcomes and parse errors go with it (ON DELETE CASCADE).
  const runIds: (number | undefined)[] = new Array(runs.length);
  const fresh = runs.flatMap((r, i) => (r.replace ? [] : [i]));
  for (let c = 0; c < fresh.length; c += RUN_CHUNK) {
    const chunk = fresh.slice(c, c + RUN_CHUNK);
    const inserted = await sql.all<{ id: number; job_id: number; build_id: string }>(
      `${RUN_INSERT} ${chunk.map(() => RUN_TUPLE).join(', ')} ON CONFLICT (job_id, build_id) DO NOTHING RETURNING id, job_id, build_id`,
      chunk.flatMap((i) => rows[i]),
    );
    const byKey = new Map(inserted.map((r) => [`${r.job_id}/${r.build_id}`, r.id]));
    for (const i of chunk) runIds[i] = byKey.get(`${rows[i][0]}/${rows[i][1]}`);
  }
  for (let i = 0; i < runs.length; i++) {
    if (runIds[i] !== undefined) continue;
    await sql.run('DELETE FROM run WHERE job_id = ? AND build_id = ?', [rows[i][0], rows[i][1]]);
    runIds[i] = (await sql.get<{ id: number }>(`${RUN_INSERT} ${RUN_TUPLE} RETURNING id`, rows[i]))!.id;
  }

  const outcomes: Param[][] = [];
  const problems: Param[][] = [];
  for (let k = 0; k < runs.length; k++) {
    const { record: rec, signatures } = runs[k].assembled;
    const runId = runIds[k]!;
    const jobId = rows[k][0];
    for (let i = 0; i < rec.results.length; i++) {
      const r = rec.results[i];
      if (r.outcome !== 'failed' && r.outcome !== 'flaked') continue;
      const sig = signatures[i];
      const signatureId = sig ? await catalog.signatureId(sql, sig, rec.started) : null;
      outcomes.push([runId, ids[k][i], OUTCOME_CODE[r.outcome], signatureId, rec.started, jobId, capMessage(r.message)]);
    }
    for (const p of rec.problems) problems.push([runId, cleanText(p.file), cleanText(p.message.slice(0, 2000))]);
  }
  await insertMany(sql, 'test_outcome', ['run_id', 'test_id', 'outcome', 'signature_id', 'started', 'job_id', 'message'], outcomes);
  await insertMany(sql, 'parse_error', ['run_id', 'file', 'message'], problems);
  const cleared = runs.filter((r) => r.wasPending).map((r) => r.assembled.record);
  for (let c = 0; c < cleared.length; c += 500) {
    const chunk = cleared.slice(c, c + 500);
    await sql.run(`DELETE FROM pending_run WHERE ${chunk.map(() => '(job = ? AND build_id = ?)').join(' OR ')}`, chunk.flatMap((r) => [r.job, r.buildId]));
  }
}
