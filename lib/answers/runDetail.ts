// One run: state, duration, refs, failed and flaked tests with their failure text, parse errors.
import type { Database } from '../store/db';
import { iso } from '../history/window';
import { NotFoundError } from '../errors';

/** gs://bucket/path → the browsable artifacts URL (gcsweb), when a GCS web URL is known. */
export function artifactsUrl(gcsPath: string, gcsWebUrl = 'https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs'): string {
  return gcsPath.startsWith('gs://') ? `${gcsWebUrl.replace(/\/$/, '')}/${gcsPath.slice(5)}/` : '';
}

export async function runDetail(db: Database, job: string, buildId: string) {
  const r = await db.get<{
    id: number; job: string; build_id: string; state: string; started: number; finished: number | null; url: string; gcs_path: string;
    pull: number | null; base_ref: string; commit_sha: string; payload: string; passed: number; failed: number; flaked: number; skipped: number;
    install_failed: number; meta: string; ingested_at: number;
  }>(
    `SELECT r.id, j.name AS job, r.build_id, r.state, r.started, r.finished, r.url, r.gcs_path, r.pull, r.base_ref, r.commit_sha, r.payload,
            r.passed, r.failed, r.flaked, r.skipped, r.install_failed, r.meta, r.ingested_at
     FROM run r JOIN job j ON j.id = r.job_id WHERE j.name = ? AND r.build_id = ?`,
    [job, buildId],
  );
  if (!r) {
    const pending = await db.get<{ state: string; started: number; url: string; last_error: string }>(
      'SELECT state, started, url, last_error FROM pending_run WHERE job = ? AND build_id = ?',
      [job, buildId],
    );
    if (pending) throw new NotFoundError(`run ${job} ${buildId} is ${pending.state} (not finished or not fetched yet${pending.last_error ? `: ${pending.last_error}` : ''})`);
    throw new NotFoundError(`no run ${JSON.stringify(job)} ${JSON.stringify(buildId)}`);
  }
  const tests = await db.all<{ name: string; hash: string; outcome: number; message: string; sig: string | null; sig_text: string | null }>(
    `SELECT t.name, t.hash, o.outcome, o.message, s.hash AS sig, s.text AS sig_text
     FROM test_outcome o JOIN test t ON t.id = o.test_id LEFT JOIN signature s ON s.id = o.signature_id
     WHERE o.run_id = ? ORDER BY o.outcome, t.name`,
    [r.id],
  );
  const errors = await db.all<{ file: string; message: string }>('SELECT file, message FROM parse_error WHERE run_id = ? ORDER BY id', [r.id]);
  let meta: Record<string, unknown> = {};
  try {
    meta = JSON.parse(r.meta) as Record<string, unknown>;
  } catch {
    /* an unreadable meta column only loses the extras */
  }
  const test = (t: (typeof tests)[number]) => ({ test: t.name, id: t.hash, message: t.message, signature: t.sig ? { id: t.sig, text: t.sig_text } : null });
  return {
    job: r.job,
    buildId: r.build_id,
    state: r.state,
    started: iso(r.started),
    finished: r.finished ? iso(r.finished) : null,
    durationSeconds: r.finished ? r.finished - r.started : null,
    url: r.url,
    artifacts: r.gcs_path,
    artifactsUrl: artifactsUrl(r.gcs_path),
    refs: { pull: r.pull, baseRef: r.base_ref, commit: r.commit_sha, ...(meta.refs ? { detail: meta.refs } : {}) },
    payload: r.payload || null,
    counts: { passed: r.passed, failed: r.failed, flaked: r.flaked, skipped: r.skipped },
    installFailure: r.install_failed ? (meta.installFailure ?? { steps: [] }) : null,
    promote: meta.promote ?? null,
    resultsFrom: meta.resultsFrom ?? null,
    incomplete: meta.incomplete === true,
    failedTests: tests.filter((t) => t.outcome === 1).map(test),
    flakedTests: tests.filter((t) => t.outcome === 2).map(test),
    parseErrors: errors,
    ingestedAt: iso(r.ingested_at),
  };
}

export type RunDetail = Awaited<ReturnType<typeof runDetail>>;
