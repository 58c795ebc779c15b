// Writing one run: a single transaction that replaces whatever the database had for (job, build),
// so a kill -9 leaves either the whole run or none of it, and re-ingest never duplicates.
import { cleanText } from '../ingest/assemble';
import type { AssembledRun } from '../ingest/runReader';
import type { Catalog } from './catalog';
import type { Database, Sql } from './db';
import { insertMany } from './bulk';

export const OUTCOME_CODE = { failed: 1, flaked: 2 } as const;
/** Raw failure text kept per outcome (the normalised text lives once on the signature). */
export const MESSAGE_CAP = 4000;

export interface KnownRun {
  state: string;
  fingerprint: string;
  incomplete: boolean;
}

/** The runs already stored among the given (job, build) pairs, keyed "job/build". */
export async function knownRuns(db: Database, sinceStarted: number): Promise<Map<string, KnownRun>> {
  const rows = await db.all<{ name: string; build_id: string; state: string; fingerprint: string; meta: string }>(
    `SELECT j.name, r.build_id, r.state, r.fingerprint, r.meta FROM run r JOIN job j ON j.id = r.job_id WHERE r.started >= ?`,
    [sinceStarted],
  );
  return new Map(rows.map((r) => [`${r.name}/${r.build_id}`, { state: r.state, fingerprint: r.fingerprint, incomplete: r.meta.includes('"incomplete":true') }]));
}

function capMessage(s: string): string {
  return s.length <= MESSAGE_CAP ? s : `${s.slice(0, MESSAGE_CAP / 2)}\n...[truncated]...\n${s.slice(-MESSAGE_CAP / 2)}`;
}

/** How a run is stored: what the pass knows about rows it may already have. */
export interface WriteRunOptions {
  /** an earlier version may be stored (else it is assumed new, and checked by the insert) */
  replace: boolean;
  /** it has a pending_run row to clear */
  wasPending: boolean;
}

const RUN_COLUMNS = `job_id, build_id, state, started, finished, url, gcs_path, pull, base_ref, commit_sha, payload,
  test_set_id, passed, failed, flaked, skipped, install_failed, parse_errors, meta, fingerprint, ingested_at`;
const INSERT_RUN = `INSERT INTO run (${RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Stores a run, replacing an earlier version; to be called inside a transaction, so that either the
 * whole run or none of it is stored. Returns the number of test results written. A new run costs
 * one statement for the run and one for its failures: on PostgreSQL each statement is a round trip.
 */
export async function writeRun(sql: Sql, catalog: Catalog, assembled: AssembledRun, now: number, opts: WriteRunOptions): Promise<number> {
  const rec = assembled.record;
  const jobId = await catalog.jobId(sql, rec.job, rec.type, now);
  const executed = rec.results.filter((r) => r.outcome !== 'skipped');
  const ids = await catalog.testIds(sql, rec.results.map((r) => r.name), now);
  const testSetId = executed.length ? await catalog.testSetId(sql, executed.map((r) => ids.get(r.name)!)) : null;
  const counts = { passed: 0, failed: 0, flaked: 0, skipped: 0 };
  for (const r of rec.results) counts[r.outcome]++;
  const values = [
    jobId, rec.buildId, rec.state, rec.started, rec.finished, rec.url, rec.gcsPath, rec.pull, rec.baseRef, rec.commitSha, rec.payload,
    testSetId, counts.passed, counts.failed, counts.flaked, counts.skipped, rec.installFailed ? 1 : 0, rec.problems.length,
    JSON.stringify(rec.meta), rec.fingerprint, now,
  ];
  let row = opts.replace ? undefined : await sql.get<{ id: number }>(`${INSERT_RUN} ON CONFLICT (job_id, build_id) DO NOTHING RETURNING id`, values);
  if (!row) {
    // an earlier version (its outcomes and parse errors go with it: ON DELETE CASCADE)
    await sql.run('DELETE FROM run WHERE job_id = ? AND build_id = ?', [jobId, rec.buildId]);
    row = await sql.get<{ id: number }>(`${INSERT_RUN} RETURNING id`, values);
  }
  const runId = row!.id;
  const outcomes = [];
  for (const [i, r] of rec.results.entries()) {
    if (r.outcome !== 'failed' && r.outcome !== 'flaked') continue;
    const sig = assembled.signatures[i];
    const signatureId = sig ? await catalog.signatureId(sql, sig, rec.started) : null;
    outcomes.push([runId, ids.get(r.name)!, OUTCOME_CODE[r.outcome], signatureId, rec.started, jobId, capMessage(r.message)]);
  }
  await insertMany(sql, 'test_outcome', ['run_id', 'test_id', 'outcome', 'signature_id', 'started', 'job_id', 'message'], outcomes);
  await insertMany(sql, 'parse_error', ['run_id', 'file', 'message'], rec.problems.map((p) => [runId, cleanText(p.file), cleanText(p.message.slice(0, 2000))]));
  if (opts.wasPending) await sql.run('DELETE FROM pending_run WHERE job = ? AND build_id = ?', [rec.job, rec.buildId]);
  return rec.results.length;
}
