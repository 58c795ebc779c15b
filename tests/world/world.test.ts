// The sample-world generator: deterministic output, a truth.json that agrees with itself and with the
// world's data files, every scenario present, and well-formed files in the real shapes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../lib/config';
import { selectFiles } from '../../lib/ingest/assemble';
import { DEFAULT_MAX_FILE_BYTES } from '../../lib/ingest/run';
import { TEST_WORLD_END } from '../../lib/replay/ensureWorld';
import { runFiles } from '../../lib/replay/world';
import { generateWorld } from '../../lib/world/generate';
import type { WorldBugzillaBug, WorldGithubIssue, WorldJiraIssue, WorldManifest } from '../../lib/world/types';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Truth = any;

function hashDir(dir: string): string {
  const h = crypto.createHash('sha256');
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else h.update(r).update('\0').update(fs.readFileSync(path.join(dir, r))).update('\0');
    }
  };
  walk('.');
  return h.digest('hex');
}

/** a minimal well-formedness check: balanced tags, no stray '<' or '&' in text */
function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|<\?xml[^>]*\?>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  const checkText = (t: string) => {
    if (t.includes('<')) problems.push(`stray < in ${JSON.stringify(t.slice(0, 60))}`);
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);)/.test(t)) problems.push(`bad entity in ${JSON.stringify(t.slice(0, 60))}`);
  };
  while ((m = tag.exec(xml))) {
    checkText(xml.slice(last, m.index));
    last = tag.lastIndex;
    if (!m[2]) continue;
    if (m[3]) checkText(m[3].replace(/="[^"]*"/g, (a) => a.slice(2, -1)));
    if (m[1]) {
      if (stack.pop() !== m[2]) problems.push(`unbalanced </${m[2]}>`);
    } else if (!m[4]) stack.push(m[2]);
  }
  checkText(xml.slice(last));
  if (stack.length) problems.push(`unclosed ${stack.join(',')}`);
  return problems;
}

let base: string;
let dirA: string;
let dirB: string;
let manifest: WorldManifest;
let truth: Truth;
let genSeconds = 0;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-world-'));
  dirA = path.join(base, 'a');
  dirB = path.join(base, 'b');
  const t0 = performance.now();
  await generateWorld({ dir: dirA, end: TEST_WORLD_END });
  genSeconds = (performance.now() - t0) / 1000;
  await generateWorld({ dir: dirB, end: TEST_WORLD_END });
  manifest = JSON.parse(fs.readFileSync(path.join(dirA, 'world.json'), 'utf8'));
  truth = JSON.parse(fs.readFileSync(path.join(dirA, 'truth.json'), 'utf8'));
}, 240_000);

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const E = () => manifest.endUnix;
const windowStart = () => E() - 7 * 86400;
const runPath = (dir: string, run: WorldManifest['runs'][number], rel: string) => path.join(dir, 'gcs', run.bucket, run.gcsPath, rel);

describe('determinism', () => {
  it('writes byte-identical worlds for the same end and seed', () => {
    console.log(`[world] generated ${manifest.runs.length} runs in ${genSeconds.toFixed(1)}s`);
    expect(fs.readFileSync(path.join(dirA, 'truth.json'), 'utf8')).toBe(fs.readFileSync(path.join(dirB, 'truth.json'), 'utf8'));
    expect(hashDir(dirA)).toBe(hashDir(dirB));
  });
});

describe('manifest and files', () => {
  it('has about a thousand runs over 14 days ending at end', () => {
    expect(manifest.runs.length).toBeGreaterThan(700);
    expect(manifest.runs.length).toBeLessThan(1200);
    expect(manifest.end).toBe(TEST_WORLD_END.toISOString());
    for (const r of manifest.runs) {
      expect(r.started).toBeGreaterThanOrEqual(manifest.startUnix);
      expect(r.started).toBeLessThan(E());
      expect(r.finished).toBeGreaterThan(r.started);
    }
  });

  it('records every file with the size and md5 it has on disk', () => {
    for (const r of manifest.runs.filter((_, i) => i % 37 === 0)) {
      for (const f of r.files) {
        const data = fs.readFileSync(runPath(dirA, r, f.path));
        expect(data.length).toBe(f.size);
        expect(crypto.createHash('md5').update(data).digest('base64')).toBe(f.md5);
        expect(f.visibleAt).toBe(f.path === 'started.json' ? r.started : r.finished);
      }
    }
  });

  it('crowds the folders of runs that reached their steps with gathered artifacts, none of which ingest would read', () => {
    expect(manifest.gathered.length).toBeGreaterThan(100);
    for (const g of manifest.gathered) {
      const data = fs.readFileSync(path.join(dirA, g.blob));
      expect(data.length).toBe(g.size);
      expect(crypto.createHash('md5').update(data).digest('base64')).toBe(g.md5);
    }
    const withSteps = manifest.runs.filter((r) => r.files.some((f) => f.path === 'artifacts/junit_operator.xml'));
    expect(manifest.runs.filter((r) => r.gathered)).toEqual(withSteps);
    for (const r of withSteps) {
      const own = r.files.map((f) => ({ path: f.path, size: f.size, version: f.md5 }));
      const all = runFiles(manifest, r).map((f) => ({ path: f.path, size: f.size, version: f.md5 }));
      expect(all.length).toBe(own.length + manifest.gathered.length);
      expect(selectFiles(all, DEFAULT_MAX_FILE_BYTES)).toEqual(selectFiles(own, DEFAULT_MAX_FILE_BYTES));
    }
  });

  it('lays runs out as Prow does in GCS', () => {
    for (const r of manifest.runs) {
      if (r.type === 'periodic') expect(r.gcsPath).toBe(`logs/${r.job}/${r.buildId}`);
      else if (r.refs!.repo === 'origin') expect(r.gcsPath).toBe(`pr-logs/pull/${r.refs!.pulls[0].number}/${r.job}/${r.buildId}`);
      else expect(r.gcsPath).toBe(`pr-logs/pull/openshift_installer/${r.refs!.pulls[0].number}/${r.job}/${r.buildId}`);
      expect(r.urlPath).toBe(`/view/gs/origin-ci-test/${r.gcsPath}`);
    }
  });

  it('writes well-formed junit files, XSS probe escaped', () => {
    const xssRuns = new Set<string>();
    for (const r of manifest.runs.filter((_, i) => i % 9 === 0)) {
      for (const f of r.files.filter((x) => x.path.endsWith('.xml'))) {
        const xml = fs.readFileSync(runPath(dirA, r, f.path), 'utf8');
        expect(xmlProblems(xml), `${r.gcsPath}/${f.path}`).toEqual([]);
        if (f.path.includes('junit_e2e_')) {
          expect(f.path).toMatch(/^artifacts\/[\w-]+\/openshift-e2e-test\/artifacts\/junit\/junit_e2e_\d{8}-\d{6}\.xml$/);
          expect(xml).toMatch(/^(<testsuites>\n\s*)?<testsuite name="openshift-tests" /);
          expect(xml).toContain('<property name="TestVersion" value="');
          if (xml.includes('[sig-xss]')) xssRuns.add(r.buildId);
        } else {
          expect(xml).toContain('<testsuite name="step graph"');
        }
      }
    }
    expect(xssRuns.size).toBeGreaterThan(0);
  });

  it('writes started.json, finished.json and prowjob.json in the pod-utils and ProwJob shapes', () => {
    const r = manifest.runs.find((x) => x.type === 'presubmit' && x.state === 'failure')!;
    const started = JSON.parse(fs.readFileSync(runPath(dirA, r, 'started.json'), 'utf8'));
    expect(started.timestamp).toBe(r.started);
    expect(started.pull).toBe(String(r.refs!.pulls[0].number));
    const finished = JSON.parse(fs.readFileSync(runPath(dirA, r, 'finished.json'), 'utf8'));
    expect(finished).toMatchObject({ timestamp: r.finished, passed: false, result: 'FAILURE' });
    const pj = JSON.parse(fs.readFileSync(runPath(dirA, r, 'prowjob.json'), 'utf8'));
    expect(pj.spec.refs.pulls[0].number).toBe(r.refs!.pulls[0].number);
    expect(pj.status).toMatchObject({ state: 'failure', build_id: r.buildId, url: `http://REPLAY${r.urlPath}` });
    const nightly = manifest.runs.find((x) => x.job.includes('nightly-4.2-e2e-aws') && x.payload)!;
    const env = JSON.parse(fs.readFileSync(runPath(dirA, nightly, 'prowjob.json'), 'utf8')).spec.pod_spec.containers[0].env;
    expect(env).toContainEqual({ name: 'RELEASE_IMAGE_LATEST', value: `registry.ci.openshift.org/ocp/release:${nightly.payload}` });
  });

  it('puts the promotion line in promotion build logs', () => {
    const r = manifest.runs.find((x) => x.job.startsWith('release-promote-') && x.state === 'success')!;
    expect(fs.readFileSync(runPath(dirA, r, 'build-log.txt'), 'utf8')).toMatch(/Will promote sha256:[0-9a-f]{64}, current is sha256:[0-9a-f]{64}/);
  });

  it('lists one Deck record per run', () => {
    const jobs = JSON.parse(fs.readFileSync(path.join(dirA, 'deck/jobs.json'), 'utf8'));
    expect(jobs).toHaveLength(manifest.runs.length);
    for (const j of jobs.slice(0, 50)) {
      expect(Object.keys(j)).toEqual(['type', 'refs', 'refs_key', 'job', 'build_id', 'context', 'started', 'finished', 'duration', 'state', 'description', 'url', 'pod_name', 'agent', 'prow_job']);
      expect(j.started).toMatch(/^\d+$/);
    }
  });

  it('writes a config template the config loader accepts once the URL is filled in', () => {
    const text = fs.readFileSync(path.join(dirA, 'buildcop.config.json.template'), 'utf8').split('http://REPLAY').join('http://127.0.0.1:1234');
    const config = validateConfig(JSON.parse(text));
    expect(config.releaseController?.streams).toEqual(['4.1.0-0.nightly', '4.2.0-0.nightly']);
    expect(config.promotion?.map((g) => g.name)).toEqual(['machine-os-content 4.1', 'machine-os-content 4.2']);
  });
});

describe('truth.json', () => {
  it('counts runs consistently', () => {
    const { finished, byState, pending, total } = truth.runs;
    expect(byState.success + byState.failure + byState.error + byState.aborted).toBe(finished);
    expect(finished + pending).toBe(total);
    expect(total).toBe(manifest.runs.length);
    expect(manifest.runs.filter((r) => r.finished <= E())).toHaveLength(finished);
    expect(pending).toBeGreaterThanOrEqual(2);
    for (const p of truth.runs.pendingRuns) expect(manifest.runs.find((r) => r.buildId === p.buildId)!.finished).toBeGreaterThan(E());
    expect(byState.aborted).toBeGreaterThanOrEqual(3);
    expect(byState.error).toBeGreaterThanOrEqual(1);
    const r = truth.testResults;
    expect(r.passed + r.failed + r.flaked + r.skipped).toBe(r.total);
    expect(truth.testNames).toHaveLength(truth.tests);
    expect(truth.tests).toBeGreaterThan(200);
  });

  it('keeps per-test counts within their runs', () => {
    for (const [name, t] of Object.entries<any>(truth.perTest)) {
      expect(truth.testNames).toContain(name);
      for (const p of [t.window, t.previous]) {
        expect(p.failedRuns + p.flakedRuns).toBeLessThanOrEqual(p.runs);
        expect(p.jobs.length > 0).toBe(p.failedRuns + p.flakedRuns > 0);
      }
    }
  });

  it('names the test with the most failures in the window as top, clearly ahead', () => {
    const top = truth.scenarios.top;
    const operator = /^(Run multi-stage test|Find the input image|Import the release payload|Create the release image|install should succeed)/;
    const max = Math.max(...Object.entries<any>(truth.perTest).filter(([n]) => !operator.test(n)).map(([, t]) => t.window.failedRuns));
    expect(truth.perTest[top.test].window.failedRuns).toBe(max);
    expect(top.failedRuns).toBe(max);
    expect(top.failedRuns).toBeGreaterThan(top.runnerUp.failedRuns);
  });

  it('has a flaky test that flakes in ~10% and fails in ~2-3% of runs on every job, and with the mass failure', () => {
    const f = truth.scenarios.flaky;
    const incident = truth.scenarios.massIncident;
    // the mass failure is inside the window: its runs fail the flake too, with the incident's text
    const ownFailures = { window: f.window.failedRuns - incident.flakyTestFailures, previous: f.previous.failedRuns };
    for (const [name, p] of [['window', f.window], ['previous', f.previous]] as const) {
      expect(p.flakedRuns / p.runs).toBeGreaterThan(0.06);
      expect(p.flakedRuns / p.runs).toBeLessThan(0.14);
      expect(ownFailures[name] / p.runs).toBeGreaterThan(0.005);
      expect(ownFailures[name] / p.runs).toBeLessThan(0.06);
    }
    expect(incident.flakyTestFailures).toBe(incident.runs.length);
    expect(new Set([...f.window.jobs, ...f.previous.jobs]).size).toBeGreaterThanOrEqual(9);
    expect(truth.kubeletRaceSignature.occurrences).toBe(ownFailures.window + ownFailures.previous + f.window.flakedRuns + f.previous.flakedRuns);
  });

  it('has a mass failure of one release from a payload on: its own signature, about 69 tests a run', () => {
    const m = truth.scenarios.massIncident;
    expect(m.runs.length).toBeGreaterThanOrEqual(15);
    expect(m.runs.every((r: { job: string; started: number }) => (r.job.includes(`-${m.release}-`) || r.job.startsWith('pull-ci-')) && r.started >= m.startAt - 12 * 3600)).toBe(true);
    expect(m.tests.length).toBeGreaterThan(60);
    expect(m.tests).toContain(truth.scenarios.flaky.test);
  });

  it('has an intermittent 4.2 regression, some of whose failures pass on retry, and a flake fixed partway', () => {
    const r = truth.scenarios.intermittentRegression;
    expect(r.beforeChange.failedRuns + r.beforeChange.flakedRuns).toBe(0);
    const a = r.afterChange['4.2'];
    expect((a.failedRuns + a.flakedRuns) / a.runs).toBeGreaterThan(0.25);
    expect((a.failedRuns + a.flakedRuns) / a.runs).toBeLessThan(0.55);
    expect(a.flakedRuns).toBeGreaterThan(0);
    expect(r.afterChange['4.1'].failedRuns + r.afterChange['4.1'].flakedRuns).toBe(0);
    const f = truth.scenarios.fixedFlake;
    expect(f.lastFailure.started).toBeLessThan(f.fixedAt);
    expect(f.failuresBeforeFix).toBeGreaterThan(10);
    expect(f.cleanRunsSince).toBeGreaterThan(100);
  });

  it('has a regression that starts with a payload change and stays below 90% per job', () => {
    const g = truth.scenarios.regression;
    expect(g.previous.failedRuns).toBe(0);
    expect(g.window.failedRuns).toBeGreaterThan(20);
    expect(g.afterChange.rate).toBeGreaterThan(0.45);
    expect(g.afterChange.rate).toBeLessThan(0.75);
    expect(g.maxJobFailRateWindow).toBeLessThan(0.9);
    expect(g.firstFailingRun.started).toBeGreaterThanOrEqual(g.changeAt);
    expect(g.changeAt).toBeGreaterThan(windowStart());
    expect(g.payloadAfter > g.payloadBefore).toBe(true);
    expect(g.window.jobs.every((j: string) => j.includes('4.2') || j.startsWith('pull-ci-'))).toBe(true);
  });

  it('has a test broken in every run of one job only', () => {
    const b = truth.scenarios.broken;
    for (const p of [b.window, b.previous]) expect(p.jobs).toEqual([b.job]);
    for (const p of [b.inJob.window, b.inJob.previous]) {
      expect(p.runs).toBeGreaterThan(10);
      expect(p.failedRuns).toBe(p.runs);
    }
    expect(b.window.runs).toBeGreaterThan(b.inJob.window.runs);
  });

  it('has infra meltdowns with one TLS signature across many tests', () => {
    const infra = truth.scenarios.infra;
    expect(infra.runs.length).toBeGreaterThanOrEqual(4);
    expect(infra.window.failedRuns + infra.previous.failedRuns).toBe(infra.runs.length);
    const tls = truth.tlsSignature;
    expect(tls.runs).toBe(infra.runs.length);
    expect(tls.occurrences).toBeGreaterThanOrEqual(40 * tls.runs);
    expect(tls.occurrences).toBeLessThanOrEqual(81 * tls.runs);
    expect(tls.tests.length).toBeGreaterThan(80);
  });

  it('has the other scenarios', () => {
    const s = truth.scenarios;
    expect(s.newInWindow.previous.failedRuns).toBe(0);
    expect(s.newInWindow.window.failedRuns).toBeGreaterThanOrEqual(3);
    expect(s.newInWindow.window.failedRuns).toBeLessThanOrEqual(8);
    expect(s.newTest.firstSeen.started).toBeGreaterThanOrEqual(windowStart());
    expect(s.removedTest.lastSeen.started).toBeLessThan(windowStart());
    expect(s.xss.test).toContain('<img src=x onerror=alert(1)>');
    expect(s.xss.window.failedRuns + s.xss.previous.failedRuns).toBeGreaterThanOrEqual(2);
    expect(s.installStepTest.window.failedRuns).toBeGreaterThan(0);
    expect([...s.installStepTest.window.jobs, ...s.installStepTest.previous.jobs].every((j: string) => j.includes('e2e-gcp'))).toBe(true);
    expect(truth.jobs).toContain(s.renamedJob.from);
    expect(truth.jobs).toContain(s.renamedJob.to);
    const renamedRuns = manifest.runs.filter((r) => r.job === s.renamedJob.from || r.job === s.renamedJob.to);
    for (const r of renamedRuns) expect(r.job).toBe(r.started < s.renamedJob.at ? s.renamedJob.from : s.renamedJob.to);
  });

  it('has a run without e2e junit and an error run without finished.json', () => {
    const nj = truth.specialRuns.noE2eJunit;
    const run = manifest.runs.find((r) => r.buildId === nj.buildId)!;
    expect(run.files.some((f) => f.path.includes('junit_e2e_'))).toBe(false);
    expect(fs.readFileSync(runPath(dirA, run, 'build-log.txt'), 'utf8')).toContain('started: (0/1/');
    const er = manifest.runs.find((r) => r.buildId === truth.specialRuns.error.buildId)!;
    expect(er.state).toBe('error');
    expect(er.files.map((f) => f.path)).toEqual(['prowjob.json', 'started.json']);
    for (const a of truth.specialRuns.aborted) {
      const r = manifest.runs.find((x) => x.buildId === a.buildId)!;
      expect(r.files.some((f) => f.path.endsWith('.xml'))).toBe(false);
      expect(JSON.parse(fs.readFileSync(runPath(dirA, r, 'finished.json'), 'utf8')).result).toBe('ABORTED');
    }
  });

  it('has one blocked and one open promotion gate', () => {
    const [g41, g42] = truth.promotion.gates;
    expect(g41.blocked).toBe(true);
    expect(g41.lastRuns.map((r: any) => r.state)).toEqual(['failure', 'failure', 'failure']);
    expect(truth.perTest[g41.failingTest].window.jobs).toContain(g41.blockingJobs[0]);
    expect(g42.blocked).toBe(false);
    expect(g42.latestRun.state).toBe('success');
  });

  it('has an accepted 4.1 stream and a 4.2 stream rejected by a real failed run', () => {
    const s41 = truth.releaseStreams['4.1.0-0.nightly'];
    const s42 = truth.releaseStreams['4.2.0-0.nightly'];
    expect(s41.phase).toBe('Accepted');
    expect(s42.phase).toBe('Rejected');
    const aws = s42.blockingJobs.aws;
    expect(aws.state).toBe('Failed');
    const run = manifest.runs.find((r) => r.job === aws.job && r.buildId === aws.buildId)!;
    expect(run.state).toBe('failure');
    expect(run.payload).toBe(s42.latest);
    expect(aws.url).toBe(run.urlPath);
  });
});

describe('bugs', () => {
  const read = <T>(rel: string): T => JSON.parse(fs.readFileSync(path.join(dirA, rel), 'utf8'));
  const texts = () => {
    const out = new Map<string, { summary: string; description: string; comments: string[] }>();
    for (const b of read<{ bugs: WorldBugzillaBug[] }>('bugzilla/bugs.json').bugs) out.set(`bugzilla:${b.id}`, { summary: b.summary, description: '', comments: b.comments.map((c) => c.text) });
    for (const i of read<{ issues: WorldJiraIssue[] }>('jira/issues.json').issues) out.set(`jira:${i.key}`, { summary: i.summary, description: i.description, comments: i.comments.map((c) => c.text) });
    for (const i of read<{ issues: WorldGithubIssue[] }>('github/kubernetes/kubernetes/issues.json').issues) {
      out.set(`github:kubernetes/kubernetes#${i.number}`, { summary: i.title, description: i.body, comments: i.comments.map((c) => c.text) });
    }
    return out;
  };

  it('places each must-link test name where the reason says', () => {
    const all = texts();
    const reasons = new Set<string>();
    for (const l of truth.bugs.mustLink) {
      const t = all.get(`${l.tracker}:${l.id}`)!;
      expect(t, l.id).toBeDefined();
      reasons.add(l.reason);
      if (l.reason === 'name-in-summary') expect(t.summary).toContain(l.test);
      if (l.reason === 'name-in-description') expect(t.description).toContain(l.test);
      if (l.reason === 'name-in-comment') expect(t.comments.some((c) => c.includes(l.test))).toBe(true);
      if (l.reason === 'signature') {
        const all3 = [t.summary, t.description, ...t.comments].join('\n');
        expect(all3).not.toContain(l.test);
        expect(all3).toContain('object.Status.Phase:');
        expect(all3).toContain('object.ObjectMeta.ResourceVersion:');
      }
    }
    expect([...reasons].sort()).toEqual(['name-in-comment', 'name-in-description', 'name-in-summary', 'signature']);
    expect(new Set(truth.bugs.mustLink.map((l: any) => l.tracker))).toEqual(new Set(['bugzilla', 'jira', 'github']));
  });

  it('names no test in full in the must-not-link bugs', () => {
    const all = texts();
    for (const l of truth.bugs.mustNotLink) {
      const t = all.get(`${l.tracker}:${l.id}`)!;
      const text = [t.summary, t.description, ...t.comments].join('\n');
      for (const name of truth.testNames) expect(text.includes(name), `${l.id} names ${name}`).toBe(false);
    }
    expect(truth.bugs.mustNotLink.map((l: any) => l.reason)).toEqual(expect.arrayContaining(['partial-name', 'unrelated', 'generic-phrase']));
  });

  it('has a closed bug whose test keeps failing after the close', () => {
    const r = truth.bugs.recurred;
    expect(r.failuresAfterClose).toBeGreaterThan(0);
    const bug = read<{ bugs: WorldBugzillaBug[] }>('bugzilla/bugs.json').bugs.find((b) => String(b.id) === r.id)!;
    expect(bug.statuses[bug.statuses.length - 1]).toMatchObject({ status: 'CLOSED', resolution: 'ERRATA', at: r.closedAt });
  });

  it('dates every bug before end, some changed in the last day', () => {
    const bz = read<{ bugs: WorldBugzillaBug[] }>('bugzilla/bugs.json').bugs;
    const times = bz.flatMap((b) => [b.created, ...b.statuses.map((s) => s.at), ...b.comments.map((c) => c.at)]);
    expect(Math.max(...times)).toBeLessThan(E());
    expect(times.some((t) => t > E() - 86400)).toBe(true);
  });
});
