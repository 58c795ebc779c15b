import { describe, expect, it } from 'vitest';
import { buildLogPromotion, goUnquote, parseBuildLog, parseGoDuration } from '../../lib/parse/buildLog';
import { TRUNCATION_MARK } from '../../lib/parse/junit';
import { mergeCases } from '../../lib/parse/testNames';
import { describeFixtures, readFixture } from '../fixtures';

// No real build-log.txt with these blocks is committed anywhere (SOURCES.md, "Not found"), so this one is
// written by hand, line by line as openshift/origin pkg/test/ginkgo/status.go and cmd_runsuite.go print
// them: `started: (%d/%d/%d) %q\n\n`, output + "\n", `<status>: (%s) <2006-01-02T15:04:05> %q\n\n`, then
// "Retry count", "Flaky tests:\n\n…\n\n", "Failing tests:\n\n…\n\n", the JUnit line and the final line.
const HOOK = '[sig-apps] Deployment should run the "lifecycle" hook [Suite:openshift/conformance/parallel]';
const SERVICES = '[sig-network] Services should serve a basic endpoint from pods  [Conformance] [Suite:openshift/conformance/parallel/minimal] [Suite:k8s]';
const ROUTER = '[sig-network][Feature:Router] The HAProxy router should serve the correct routes when scoped to a single namespace and label set [Suite:openshift/conformance/parallel]';
const STORAGE = '[sig-storage] In-tree Volumes [Driver: azure] [Testpattern: Dynamic PV (default fs)] provisioning should create and delete block persistent volumes [Suite:openshift/conformance/parallel] [Suite:k8s]';
const BUILD = '[sig-builds][Feature:Builds] oc new-app  should succeed with a --name of 58 characters [Suite:openshift/conformance/parallel]';
const q = (name: string): string => JSON.stringify(name); // Go %q and JSON agree for these names

const HOOK_FAILURE = [
  'fail [github.com/openshift/origin/test/extended/deployments/deployments.go:215]: Expected',
  '    <bool>: false',
  'to be true',
].join('\n');

const RUN = `found 2105 tests for suite
started: (0/1/5) ${q(HOOK)}

started: (0/2/5) ${q(SERVICES)}

started: (0/3/5) ${q(ROUTER)}

passed: (6.1s) 2019-05-01T10:11:12 ${q(SERVICES)}

May  1 10:11:20.001: INFO: >>> kubeConfig: /tmp/admin.kubeconfig
STEP: Building a namespace api object, basename cli-deployment
STEP: waiting for the deployment to complete
May  1 10:12:13.500: INFO: Running 'oc describe dc/deployment-test'
${HOOK_FAILURE}

failed: (1m5s) 2019-05-01T10:12:17 ${q(HOOK)}

started: (1/4/5) ${q(STORAGE)}

skip [k8s.io/kubernetes/test/e2e/storage/testsuites/base.go:113]: Driver azure doesn't support Block -- skipping

skipped: (0.3s) 2019-05-01T10:12:18 ${q(STORAGE)}

started: (1/5/5) ${q(BUILD)}

STEP: calling oc new-app
fail [github.com/openshift/origin/test/extended/builds/new_app.go:59]: Unexpected error:
    <*errors.errorString | 0xc000a1c2d0>: {
        s: "timed out waiting for the condition",
    }
occurred

flaked: (2m10s) 2019-05-01T10:14:28 ${q(BUILD)}

passed: (3m2s) 2019-05-01T10:14:59 ${q(ROUTER)}

Retry count: 1
started: (1/6/6) ${q(HOOK)}

passed: (58.4s) 2019-05-01T10:15:58 ${q(HOOK)}

Flaky tests:

${HOOK}

Failing tests:

${BUILD}

Writing JUnit report to /tmp/artifacts/junit/junit_e2e_20190501-101558.xml

error: 1 fail, 4 pass, 1 skip (4m51s)
`;

describe('parseBuildLog on openshift-tests output', () => {
  it('reads every end line; started lines and test output are not cases', () => {
    const r = parseBuildLog(RUN);
    expect(r.cases.map((c) => [c.result, c.name, c.durationSec])).toEqual([
      ['passed', SERVICES, 6.1],
      ['failed', HOOK, 65],
      ['skipped', STORAGE, 0.3],
      ['failed', BUILD, 130],
      ['passed', BUILD, 130],
      ['passed', ROUTER, 182],
      ['passed', HOOK, 58.4],
    ]);
    expect(r.cases.every((c) => c.suite === '')).toBe(true);
  });

  it('keeps the `fail [...]` text of failed and flaked tests, up to the end line', () => {
    const r = parseBuildLog(RUN);
    expect(r.failTexts[HOOK]).toBe(HOOK_FAILURE);
    expect(r.failTexts[BUILD]).toMatch(/^fail \[github.com\/openshift\/origin\/test\/extended\/builds\/new_app.go:59\]: Unexpected error:\n/);
    expect(r.failTexts[BUILD]).toMatch(/s: "timed out waiting for the condition",\n {4}\}\noccurred$/);
    expect(Object.keys(r.failTexts).sort()).toEqual([BUILD, HOOK].sort());
    expect(r.cases.find((c) => c.result === 'failed' && c.name === HOOK)?.message).toBe(HOOK_FAILURE);
  });

  it('merges into flakes (retry pass, flaked line) and passes', () => {
    const merged = Object.fromEntries(mergeCases(parseBuildLog(RUN).cases).map((t) => [t.name, t.outcome]));
    expect(merged).toEqual({ [SERVICES]: 'passed', [HOOK]: 'flaked', [STORAGE]: 'skipped', [BUILD]: 'flaked', [ROUTER]: 'passed' });
  });

  it('reads the Flaky tests and Failing tests blocks and the summary', () => {
    const r = parseBuildLog(RUN);
    expect(r.flaky).toEqual([HOOK]);
    expect(r.failing).toEqual([BUILD]);
    expect(r.summary).toEqual({ fail: 1, pass: 4, skip: 1 });
    expect(r.promote).toBeUndefined();
    expect(r.installFailed).toBeUndefined();
  });

  it('without passes, keeps only the failures and flakes, and everything else the same', () => {
    const all = parseBuildLog(RUN);
    const lean = parseBuildLog(RUN, { passes: false });
    expect(lean.cases.map((c) => [c.result, c.name])).toEqual([
      ['failed', HOOK],
      ['failed', BUILD],
      ['passed', BUILD],
    ]);
    expect({ ...lean, cases: [] }).toEqual({ ...all, cases: [] });
  });

  it('gives the same result for CRLF line ends', () => {
    expect(parseBuildLog(RUN.replace(/\n/g, '\r\n'))).toEqual(parseBuildLog(RUN));
  });

  it('reads the 2019 `Error:` line and the flakes-only ending', () => {
    expect(parseBuildLog('Error: 3 fail, 250 pass, 1012 skip (1h2m3s)\n').summary).toEqual({ fail: 3, pass: 250, skip: 1012 });
    const flakesOnly = `Flaky tests:\n\n${HOOK}\n${BUILD}\n\n2 flakes detected, suite allows passing with only flakes\n\n401 pass, 1100 skip (1h10m0s)\n`;
    const r = parseBuildLog(flakesOnly);
    expect(r.flaky).toEqual([HOOK, BUILD]);
    expect(r.summary).toEqual({ fail: 0, pass: 401, skip: 1100 });
    expect(parseBuildLog('error: failed because an invariant was violated, 5 pass, 2 skip (1m0s)\n').summary).toBeUndefined();
  });

  it('reads the promotion line of release jobs', () => {
    const candidate = 'sha256:' + 'a1'.repeat(32);
    const current = 'sha256:' + '9f'.repeat(32);
    const log = `2019/05/01 10:00:00 Resolved release\nWill promote ${candidate}, current is ${current}\r\nTag updated\n`;
    expect(parseBuildLog(log).promote).toEqual({ candidate, current });
    // the same line read from the bytes alone, the last one when a log has several
    expect(buildLogPromotion(Buffer.from(`Will promote sha256:00, current is sha256:11\n${log}`))).toEqual({ candidate, current });
    expect(buildLogPromotion(Buffer.from(`no promotion here\nWill promote nothing\n`))).toBeUndefined();
  });

  it('takes the first openshift-install level=fatal message as an install failure hint', () => {
    const log = [
      'Installing from release registry.svc.ci.openshift.org/ocp/release:4.1.0',
      'level=info msg="Waiting up to 30m0s for the cluster to initialize..."',
      'time="2019-05-01T10:40:00Z" level=fatal msg="failed to initialize the cluster: Cluster operator console is still updating: \\"waiting\\""',
      'level=fatal msg="second"',
    ].join('\n');
    expect(parseBuildLog(log).installFailed).toEqual({
      step: 'install',
      message: 'failed to initialize the cluster: Cluster operator console is still updating: "waiting"',
    });
    expect(parseBuildLog('level=fatal msg=unquoted text here\n').installFailed).toEqual({ step: 'install', message: 'unquoted text here' });
  });

  it('caps failure text at 16 KB', () => {
    const output = 'fail [x.go:1]: ' + 'x'.repeat(50_000);
    const r = parseBuildLog(`started: (0/1/1) "t"\n\n${output}\n\nfailed: (1s) 2019-05-01T10:11:12 "t"\n`);
    expect(r.failTexts.t).toBe(output.slice(0, 8192) + TRUNCATION_MARK + output.slice(-8192));
  });

  it('never throws on hostile input', () => {
    const broken = [
      'failed: (', 'passed: (1s) 2019-05-01T10:11:12 "unterminated', 'flaked: (x) "a"', 'passed: (1s) "', 'Failing tests:',
      'Flaky tests:\n', 'error: x fail', '\0\u0001\uFFFF', 'level=fatal msg="unterminated \\', 'Will promote sha256:zz',
    ];
    for (const text of broken) expect(() => parseBuildLog(text)).not.toThrow();
    expect(parseBuildLog('passed: (1s) "a"\n').cases).toEqual([{ name: 'a', result: 'passed', message: '', suite: '', durationSec: 1 }]);
    expect(parseBuildLog('Failing tests:').failing).toEqual([]);
    for (let cut = 0; cut < RUN.length; cut += 97) expect(() => parseBuildLog(RUN.slice(0, cut))).not.toThrow();
  });

  it('parses a generated 10 MB log', () => {
    const parts: string[] = [];
    let n = 0;
    for (let size = 0; size < 10 * 1024 * 1024; n++) {
      const name = `[sig-x] generated "test" ${n}`;
      const p = n % 25 === 0
        ? `started: (0/${n}/0) ${q(name)}\n\n${'INFO: log\n'.repeat(50)}fail [a.go:${n}]: boom\n\nfailed: (1.5s) 2019-05-01T10:11:12 ${q(name)}\n\n`
        : `started: (0/${n}/0) ${q(name)}\n\npassed: (0.5s) 2019-05-01T10:11:12 ${q(name)}\n\n`;
      parts.push(p);
      size += p.length;
    }
    const r = parseBuildLog(parts.join(''));
    expect(r.cases).toHaveLength(n);
    expect(Object.keys(r.failTexts)).toHaveLength(Math.ceil(n / 25));
    expect(r.failTexts['[sig-x] generated "test" 0']).toBe('fail [a.go:0]: boom');
  });
});

describe('build log helpers', () => {
  it('parseGoDuration reads the durations openshift-tests prints', () => {
    expect(parseGoDuration('0.3s')).toBe(0.3);
    expect(parseGoDuration('1m5s')).toBe(65);
    expect(parseGoDuration('1h2m3s')).toBe(3723);
    expect(parseGoDuration('250ms')).toBe(0.25);
    expect(parseGoDuration('0s')).toBe(0);
    expect(parseGoDuration('')).toBeUndefined();
    expect(parseGoDuration('1x')).toBeUndefined();
  });

  it('goUnquote undoes Go %q quoting', () => {
    expect(goUnquote(q('a "b" c\\d\n\té😀'))).toBe('a "b" c\\d\n\té😀');
    expect(goUnquote('"\\xc3\\xa9 \\303\\251 \\u00e9 \\U0001F600"')).toBe('é é é 😀');
    expect(goUnquote('"\\q"')).toBe('\\q');
    expect(goUnquote('"plain"')).toBe('plain');
  });
});

describeFixtures('parseBuildLog on the real logs', () => {
  it.each([
    'build-logs/openshift-tests/suite10.list',
    'build-logs/openshift-tests/suite10-output.list',
    'build-logs/openshift-tests/junit5-out-failures.txt',
    'build-logs/k8s-conformance-openshift-v1.16/e2e.log.HEAD-lines-1-18.txt',
    'build-logs/k8s-conformance-openshift-v1.16/e2e.log.TAIL.txt',
  ])('%s has no openshift-tests results', (file) => {
    expect(parseBuildLog(readFixture(file))).toEqual({ cases: [], failing: [], flaky: [], failTexts: {} });
  });
});
