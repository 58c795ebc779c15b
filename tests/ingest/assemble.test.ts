// How a run's files combine into its record: which files are read, junit vs build log, flakes,
// install failures, state and refs, and hostile text.
import { describe, expect, it } from 'vitest';
import { assembleRun, combineResults, failedStepLogs, selectFiles, type RunFile } from '../../lib/ingest/assemble';
import { cleanText } from '../../lib/parse/testNames';
import type { ProwRun, RawCase } from '../../lib/parse/types';

const run: ProwRun = { job: 'periodic-ci-x-e2e-aws', buildId: '42', type: 'periodic', state: 'failure', started: 1_700_000_000, finished: 1_700_005_400, url: 'https://prow/view/gs/b/logs/x/42' };
const file = (path: string, text: string): RunFile => ({ path, bytes: Buffer.from(text) });
const junit = (cases: string) => `<testsuite name="openshift-tests">${cases}</testsuite>`;
const c = (name: string, result: RawCase['result'], message = ''): RawCase => ({ name, result, message, suite: 'openshift-tests' });

describe('selectFiles', () => {
  const listed = (paths: string[], size = 10) => paths.map((path) => ({ path, size, version: 'v' }));
  it('reads the metadata, the build log and every junit under artifacts/, nothing else', () => {
    const { fetch } = selectFiles(
      listed(['started.json', 'finished.json', 'prowjob.json', 'build-log.txt', 'podinfo.json', 'artifacts/junit_operator.xml', 'artifacts/e2e/openshift-e2e-test/artifacts/junit/junit_e2e_20261120-101500.xml', 'artifacts/e2e/gather/must-gather.tar', 'artifacts/e2e/openshift-e2e-test/build-log.txt']),
      1000,
    );
    expect(fetch.map((o) => o.path).sort()).toEqual([
      'artifacts/e2e/openshift-e2e-test/artifacts/junit/junit_e2e_20261120-101500.xml', 'artifacts/junit_operator.xml', 'build-log.txt', 'finished.json', 'prowjob.json', 'started.json',
    ]);
  });
  it("reads the e2e step's log only when there is no e2e junit, and skips files over the cap", () => {
    const { fetch, problems } = selectFiles([...listed(['artifacts/junit_operator.xml', 'artifacts/e2e/openshift-e2e-test/build-log.txt']), { path: 'build-log.txt', size: 5000, version: 'v' }], 1000);
    expect(fetch.map((o) => o.path)).toEqual(['artifacts/junit_operator.xml', 'artifacts/e2e/openshift-e2e-test/build-log.txt']);
    expect(problems).toEqual([{ file: 'build-log.txt', message: 'not read: 5000 bytes is over the 1000-byte cap' }]);
  });
});

describe('combineResults', () => {
  const log = (cases: RawCase[], failTexts: Record<string, string> = {}) => ({ cases, failing: [], flaky: [], failTexts });
  it('takes junit when it is whole, filling missing failure text from the log', () => {
    const { results, source } = combineResults([{ path: 'artifacts/junit_e2e.xml', cases: [c('a', 'failed'), c('b', 'passed')] }], [log([c('a', 'passed')], { a: 'fail [x.go:1]: boom' })]);
    expect(source).toBe('junit');
    expect(results).toEqual([{ name: 'a', outcome: 'failed', message: 'fail [x.go:1]: boom' }, { name: 'b', outcome: 'passed', message: '' }]);
  });
  it("lets the log's lines stand for a truncated junit's tests", () => {
    const broken = { path: 'artifacts/junit_e2e.xml', cases: [c('a', 'failed', 'x')], error: 'truncated' };
    const { results, source } = combineResults([broken], [log([c('a', 'failed', 'x'), c('a', 'passed'), c('b', 'passed')])]);
    expect(source).toBe('junit+build-log');
    expect(results.map((r) => [r.name, r.outcome])).toEqual([['a', 'flaked'], ['b', 'passed']]);
  });
  it('falls back to the Failing/Flaky blocks of an old log', () => {
    const { results } = combineResults([], [{ cases: [], failing: ['f'], flaky: ['k'], failTexts: {} }]);
    expect(results.map((r) => [r.name, r.outcome])).toEqual([['k', 'flaked'], ['f', 'failed']]);
  });
});

describe('assembleRun', () => {
  it('makes a fail-then-pass a flake, and two failures one failure', () => {
    const rec = assembleRun(run, 'gs://b/logs/x/42', [
      file('artifacts/junit_e2e_1.xml', junit('<testcase name="t1"><failure message="m1">b</failure></testcase><testcase name="t1"/><testcase name="t2"><failure>x</failure></testcase><testcase name="t2"><failure>y</failure></testcase><testcase name="t3"><skipped/></testcase>')),
    ], []);
    expect(rec.results).toEqual([
      { name: 't1', outcome: 'flaked', message: expect.stringContaining('b') },
      { name: 't2', outcome: 'failed', message: 'y' },
      { name: 't3', outcome: 'skipped', message: '' },
    ]);
  });
  it('puts an install failure on the install step tests, never on e2e tests', () => {
    const rec = assembleRun(run, '', [
      file('artifacts/junit_operator.xml', junit('<testcase name="install should succeed: infrastructure"><failure>level=fatal msg=failed to create cluster</failure></testcase><testcase name="install should succeed: overall"><failure>x</failure></testcase>')),
    ], []);
    expect(rec.installFailed).toBe(true);
    expect(rec.meta.installFailure).toEqual({ steps: ['install should succeed: infrastructure', 'install should succeed: overall'] });
    expect(rec.results.every((r) => r.name.startsWith('install should succeed'))).toBe(true);
  });
  it("reads a log's install failure only where no e2e tests ran, and its failure text only where junit has none", () => {
    const log = file('build-log.txt', 'fail [x.go:1]: the cause\nfailed: (1s) 2026-11-20T10:00:00 "t2"\nlevel=fatal msg="failed to destroy cluster"\n');
    const installOnly = assembleRun(run, '', [file('artifacts/junit_operator.xml', junit('<testcase name="setup"/>')), log], []);
    expect(installOnly.meta.installFailure).toEqual({ steps: ['install'], message: 'failed to destroy cluster' });
    const e2e = (cases: string) => assembleRun(run, '', [file('artifacts/junit_e2e_1.xml', junit(cases)), log], []);
    const ran = e2e('<testcase name="t1"><failure message="own text"/></testcase><testcase name="t2"><failure/></testcase>');
    expect(ran.installFailed).toBe(false);
    expect(ran.results.map((r) => [r.name, r.message])).toEqual([['t1', 'own text'], ['t2', 'fail [x.go:1]: the cause']]);
  });
  it('records a malformed file as a problem and keeps the rest; derives state and refs', () => {
    const rec = assembleRun({ ...run, state: 'pending', refs: { org: 'o', repo: 'r', baseRef: 'main', baseSha: 'base', pulls: [{ number: 7, sha: 'head' }] } }, '', [
      file('finished.json', '{"timestamp": 1700005400, "passed": false, "result": "FAILURE"}'),
      file('prowjob.json', '{not json'),
      file('artifacts/junit_e2e_1.xml', junit('<testcase name="ok"/>')),
      { path: 'build-log.txt', error: 'HTTP 503 (after 5 attempts)' },
    ], []);
    expect(rec.state).toBe('failure');
    expect(rec.pull).toBe(7);
    expect(rec.commitSha).toBe('head');
    expect(rec.results).toEqual([{ name: 'ok', outcome: 'passed', message: '' }]);
    expect(rec.problems.map((p) => p.file).sort()).toEqual(['build-log.txt', 'prowjob.json']);
    expect(rec.incomplete).toBe(true);
  });
  it('strips NUL and control characters that PostgreSQL cannot store, keeping the text', () => {
    expect(cleanText('a\u0000b\u0007c\td\ne')).toBe('abc\td\ne');
    const rec = assembleRun(run, '', [file('artifacts/junit_e2e_1.xml', junit('<testcase name="n&#x1;ul"><failure>bad&#x0;byte</failure></testcase>'))], []);
    expect(rec.results[0].message).not.toContain('\u0000');
  });
});

describe('failedStepLogs', () => {
  it("names the build log of each step junit_operator.xml says failed, once, and not one already read; an e2e step's when listed", () => {
    const step = (name: string, result: RawCase['result']): RawCase => ({ name, result, message: '', suite: 'step graph' });
    const cases = [
      step('Run multi-stage test e2e-aws - e2e-aws-ipi-install-install container test', 'failed'),
      step('Run multi-stage test e2e-aws - e2e-aws-gather-extra container test', 'passed'),
      step('Run multi-stage test e2e-aws - e2e-aws-openshift-e2e-test container test', 'failed'),
      step('Run multi-stage test pre phase', 'failed'),
      step('install should succeed: overall', 'failed'),
    ];
    const e2eLog = 'artifacts/e2e-aws/openshift-e2e-test/build-log.txt';
    const listing = [{ path: e2eLog, size: 10, version: '1' }];
    expect(failedStepLogs(cases, listing, new Set())).toEqual(['artifacts/e2e-aws/ipi-install-install/build-log.txt', e2eLog]);
    // the glob lists e2e steps' logs: one not listed does not exist
    expect(failedStepLogs(cases, [], new Set())).toEqual(['artifacts/e2e-aws/ipi-install-install/build-log.txt']);
    expect(failedStepLogs([...cases, cases[0]], listing, new Set([e2eLog]))).toEqual(['artifacts/e2e-aws/ipi-install-install/build-log.txt']);
  });
});
