import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capText, parseJunit, TRUNCATION_MARK } from '../../lib/parse/junit';
import { mergeCases } from '../../lib/parse/testNames';
import type { RawCase } from '../../lib/parse/types';
import { describeFixtures, fixturePath, readFixture, readFixtureBytes } from '../fixtures';

const count = (text: string, needle: string): number => text.split(needle).length - 1;

function junitFixtures(): string[] {
  const root = fixturePath('junit');
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.xml')) out.push(path.relative(fixturePath('.'), p));
    }
  };
  walk(root);
  return out.sort();
}

describeFixtures('parseJunit on the real junit files', () => {
  const files = junitFixtures();

  it('finds every junit fixture', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files)('%s: one case per named <testcase>, errors only for the malformed ones', (file) => {
    const text = readFixture(file);
    const { cases, error } = parseJunit(readFixtureBytes(file));
    const malformed = file.includes('malformed');
    if (!malformed) {
      expect(error).toBeUndefined();
      expect(cases).toHaveLength(count(text, '<testcase '));
    } else {
      expect(error).toBeDefined();
    }
    const failures = count(text, '<failure');
    expect(cases.filter((c) => c.result === 'failed')).toHaveLength(failures);
    for (const c of cases) {
      expect(c.name).not.toBe('');
      expect(c.name).not.toMatch(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/i);
      if (c.result !== 'failed') expect(c.message).toBe('');
      else expect(c.message).not.toBe('');
    }
  });

  it('kettle standard.xml: the failure body, durations as written', () => {
    const { cases } = parseJunit(readFixture('junit/kettle-testdata/standard.xml'));
    expect(cases).toHaveLength(8);
    expect(cases.filter((c) => c.result === 'failed')).toEqual([
      { name: 'Node Tests', result: 'failed', message: 'error during go run', suite: '', durationSec: 654.279097299 },
    ]);
    expect(cases.find((c) => c.name === 'TearDown Previous')?.durationSec).toBe(2.065e-5);
    expect(cases.find((c) => c.name === 'Timeout')?.durationSec).toBe(3900);
  });

  it('kettle failure_message.xml and failure_text.xml give the same failure text', () => {
    const fromMessage = parseJunit(readFixture('junit/kettle-testdata/failure_message.xml'));
    const fromBody = parseJunit(readFixture('junit/kettle-testdata/failure_text.xml'));
    expect(fromMessage.cases).toEqual([
      { name: 'TestSimpleFile', result: 'failed', message: 'simple_test.go:186: Running tests in file plumbing', suite: '' },
    ]);
    expect(fromBody.cases).toEqual(fromMessage.cases);
  });

  it('kettle junit_no_suite_name.xml: suite is empty, text inside a testcase is not a failure', () => {
    const { cases, error } = parseJunit(readFixture('junit/kettle-testdata/junit_no_suite_name.xml'));
    expect(error).toBeUndefined();
    expect(cases.map((c) => [c.result, c.suite])).toEqual([['failed', ''], ['passed', ''], ['passed', '']]);
  });

  it('kettle malformed.xml: accepts the comment before <?xml?>, keeps the cases before the cut', () => {
    const text = readFixture('junit/kettle-testdata/malformed.xml');
    const { cases, error } = parseJunit(text);
    // the file ends inside the name attribute of its third testcase
    expect(count(text, '<testcase ')).toBe(3);
    expect(cases).toHaveLength(2);
    expect(cases.every((c) => c.result === 'skipped' && c.suite === 'Kubernetes e2e suite')).toBe(true);
    expect(cases[0].name).toMatch(/^\[sig-storage\] In-tree Volumes \[Driver: nfs\]/);
    expect(error).toMatch(/^truncated: unexpected end of file inside a <testcase> start tag/);
  });

  it('kettle malformed_no_testcase_name.xml: keeps the named cases and reports the nameless ones', () => {
    const { cases, error } = parseJunit(readFixture('junit/kettle-testdata/malformed_no_testcase_name.xml'));
    expect(cases.map((c) => c.name)).toEqual(['TearDown Previous', 'Up', 'test setup', 'Node Tests', 'Deferred TearDown', 'Timeout']);
    expect(error).toBe('2 testcases without a name skipped');
  });

  it('k8s e2e junit_01 (v1.13, no suite name): skipped cases and &#39; in names', () => {
    const text = readFixture('junit/k8s-e2e/junit_01.openshift-v1.13.TRUNCATED.xml');
    const { cases } = parseJunit(text);
    expect(cases).toHaveLength(20);
    expect(cases.filter((c) => c.result === 'skipped')).toHaveLength(count(text, '<skipped>'));
    expect(cases.filter((c) => c.result === 'passed').length).toBe(20 - count(text, '<skipped>'));
    expect(cases.some((c) => c.name.includes("should verify ResourceQuota's priority class scope"))).toBe(true);
    expect(cases.find((c) => c.name.startsWith('[sig-storage] Subpath Atomic writer'))?.durationSec).toBe(43.663344259);
  });

  it('ci-operator junit_operator.xml: step names, the step log as failure text, time="whatever"', () => {
    const { cases } = parseJunit(readFixtureBytes('junit/ci-operator/multi-observers-junit_operator.xml'));
    expect(cases).toHaveLength(9);
    expect(cases.every((c) => c.suite === 'step graph' && c.durationSec === undefined)).toBe(true);
    const failed = cases.filter((c) => c.result === 'failed');
    expect(failed.map((c) => c.name)).toEqual(['Run multi-stage test multi-observers - multi-observers-failing-observer container test']);
    const lines = failed[0].message.split('\n');
    expect(lines[0]).toBe("+ echo 'this is going to fail'");
    expect(lines[3]).toMatch(/^\{"component":"entrypoint","error":"wrapped process failed: exit status 1"/);
    expect(lines[lines.length - 1]).toBe('error: failed to execute wrapped command: exit status 1');
    const simple = parseJunit(readFixture('junit/ci-operator/junit_operator.simple.xml')).cases;
    expect(simple.map((c) => c.name)).toContain('Create the release image "latest" containing all images built by this job');
  });

  it('openshift-tests junit5.xml: suite openshift-tests, failure bodies', () => {
    const { cases } = parseJunit(readFixture('junit/openshift-tests/junit5.xml'));
    expect(cases.every((c) => c.suite === 'openshift-tests')).toBe(true);
    const failed = Object.fromEntries(cases.filter((c) => c.result === 'failed').map((c) => [c.name, c.message]));
    // the same two names the fixture's own parsed-failures list holds
    const expectedNames = readFixture('build-logs/openshift-tests/junit5-out-failures.txt').trim().split('\n').map((l) => JSON.parse(l));
    expect(Object.keys(failed)).toEqual(expectedNames);
    expect(failed['[sig-arch] External binary usage']).toBe('failed reading external test suites: unable to extract k8s-tests binary');
    expect(cases[0].durationSec).toBe(19.9);
  });

  it.each(files)('%s reads the same with its test cases\' start tags written otherwise (the plain form has a fast path)', (file) => {
    const text = readFixtureBytes(file).toString('utf8');
    // attributes swapped, and a second space: the general reader takes every tag then
    const other = text.replace(/<testcase name="([^"]*)" time="([^"]*)"(\/?)>/g, '<testcase  time="$2" name="$1"$3>');
    expect(parseJunit(other)).toEqual(parseJunit(text));
  });

  it.each(files)('%s cut at every 97th byte: never throws, returns a prefix of the cases and an error', (file) => {
    const bytes = readFixtureBytes(file);
    const full = parseJunit(bytes).cases;
    const lastGt = bytes.lastIndexOf('>'.charCodeAt(0));
    for (let cut = 0; cut < bytes.length; cut += 97) {
      const { cases, error } = parseJunit(bytes.subarray(0, cut));
      expect(cases).toEqual(full.slice(0, cases.length));
      if (cut <= lastGt) expect(error).toBeDefined();
    }
  });
});

const suite = (body: string): string => `<?xml version="1.0"?>\n<testsuite name="s">${body}</testsuite>\n`;
const only = (xml: string | Buffer): RawCase => {
  const { cases, error } = parseJunit(xml);
  expect(error).toBeUndefined();
  expect(cases).toHaveLength(1);
  return cases[0];
};

describe('parseJunit on hand-written input', () => {
  it('decodes entities: an attack string written with entities round-trips to the literal text', () => {
    const c = only(suite('<testcase name="&lt;img src=x onerror=alert(1)&gt;"/>'));
    expect(c.name).toBe('<img src=x onerror=alert(1)>');
    const d = only(suite('<testcase name="a&amp;b &quot;q&quot; &apos;s&apos; &#65;&#x42;&#X43; &#128512; &nbsp; &#0; &#x110000; &;"/>'));
    expect(d.name).toBe('a&b "q" \'s\' ABC \u{1F600} &nbsp; \uFFFD \uFFFD &;');
  });

  it('handles CDATA, comments and processing instructions anywhere', () => {
    const c = only(`<!-- lead --><?xml version="1.0"?><!DOCTYPE testsuite [<!ENTITY x "y">]><testsuites><!-- c --><testsuite name="s"><?pi x?>
      <testcase name="t"><failure><![CDATA[a < b && c]]><!-- not text -->&amp; d</failure></testcase></testsuite></testsuites>`);
    expect(c).toEqual({ name: 't', result: 'failed', message: 'a < b && c& d', suite: 's' });
  });

  it('accepts a BOM in strings and buffers, and UTF-16LE bytes', () => {
    const xml = suite('<testcase name="é"/>');
    expect(only('\uFEFF' + xml).name).toBe('é');
    expect(only(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)])).name).toBe('é');
    expect(only(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')])).name).toBe('é');
  });

  it('failure text: message, body, or body prefixed by a message it does not contain', () => {
    const text = (inner: string): string => only(suite(`<testcase name="t">${inner}</testcase>`)).message;
    expect(text('<failure message="m"/>')).toBe('m');
    expect(text('<failure message="">  body\n</failure>')).toBe('body');
    expect(text('<failure message="boom">fail [x.go:1]: boom\nstack</failure>')).toBe('fail [x.go:1]: boom\nstack');
    expect(text('<failure message="summary">details</failure>')).toBe('summary\ndetails');
    expect(text('<error message="panic"/>')).toBe('panic');
    expect(only(suite('<testcase name="t"><error>e</error></testcase>')).result).toBe('failed');
  });

  it('uses the last 100 lines of system-out when a failure has no text', () => {
    const out = Array.from({ length: 150 }, (_, k) => `line ${k}`).join('\n');
    const c = only(suite(`<testcase name="t"><failure message=""></failure><system-out>${out}\n</system-out></testcase>`));
    expect(c.message.split('\n')).toEqual(Array.from({ length: 100 }, (_, k) => `line ${k + 50}`));
    expect(only(suite(`<testcase name="p"><system-out>${out}</system-out></testcase>`)).message).toBe('');
  });

  it('skipped, failure wins over skipped, > and single quotes in attributes', () => {
    const { cases } = parseJunit(suite(`<testcase name='a > b' time='1.5'><skipped message="why"/></testcase>
      <testcase name="c"><skipped/><failure message="f"/></testcase><testcase name="d" time="x"></testcase>`));
    expect(cases).toEqual([
      { name: 'a > b', result: 'skipped', message: '', suite: 's', durationSec: 1.5 },
      { name: 'c', result: 'failed', message: 'f', suite: 's' },
      { name: 'd', result: 'passed', message: '', suite: 's' },
    ]);
  });

  it('suite is the nearest named testsuite, also for suites inside suites', () => {
    const { cases } = parseJunit(`<testsuites name="all"><testcase name="top"/><testsuite name="outer"><testsuite name="inner">
      <testcase name="a"/></testsuite><testsuite><testcase name="b"/></testsuite><testcase name="c"/></testsuite></testsuites>`);
    expect(cases.map((c) => [c.name, c.suite])).toEqual([['top', ''], ['a', 'inner'], ['b', 'outer'], ['c', 'outer']]);
  });

  it('reads plain test case tags as it reads others: self-closing, entities, a time that is not a number', () => {
    const plain = suite('<testcase name="a &amp; b" time="1.5"/><failure message="the suite\'s, not a\'s"/><testcase name="c" time="whatever"><failure message="m"/></testcase><testcase name="d" time="2"></testcase><testcase name="e" time="3" />');
    const other = plain.replace(/<testcase name="([^"]*)" time="([^"]*)"/g, '<testcase time="$2" name="$1"');
    expect(parseJunit(plain)).toEqual(parseJunit(other));
    expect(parseJunit(plain).cases.map((c) => [c.name, c.result, c.durationSec])).toEqual([['a & b', 'passed', 1.5], ['c', 'failed', undefined], ['d', 'passed', 2], ['e', 'passed', 3]]);
  });

  it('reports truncation inside a testcase and keeps the completed ones', () => {
    const { cases, error } = parseJunit('<testsuite name="s"><testcase name="a"/><testcase name="b &amp; c"><failure>boo');
    expect(cases.map((c) => c.name)).toEqual(['a']);
    expect(error).toBe('truncated: unexpected end of file inside <testcase name="b & c">');
    expect(parseJunit('<testsuite name="s"><testcase name="a"/>').error).toBe('truncated: unexpected end of file inside <testsuite name="s">');
  });

  it('stops at elements nested deeper than 64, keeping the cases before', () => {
    // thousands of open elements made every unmatched end tag search them all: 11 s for 450 KB
    const deep = parseJunit('<testsuite name="s"><testcase name="a"/>' + '<x>'.repeat(50_000) + '</y>'.repeat(50_000));
    expect(deep).toEqual({ cases: [{ name: 'a', result: 'passed', message: '', suite: 's' }], error: 'elements nested deeper than 64 (at <x>): the rest of the file was not read' });
    // nested suites as deep as real reports go are read as before
    const nested = parseJunit('<testsuites>' + '<testsuite name="s">'.repeat(30) + '<testcase name="b"/>' + '</testsuite>'.repeat(30) + '</testsuites>');
    expect(nested).toEqual({ cases: [{ name: 'b', result: 'passed', message: '', suite: 's' }] });
  });

  it('rejects what is not JUnit XML without cases', () => {
    const html = parseJunit('<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1><testcase name="x"/></body></html>');
    expect(html).toEqual({ cases: [], error: 'not JUnit XML: root element is <html>, expected <testsuites> or <testsuite>' });
    expect(parseJunit(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x3c, 0x00, 0xff])).error).toMatch(/^not XML/);
    expect(parseJunit('404 page not found').error).toMatch(/^not XML: starts with "404/);
    expect(parseJunit('').error).toBe('not XML: the file is empty');
    expect(parseJunit('  \n').cases).toEqual([]);
  });

  it('caps failure text at 16 KB, keeping the first and last 8 KB', () => {
    const body = 'a'.repeat(8192) + 'MIDDLE'.repeat(5000) + 'z'.repeat(8192);
    const c = only(suite(`<testcase name="t"><failure>${body}</failure></testcase>`));
    expect(c.message).toBe('a'.repeat(8192) + TRUNCATION_MARK + 'z'.repeat(8192));
    expect(capText('short')).toBe('short');
  });

  it('parses a generated 5 MB junit', () => {
    const parts = ['<testsuites><testsuite name="openshift-tests">'];
    let n = 0;
    for (let size = 0; size < 5 * 1024 * 1024; n++) {
      const p = n % 10 === 0
        ? `<testcase name="[sig-x] test &quot;${n}&quot;" time="1.5"><failure message="">fail [a.go:${n}]: boom\n${'output line\n'.repeat(20)}</failure><system-out>${'log\n'.repeat(30)}</system-out></testcase>\n`
        : `<testcase name="[sig-x] test &quot;${n}&quot;" time="0.25"/>\n`;
      parts.push(p);
      size += p.length;
    }
    parts.push('</testsuite></testsuites>');
    const { cases, error } = parseJunit(parts.join(''));
    expect(error).toBeUndefined();
    expect(cases).toHaveLength(n);
    expect(cases.filter((c) => c.result === 'failed')).toHaveLength(Math.ceil(n / 10));
    expect(cases[n - 1].name).toBe(`[sig-x] test "${n - 1}"`);
  });
});

describe('mergeCases', () => {
  const raw = (name: string, result: RawCase['result'], message = ''): RawCase => ({ name, result, message, suite: 's' });

  it('merges per name in first-seen order', () => {
    expect(mergeCases([
      raw('flake', 'failed', 'first'),
      raw('fail', 'failed', 'f1'),
      raw('pass', 'passed'),
      raw('flake', 'passed'),
      raw('skip', 'skipped'),
      raw('fail', 'failed', 'f2'),
      raw('skip-pass', 'skipped'),
      raw('skip-pass', 'passed'),
      raw('skip-fail', 'skipped'),
      raw('skip-fail', 'failed', 'sf'),
      raw('pass-then-fail', 'passed'),
      raw('pass-then-fail', 'failed', 'late'),
    ])).toEqual([
      { name: 'flake', outcome: 'flaked', message: 'first' },
      { name: 'fail', outcome: 'failed', message: 'f2' },
      { name: 'pass', outcome: 'passed', message: '' },
      { name: 'skip', outcome: 'skipped', message: '' },
      { name: 'skip-pass', outcome: 'passed', message: '' },
      { name: 'skip-fail', outcome: 'failed', message: 'sf' },
      { name: 'pass-then-fail', outcome: 'flaked', message: 'late' },
    ]);
    expect(mergeCases([])).toEqual([]);
  });
});
