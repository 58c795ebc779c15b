// Run and job pages on the ingested sample world: ci-operator's wrapper tests are never failures of
// their own (a run with one real failure counts 1), presubmits show their pull and head commit, the
// job's grid holds every failed or flaked test of its latest runs, and the failure's junit file is linked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobDetail, parseJobsQuery } from '../../lib/answers/jobs';
import { runDetail } from '../../lib/answers/runDetail';
import { GRID_COLUMNS } from '../../lib/answers/jobGrid';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { JOBS, operatorTestNames } from '../../lib/world/catalog';
import { MONITOR_TEST } from '../../lib/world/testNames';
import { END_ISO, worldDatabaseUrl } from '../helpers/world';

// The world's wrapper tests, as its generator writes them (not as ignoreTests matches them).
const WRAPPERS = new Set([MONITOR_TEST, ...JOBS.flatMap((j) => [true, false].flatMap((p) => Object.values(operatorTestNames(j.ciTest, p))))]);
const config = { prow: { url: 'https://prow.ci.openshift.org' }, gcs: { url: 'https://storage.googleapis.com' } };

let db: Database;
beforeAll(async () => {
  db = await openDatabase(await worldDatabaseUrl());
}, 600_000);
afterAll(async () => {
  if (db) await closeDatabase(db);
});

/** Each run's failed outcomes by test name, straight from the table. */
async function failuresOf(runId: number): Promise<string[]> {
  return (await db.all<{ name: string }>('SELECT t.name FROM test_outcome o JOIN test t ON t.id = o.test_id WHERE o.run_id = ? AND o.outcome = 1', [runId])).map((r) => r.name);
}

describe('a run', () => {
  it('counts one real failure as 1 and lists the wrapper tests apart, with the failing step\'s log', async () => {
    const candidates = await db.all<{ id: number; job: string; build_id: string; failed: number }>(
      `SELECT r.id, j.name AS job, r.build_id, r.failed FROM run r JOIN job j ON j.id = r.job_id WHERE r.failed BETWEEN 2 AND 5 ORDER BY r.started DESC`,
    );
    let checked = 0;
    for (const c of candidates) {
      const names = await failuresOf(c.id);
      const real = names.filter((n) => !WRAPPERS.has(n));
      if (real.length !== 1 || names.length === 1) continue;
      const r = await runDetail(db, c.job, c.build_id, config);
      expect(c.failed).toBe(names.length);
      expect(r.counts.failed).toBe(1);
      expect(r.failedTests.map((t) => t.test)).toEqual(real);
      expect(r.wrapperTests.filter((t) => t.outcome === 'failed').map((t) => t.test).sort()).toEqual(names.filter((n) => WRAPPERS.has(n)).sort());
      expect(r.counts.wrapperFailed).toBe(names.length - 1);
      // the e2e step's wrapper failed with it: its log is linked, where Prow uploads it
      const step = r.links.stepLogs.find((l) => l.step.endsWith('/openshift-e2e-test'));
      expect(step?.url).toBe(`https://storage.googleapis.com/${r.artifacts.slice(5)}/${step?.file}`);
      expect(r.links.buildLog).toBe(`https://storage.googleapis.com/${r.artifacts.slice(5)}/build-log.txt`);
      expect(r.artifactsUrl).toBe(`https://prow.ci.openshift.org/view/gs/${r.artifacts.slice(5)}/`);
      // and the failure's junit file, as ingest recorded it
      expect(r.failedTests[0].junit).toMatch(/^artifacts\/[^/]+\/openshift-e2e-test\/artifacts\/junit\/junit_e2e_[^/]+\.xml$/);
      expect(r.failedTests[0].junitUrl).toBe(`https://storage.googleapis.com/${r.artifacts.slice(5)}/${r.failedTests[0].junit}`);
      if (++checked === 3) break;
    }
    expect(checked).toBe(3);
  });

  it('shows a presubmit\'s pull request and head commit', async () => {
    const row = (await db.get<{ job: string; build_id: string; pull: number; commit_sha: string; meta: string }>(
      `SELECT j.name AS job, r.build_id, r.pull, r.commit_sha, r.meta FROM run r JOIN job j ON j.id = r.job_id WHERE j.name LIKE 'pull-ci-%' AND r.pull IS NOT NULL LIMIT 1`,
    ))!;
    const refs = JSON.parse(row.meta).refs as { org: string; repo: string; pulls: { number: number; sha: string }[] };
    const r = await runDetail(db, row.job, row.build_id, config);
    expect(r.refs.pull).toBe(refs.pulls[0].number);
    expect(r.refs.commit).toBe(refs.pulls[0].sha);
    expect(r.refs.pullUrl).toBe(`https://github.com/${refs.org}/${refs.repo}/pull/${refs.pulls[0].number}`);
  });
});

describe('a job', () => {
  const job = 'pull-ci-openshift-origin-master-e2e-aws';

  it('counts its runs\' failures without the wrapper tests', async () => {
    const j = await jobDetail(db, job, parseJobsQuery({ at: END_ISO }), {});
    const ids = new Map((await db.all<{ id: number; build_id: string }>('SELECT r.id, r.build_id FROM run r JOIN job j ON j.id = r.job_id WHERE j.name = ?', [job])).map((r) => [r.build_id, r.id]));
    let inflated = 0;
    for (const r of j.runs) {
      const names = await failuresOf(ids.get(r.buildId)!);
      expect(r.failed, r.buildId).toBe(names.filter((n) => !WRAPPERS.has(n)).length);
      expect(r.wrapperFailed).toBe(names.filter((n) => WRAPPERS.has(n)).length);
      if (r.wrapperFailed) inflated++;
    }
    expect(inflated).toBeGreaterThan(0);
  });

  it('shows TestGrid\'s view: the latest runs as columns, every test that failed or flaked in them as a row', async () => {
    const { grid, runs } = await jobDetail(db, job, parseJobsQuery({ at: END_ISO }), {});
    expect(grid.columns.map((c) => c.buildId)).toEqual(runs.slice(0, GRID_COLUMNS).map((r) => r.buildId));
    const outcomes = await db.all<{ build_id: string; name: string; outcome: number }>(
      `SELECT r.build_id, t.name, o.outcome FROM test_outcome o JOIN test t ON t.id = o.test_id JOIN run r ON r.id = o.run_id
       WHERE r.build_id IN (${grid.columns.map(() => '?').join(', ')})`,
      grid.columns.map((c) => c.buildId),
    );
    const real = outcomes.filter((o) => !WRAPPERS.has(o.name));
    expect(grid.totalRows).toBe(new Set(real.map((o) => o.name)).size);
    expect(grid.rows.length).toBe(Math.min(200, grid.totalRows));
    for (const o of real) {
      const row = grid.rows.find((x) => x.test === o.name);
      if (!row) continue; // beyond the rows shown
      const cell = row.cells[grid.columns.findIndex((c) => c.buildId === o.build_id)];
      expect(cell.outcome).toBe(o.outcome === 1 ? 'failed' : 'flaked');
    }
    const cells = grid.rows.flatMap((r) => r.cells);
    expect(cells.length).toBe(grid.rows.length * grid.columns.length);
    // a cell without a failure is a pass where the run executed the test
    expect(cells.filter((c) => c.outcome === 'passed').length).toBeGreaterThan(0);
    expect(cells.some((c) => c.outcome === 'failed' && c.message)).toBe(true);
    expect(grid.rows.some((r) => WRAPPERS.has(r.test))).toBe(false);
  });
});
