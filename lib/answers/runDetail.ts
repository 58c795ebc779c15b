// One run: state, duration, refs, failed and flaked tests with their failure text, parse errors, and
// links to its artifacts. ci-operator's wrapper tests (ignoreTests) are listed apart and not counted
// as failures: a run with one real failure counts 1.
import type { Config } from '../config';
import type { Database } from '../store/db';
import { ignoreMatcher } from '../parse/variants';
import { iso } from '../history/window';
import { NotFoundError } from '../errors';
import { artifactPlaces, fileUrl, folderUrl, junitOf, stepLogOfJunit, stepLogOfWrapperTest, type JunitSources } from './artifacts';
import { wrapperTallies } from './jobGrid';
import { pullUrl } from './refs';

export type RunDetailConfig = Pick<Config, 'prow' | 'gcs' | 'ignoreTests'>;

export async function runDetail(db: Database, job: string, buildId: string, config?: RunDetailConfig) {
  const r = await db.get<{
    id: number; job: string; build_id: string; state: string; started: number; finished: number | null; url: string; gcs_path: string;
    pull: number | null; base_ref: string; commit_sha: string; payload: string; passed: number; failed: number; flaked: number; skipped: number;
    install_failed: number; meta: string; ingested_at: number; test_set_id: number | null;
  }>(
    `SELECT r.id, j.name AS job, r.build_id, r.state, r.started, r.finished, r.url, r.gcs_path, r.pull, r.base_ref, r.commit_sha, r.payload,
            r.passed, r.failed, r.flaked, r.skipped, r.install_failed, r.meta, r.ingested_at, r.test_set_id
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
  const places = artifactPlaces(config, r.url);
  const junit = meta as JunitSources;
  const isWrapper = ignoreMatcher(config?.ignoreTests);
  const test = (t: (typeof tests)[number]) => {
    const file = junitOf(junit, t.name);
    return { test: t.name, id: t.hash, message: t.message, signature: t.sig ? { id: t.sig, text: t.sig_text } : null, junit: file ?? null, junitUrl: file ? fileUrl(places, r.gcs_path, file) : null };
  };
  const real = tests.filter((t) => !isWrapper(t.name));
  const wrappers = tests.filter((t) => isWrapper(t.name));
  const tally = (await wrapperTallies(db, [{ id: r.id, testSetId: r.test_set_id }], tests.map((t) => ({ run_id: r.id, name: t.name, outcome: t.outcome })), isWrapper)).get(r.id)!;
  // the failing steps' logs: named by the failing wrapper tests, and the step folders of the junit files with failures
  const steps = new Map<string, string>();
  for (const t of wrappers) {
    const s = t.outcome === 1 ? stepLogOfWrapperTest(t.name) : undefined;
    if (s) steps.set(s.step, s.path);
  }
  const failedJunits = [...new Set(real.map((t) => junitOf(junit, t.name)).filter((f): f is string => !!f))];
  for (const f of failedJunits) {
    const s = stepLogOfJunit(f);
    if (s) steps.set(s.step, s.path);
  }
  const refDetail = meta.refs as { org?: string; repo?: string } | undefined;
  return {
    job: r.job,
    buildId: r.build_id,
    state: r.state,
    started: iso(r.started),
    finished: r.finished ? iso(r.finished) : null,
    durationSeconds: r.finished ? r.finished - r.started : null,
    url: r.url,
    artifacts: r.gcs_path,
    artifactsUrl: folderUrl(places, r.gcs_path),
    /** direct links: the run's build log, the failing steps' logs, the junit files that held failures */
    links: {
      buildLog: fileUrl(places, r.gcs_path, 'build-log.txt') || null,
      stepLogs: [...steps].map(([step, file]) => ({ step, file, url: fileUrl(places, r.gcs_path, file) })).filter((l) => l.url),
      junit: failedJunits.map((file) => ({ file, url: fileUrl(places, r.gcs_path, file) })).filter((l) => l.url),
    },
    refs: { pull: r.pull, baseRef: r.base_ref, commit: r.commit_sha, pullUrl: r.pull !== null ? pullUrl(refDetail, r.pull) : null, ...(meta.refs ? { detail: meta.refs } : {}) },
    payload: r.payload || null,
    counts: {
      passed: Math.max(0, r.passed - tally.passed), failed: Math.max(0, r.failed - tally.failed), flaked: Math.max(0, r.flaked - tally.flaked), skipped: r.skipped,
      wrapperFailed: tally.failed, wrapperFlaked: tally.flaked, wrapperPassed: tally.passed,
    },
    installFailure: r.install_failed ? (meta.installFailure ?? { steps: [] }) : null,
    promote: meta.promote ?? null,
    resultsFrom: meta.resultsFrom ?? null,
    incomplete: meta.incomplete === true,
    failedTests: real.filter((t) => t.outcome === 1).map(test),
    flakedTests: real.filter((t) => t.outcome === 2).map(test),
    /** ci-operator steps and monitors (ignoreTests): they only mirror the tests above */
    wrapperTests: wrappers.map((t) => ({ ...test(t), outcome: t.outcome === 1 ? ('failed' as const) : ('flaked' as const), stepLog: t.outcome === 1 ? (stepLogOfWrapperTest(t.name)?.path ?? null) : null })),
    parseErrors: errors,
    ingestedAt: iso(r.ingested_at),
  };
}

export type RunDetail = Awaited<ReturnType<typeof runDetail>>;
