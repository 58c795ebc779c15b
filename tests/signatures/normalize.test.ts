import { describe, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../fixtures';
import { normalizeFailureText, replaceOrdinals, signatureText, TRIAGE_ORDINAL_RE } from '../../lib/signatures/normalize';
import { commonSpans, editDist, editDistBelow, makeNgramCountsDigest, matchLimit, ngramCounts, ngramEditDist } from '../../lib/signatures/textDistance';
import { SignatureIndex } from '../../lib/signatures/clustering';

type Generator = string | { literal?: string; repeat?: string; times?: number; concat?: Generator[] };
const expand = (g: Generator): string =>
  typeof g === 'string' ? g : g.concat ? g.concat.map(expand).join('') : g.repeat !== undefined ? g.repeat.repeat(g.times!) : g.literal!;

describeFixtures('triage test vectors (kubernetes/test-infra triage)', () => {
  const vectors = JSON.parse(readFixture('triage/triage_test_vectors.json'));
  const go = vectors.go_tests;
  const py = vectors.python_tests;

  it('normalize: Go TestNormalize and Python test_normalize, including the 500,000-repeat text', () => {
    const cases = [...go.normalize.cases, ...py.normalize];
    expect(cases.length).toBe(8);
    for (const c of cases) {
      const input = c.input ?? expand(c.input_generator);
      const expected = c.expected ?? expand(c.expected_generator);
      expect(normalizeFailureText(input), c.name ?? `python line ${c.line}`).toBe(expected);
    }
  });

  it('normalize: node, pod, line-number and timestamp forms (TestNormalizeNodeNames)', () => {
    for (const c of go.normalize_node_names.cases) expect(normalizeFailureText(c.input), c.name).toBe(c.expected);
  });

  it('pod failures on different nodes get the same cluster id (TestPodFailureClusteringSameID)', () => {
    const ids = go.same_cluster_id.messages.map((m: string) => makeNgramCountsDigest(normalizeFailureText(m)));
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(1);
  });

  it('ngram edit distance, digest, python make_ngram_counts sums and editdist', () => {
    for (const c of go.ngram_edit_dist.cases) expect(ngramEditDist(c.a, c.b)).toBe(c.expected);
    for (const c of go.ngram_counts_digest.cases) expect(makeNgramCountsDigest(c.input)).toBe(c.expected);
    for (const [text, sum] of py.make_ngram_counts_sum.cases) {
      expect(ngramCounts(text).reduce((a, b) => a + b, 0), JSON.stringify(text)).toBe(sum);
    }
    for (const [a, b, d] of py.editdist.cases) expect(editDist(a, b), `${a} ${b}`).toBe(d);
  });

  it('commonSpans', () => {
    for (const c of go.common_spans.cases) expect(commonSpans(c.input), c.name).toEqual(c.expected);
  });

  it('cluster_test vectors through SignatureIndex: short texts stay apart, long near-duplicates join the first', () => {
    for (const c of go.cluster_test.cases) {
      const texts: string[] = c.failure_texts ?? c.failure_texts_generators.map(expand);
      const index = new SignatureIndex();
      const clusters = new Map<string, string[]>();
      for (const t of texts) {
        const sig = index.assign(t);
        clusters.set(sig.text, [...(clusters.get(sig.text) ?? []), t]);
      }
      if (c.expected_clusters) expect(Object.fromEntries(clusters), c.name).toEqual(c.expected_clusters);
      else {
        // "cluster 'exit 1' alone; the two huge strings cluster together under the first one"
        expect([...clusters.entries()], c.name).toEqual([['exit 1', ['exit 1']], [texts[1], [texts[1], texts[2]]]]);
      }
    }
  });

  it('cluster_global vectors through SignatureIndex: global across tests, and a previous key absorbs a near text', () => {
    for (const c of go.cluster_global.cases) {
      const previous = (c.previous_keys ?? []).map((text: string, i: number) => ({ id: i + 1, hash: makeNgramCountsDigest(text), text }));
      const index = new SignatureIndex(previous);
      const got: Record<string, Record<string, number>> = {};
      for (const [test, failures] of Object.entries(c.input as Record<string, Record<string, number>>)) {
        for (const [text, count] of Object.entries(failures)) {
          for (let i = 0; i < count; i++) {
            const sig = index.assign(text);
            got[sig.text] ??= {};
            got[sig.text][test] = (got[sig.text][test] ?? 0) + 1;
          }
        }
      }
      expect(got, c.name).toEqual(c.expected);
    }
  });
});

describe('triage ordinal scanner', () => {
  const viaRegex = (s: string) => {
    const seen = new Map<string, string>();
    return s.replace(TRIAGE_ORDINAL_RE, (m) => {
      if (!seen.has(m)) seen.set(m, `UNIQ${seen.size + 1}`);
      return seen.get(m)!;
    });
  };

  it('replaces exactly what the specification regex replaces, on random token soup', () => {
    const pieces = [
      '0x', '0X', '1', '12', '123', '1234', '.', ':', '-', '/', '"', ' ', '\n', '\t', 'a', 'f', 'g', 'z', 'A', 'F', 'Z', '_',
      'deadbeef', '0123456789ab', 'cafe', 'nodes-', 'i-', 'kind-', 'worker', 'control-plane', 'minion-group-',
      'default-pool-', 'pod', '.go:', 'go', 'bdf5', 'x7fqk', '5405', 'é', '✓', '\u00a0', 'e2e', 'test-',
    ];
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let t = 0; t < 20_000; t++) {
      let s = '';
      const n = rand(40);
      for (let i = 0; i < n; i++) s += pieces[rand(pieces.length)];
      expect(replaceOrdinals(s), JSON.stringify(s)).toBe(viaRegex(s));
    }
  });

  it('agrees on long hyphenated chains and hex runs (where a naive scanner goes quadratic)', () => {
    for (const s of ['a-'.repeat(3000) + '1', 'a-'.repeat(3000) + '1-2', 'f'.repeat(5000), '-5'.repeat(3000), '1.'.repeat(3000)]) {
      expect(replaceOrdinals(s)).toBe(viaRegex(s));
    }
  });
});

describe('edit distance', () => {
  const levenshtein = (a: string, b: string) => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
    return prev[b.length];
  };

  it('editDist is exact up to the limit and above it otherwise; editDistBelow agrees', () => {
    let seed = 3;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let t = 0; t < 5000; t++) {
      const alphabet = rand(2) ? 'ab' : 'abcdefg \n';
      const a = Array.from({ length: rand(60) }, () => alphabet[rand(alphabet.length)]).join('');
      const b = a.split('');
      for (let e = rand(12); e > 0; e--) {
        const p = rand(b.length + 1);
        const op = rand(3);
        if (op === 0) b.splice(p, 0, alphabet[rand(alphabet.length)]);
        else if (op === 1) b.splice(p, 1);
        else b[p] = alphabet[rand(alphabet.length)];
      }
      const bs = b.join('');
      const exact = levenshtein(a, bs);
      const limit = rand(15);
      const got = editDist(a, bs, limit);
      if (exact <= limit) expect(got).toBe(exact);
      else expect(got).toBeGreaterThan(limit);
      expect(editDist(a, bs)).toBe(exact);
      expect(editDistBelow(a, bs, limit)).toBe(exact < limit);
    }
  });

  it('matchLimit is triage float32 int((a+b)/2*0.1)', () => {
    expect(matchLimit(6, 6)).toBe(0);
    expect(matchLimit(46, 46)).toBe(4);
    expect(matchLimit(55, 55)).toBe(5);
    expect(matchLimit(1600, 1600)).toBe(160);
  });
});

describe('signatureText: OpenShift noise', () => {
  const kubeletRace = (rv1: number, rv2: number, pod: string, t1: string, t2: string, line: number, phaseB = 'Succeeded') =>
    `fail [github.com/openshift/origin/test/extended/deployments/deployments.go:${line}]: Expected pod ${pod} to be Failed after deletion\n` +
    `object.ObjectMeta.ResourceVersion: a: "${rv1}" b: "${rv2}"\n` +
    `object.Status.Phase: a: "Failed" b: "${phaseB}"\n` +
    `object.Status.ContainerStatuses[0].State.Terminated.FinishedAt: a: "${t1}" b: "${t2}"`;

  it('the Kubelet race diff gives one text across runs', () => {
    const runs = [
      kubeletRace(77980, 78041, 'deployment-test-1-deploy', '2019-03-12T10:11:12Z', '2019-03-12T10:11:14Z', 1243),
      kubeletRace(1203344, 1203397, 'deployment-test-2-deploy', '2019-04-01T23:59:01Z', '2019-04-01T23:59:09Z', 1243),
      kubeletRace(5521, 5600, 'deployment-test-3-deploy', '2019-05-20T00:00:00Z', '2019-05-20T00:01:00Z', 1250),
    ];
    expect(new Set(runs.map(signatureText)).size).toBe(1);
  });

  it('keeps quoted words: a different phase transition is a different text', () => {
    const a = kubeletRace(77980, 78041, 'deployment-test-1-deploy', '2019-03-12T10:11:12Z', '2019-03-12T10:11:14Z', 1243);
    const b = a.replace('a: "Failed" b: "Succeeded"', 'a: "Running" b: "Pending"');
    expect(signatureText(a)).not.toBe(signatureText(b));
  });

  it('removes durations, ports, namespaces, generated names, pointers, digests, goroutines, long numbers', () => {
    const pairs: Array<[string, string]> = [
      ['timed out after 1m23.5s', 'timed out after 2h0m3s'],
      ['waited 500ms for sync', 'waited 12ms for sync'],
      ['dial tcp localhost:8443: refused', 'dial tcp localhost:9443: refused'],
      ['namespace ci-op-8d7cs5ql not found', 'namespace ci-op-3jqx2b1m not found'],
      ['namespace e2e-test-build-pruning-abcde: gone', 'namespace e2e-test-build-pruning-x7fqk: gone'],
      ['pod router-default-7d4f9b8c6-x7fqk: crashloop', 'pod router-default-5c8b6d9f7-q2w8z: crashloop'],
      ['nil pointer 0xc4203e7a50 in handler', 'nil pointer 0xc420a1b2c3 in handler'],
      ['image@sha256:' + 'ab'.repeat(32) + ' missing', 'image@sha256:' + '3c'.repeat(32) + ' missing'],
      ['goroutine 123 [running]:', 'goroutine 98765 [running]:'],
      ['resourceVersion=12345 is too old', 'resourceVersion=99 is too old'],
      ['expected 104857600 bytes', 'expected 2147483648 bytes'],
      [
        'Get "https://api.ci-op-8d7cs5ql-5b1f4.origin-ci-int-aws.dev.rhcloud.com:6443/api?timeout=32s": net/http: TLS handshake timeout',
        'Get "https://api.ci-ln-z4kq8bt-72292.gcp-2.ci.openshift.org:6443/api?timeout=32s": net/http: TLS handshake timeout',
      ],
    ];
    for (const [a, b] of pairs) expect(signatureText(a), a).toBe(signatureText(b));
  });

  it('keeps what tells failures apart: short numbers, exit codes, words', () => {
    const different: Array<[string, string]> = [
      ['exit status 1', 'exit status 2'],
      ['expected 3 replicas, got 2', 'expected 3 replicas, got 1'],
      ['HTTP status:500 from server', 'HTTP status:404 from server'],
      ['container "registry" failed', 'container "router" failed'],
    ];
    for (const [a, b] of different) expect(signatureText(a), a).not.toBe(signatureText(b));
  });

  it('starts from triage normalisation and does not crash on odd input', () => {
    expect(signatureText('0x1234 a 123.13.45.43 b')).toBe('UNIQ1 a UNIQ2 b');
    for (const odd of ['', '\u0000\uffff\ud800', 'map[', 'map[b a]map[', 'é'.repeat(20_000), '\r\n'.repeat(9000)]) {
      expect(typeof signatureText(odd)).toBe('string');
    }
    expect(normalizeFailureText('map[z:1 a:2 m:3]')).toBe('map[a:2 m:3 z:1]');
  });
});
