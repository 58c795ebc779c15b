// Issue 18 on a real `next start` over loopback, on SQLite and PostgreSQL: the hostile patterns
// that froze the server (it answers them, and /api/health within 200 ms meanwhile), a 40,000-character
// regex (a 400 that names the limit), and search as ci-search does it on the sample world: `Will
// promote` in the build logs of every promotion run, context lines, in=logs|failures|bugs, a clear 400
// for what RE2 does not take, and a budget too small to finish in (a partial answer, the server fine).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { END_ISO, TEST_WORLD_END } from '../tests/helpers/world';
import { describeOnEngines, healthWhile, median, startEngine, storeRun, type EngineServer } from './support/engines';

const END = Math.floor(TEST_WORLD_END.getTime() / 1000);
const FROM = END - 14 * 86_400;
const HOSTILE_JOB = 'periodic-ci-openshift-release-master-hostile-e2e-aws';
/** 50,000 characters that (a+)+$ backtracks over for ever on V8's engine */
const HOSTILE_TEXT = `${'a'.repeat(50_000)}!`;

interface WorldRun {
  job: string;
  buildId: string;
  started: number;
  bucket: string;
  gcsPath: string;
  ciTest: string;
  files: { path: string; visibleAt: number }[];
}

describeOnEngines('search and hostile patterns on a real server', (engine) => {
  let e: EngineServer;
  let base: string;
  let runs: WorldRun[];
  const logOf = (r: WorldRun) => fs.readFileSync(path.join(e.sample.worldDir, 'gcs', r.bucket, r.gcsPath, 'build-log.txt'), 'utf8');
  /** runs ingested in the search window that have a build log */
  const logged = () => runs.filter((r) => r.started >= FROM && r.started < END && r.files.some((f) => f.path === 'build-log.txt' && f.visibleAt <= END));
  const get = async (route: string) => {
    const r = await fetch(`${base}${route}`);
    return { status: r.status, body: (await r.json()) as any, length: Number(r.headers.get('content-length') ?? 0) };
  };

  beforeAll(async () => {
    e = await startEngine(engine, (db) =>
      storeRun(db, { job: HOSTILE_JOB, buildId: '1', type: 'periodic', state: 'failure', started: END - 3600, finished: END - 1800, url: 'https://prow.example/view/gs/bucket/logs/x/1' }, [
        { path: 'build-log.txt', bytes: Buffer.from(`${HOSTILE_TEXT}\n`) },
        { path: 'artifacts/e2e/junit/junit_e2e.xml', bytes: Buffer.from(`<testsuite name="s" tests="1" failures="1"><testcase name="[sig-x] hostile text"><failure message="">${HOSTILE_TEXT}</failure></testcase></testsuite>`) },
      ]),
    );
    base = e.server.baseUrl;
    runs = JSON.parse(fs.readFileSync(path.join(e.sample.worldDir, 'world.json'), 'utf8')).runs;
  }, 600_000);
  afterAll(async () => e?.stop());

  it('answers (.+)+X, (a+)+$ over a stored 50,000-character text, (.|.){1,22}X and (.*a){20}, with /api/health under 200 ms meanwhile', async () => {
    const probes = [
      `/api/search?q=${encodeURIComponent('(.+)+X')}&at=${END_ISO}`,
      `/api/search?q=${encodeURIComponent('(a+)+$')}&at=${END_ISO}&in=logs,failures`,
      `/api/hotlist?job=${encodeURIComponent('(.|.){1,22}X')}&at=${END_ISO}`,
      `/api/hotlist?test=${encodeURIComponent('(.*a){20}')}&at=${END_ISO}&window=14d`,
    ];
    const { result, healthMs } = await healthWhile(base, Promise.all(probes.map(get)));
    for (const [i, r] of result.entries()) expect(r.status, probes[i]).toBe(200);
    // the stored text was searched: (a+)+$ finds the hostile run's log and failure ending in "!" nowhere
    expect(result[1].body.candidates.logs).toBeGreaterThan(0);
    expect(result[1].body.matchingRuns).toBe(0);
    expect(result[2].body.items).toEqual([]);
    expect(median(healthMs)).toBeLessThan(200);
    expect(Math.max(...healthMs)).toBeLessThan(2000);
  });

  it('finds what the hostile text does hold, in its log and in its failure', async () => {
    const r = await get(`/api/search?q=${encodeURIComponent('a{1000}!')}&at=${END_ISO}&context=0`);
    expect(r.status).toBe(200);
    expect(r.body.jobs.map((j: { job: string }) => j.job)).toEqual([HOSTILE_JOB]);
    expect(r.body.results.map((g: { test: string }) => g.test)).toEqual(['[sig-x] hostile text']);
  });

  it('refuses a 40,000-character job or test regex with a 400 that names the limit, without echoing it', async () => {
    for (const param of ['job', 'test']) {
      const r = await get(`/api/hotlist?${param}=${'a'.repeat(40_000)}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(`invalid ${param} regular expression: 40000 characters, 2000 at most`);
    }
    const s = await get(`/api/search?q=x&job=${'(a'.repeat(20_000)}`);
    expect(s.status).toBe(400);
    expect(s.body.error).toMatch(/^invalid job regular expression: 40000 characters, 2000 at most$/);
  });

  it('gives a hostile or unsupported pattern its clear 400', async () => {
    expect((await get(`/api/search?q=${encodeURIComponent('(a)\\1')}`)).body.error).toMatch(/backreferences \(\\1, \\k<name>\) are not supported/);
    expect((await get(`/api/search?q=${encodeURIComponent('x(?=y)')}`)).body.error).toMatch(/lookahead and lookbehind .* are not supported/);
    expect((await get(`/api/hotlist?test=${encodeURIComponent('(?<!b)c')}`)).body.error).toMatch(/^invalid test regular expression: lookahead and lookbehind/);
    expect((await get('/api/search?q=x&in=logs,nothing')).status).toBe(400);
    expect((await get('/api/search?q=x&context=99')).status).toBe(400);
  });

  it('finds `Will promote` in the build log of every promotion run, and in no other', async () => {
    const expected = logged().filter((r) => logOf(r).includes('Will promote '));
    expect(expected.length).toBeGreaterThan(20);
    const r = await get(`/api/search?q=${encodeURIComponent('Will promote')}&at=${END_ISO}&in=logs&limit=1000`);
    expect(r.status).toBe(200);
    expect(r.body.partial).toBeUndefined();
    expect(r.body.matchingRuns).toBe(expected.length);
    const perJob = new Map<string, number>();
    for (const x of expected) perJob.set(x.job, (perJob.get(x.job) ?? 0) + 1);
    expect(Object.fromEntries(r.body.jobs.map((j: { job: string; matchingRuns: number }) => [j.job, j.matchingRuns]))).toEqual(Object.fromEntries(perJob));
    expect(r.body.perDay.reduce((n: number, d: { matchingRuns: number }) => n + d.matchingRuns, 0)).toBe(expected.length);
    // the promotion jobs' runs, all of them: the index left none out, and read few others
    expect(r.body.candidates.logs).toBeLessThan(expected.length * 2);
  });

  it('shows matching lines with their context lines, as the build log has them', async () => {
    const r = await get(`/api/search?q=${encodeURIComponent('Will promote sha256:[0-9a-f]+')}&at=${END_ISO}&in=logs&context=2`);
    const shown = r.body.jobs.flatMap((j: { job: string; runs: { buildId: string; files: { path: string; lines: unknown[] }[] }[] }) => j.runs.map((run) => ({ job: j.job, ...run })));
    expect(shown.length).toBeGreaterThan(0);
    for (const run of shown.slice(0, 10)) {
      const world = runs.find((w) => w.job === run.job && w.buildId === run.buildId)!;
      const lines = logOf(world).split('\n');
      const [file] = run.files;
      expect(file.path).toBe('build-log.txt');
      for (const l of file.lines as { line: number; text: string; before: string[]; after: string[]; marks: [number, number][] }[]) {
        expect(l.text).toBe(lines[l.line - 1]);
        expect(l.before).toEqual(lines.slice(Math.max(0, l.line - 3), l.line - 1));
        expect(l.after).toEqual(lines.slice(l.line, l.line + 2));
        expect(l.text.slice(l.marks[0][0], l.marks[0][1])).toMatch(/^Will promote sha256:[0-9a-f]+$/);
      }
    }
  });

  it('in=logs reads the failing step\'s build log; in=failures the failure texts only; in=bugs the bug texts only', async () => {
    // the world's install failures: their install step failed (junit_operator.xml), its log under artifacts/<test>/ipi-install-install/
    const installFailed = logged().filter((r) => /^level=fatal /m.test(logOf(r)));
    expect(installFailed.length).toBeGreaterThan(3);
    const logs = await get(`/api/search?q=${encodeURIComponent('step progress 39')}&at=${END_ISO}&in=logs&limit=1000`);
    expect(logs.body.matchingRuns).toBe(installFailed.length);
    const files = logs.body.jobs.flatMap((j: { runs: { files: { path: string }[] }[] }) => j.runs.flatMap((run) => run.files.map((f) => f.path)));
    for (const f of files) expect(f).toMatch(/^artifacts\/[^/]+\/ipi-install-install\/build-log\.txt$/);
    expect(logs.body.results).toEqual([]);

    const truth = e.sample.truth;
    const failures = await get(`/api/search?q=${encodeURIComponent('TLS handshake timeout')}&at=${END_ISO}&in=failures&limit=1000`);
    expect(failures.body.jobs).toEqual([]);
    expect(failures.body.bugs).toEqual([]);
    expect(new Set(failures.body.results.map((g: { test: string }) => g.test))).toEqual(new Set(truth.tlsSignature.tests));

    const bugzilla = (JSON.parse(fs.readFileSync(path.join(e.sample.worldDir, 'bugzilla/bugs.json'), 'utf8')) as { bugs: { id: number; comments: { text: string }[] }[] }).bugs;
    const bug = bugzilla.find((b) => b.comments.some((c) => c.text.length > 40))!;
    const phrase = bug.comments.find((c) => c.text.length > 40)!.text.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const bugs = await get(`/api/search?q=${encodeURIComponent(phrase)}&at=${END_ISO}&in=bugs`);
    expect(bugs.body.jobs).toEqual([]);
    expect(bugs.body.results).toEqual([]);
    expect(bugs.body.matchingRuns).toBe(0);
    expect(bugs.body.bugs.map((b: { tracker: string; id: string }) => `${b.tracker}/${b.id}`)).toContain(`bugzilla/${bug.id}`);
  });

  it('stops a search that cannot finish in its budget with a partial answer, and the server answers on', async () => {
    const r = await get(`/api/search?q=${encodeURIComponent('.')}&at=${END_ISO}&budget=0`);
    expect(r.status).toBe(200);
    expect(r.body.partial).toMatchObject({ reason: 'time budget' });
    expect(r.body.partial.covered).toMatch(/^0 of \d+ candidate runs/);
    expect(r.body.truncated).toBe(true);
    const h = await get(`/api/hotlist?at=${END_ISO}&budget=0`);
    expect(h.body.partial).toMatchObject({ reason: 'time budget' });
    expect(h.body.items).toEqual([]);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    // and without the budget, the same search is whole
    const whole = await get(`/api/search?q=${encodeURIComponent('Will promote')}&at=${END_ISO}`);
    expect(whole.body.partial).toBeUndefined();
  });
});
