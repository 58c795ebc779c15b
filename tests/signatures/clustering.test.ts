import { describe, expect, it } from 'vitest';
import { failureTexts } from '../../bench/clustering';
import { signatureText } from '../../lib/signatures/normalize';
import { editDist, makeNgramCountsDigest, matchLimit, ngramCounts, ngramCountsL1 } from '../../lib/signatures/textDistance';
import { collisionHash, provablyAtLeast, SignatureIndex, type StoredSignature } from '../../lib/signatures/clustering';

const sample = (n: number, seed: number, templates?: number) => {
  const gen = failureTexts(seed, templates);
  return Array.from({ length: n }, () => gen.next());
};

/** Triage's rule applied naively: compare with every signature, in creation order. */
function bruteForce(texts: readonly string[]): string[] {
  const keys: Array<{ text: string; counts: Int32Array }> = [];
  const out: string[] = [];
  for (const raw of texts) {
    const text = signatureText(raw);
    let joined = keys.find((k) => k.text === text);
    if (!joined) {
      const counts = ngramCounts(text);
      const candidates = keys
        .map((key, rank) => ({ key, rank, limit: matchLimit(text.length, key.text.length), dist: Math.floor(ngramCountsL1(counts, key.counts) / 4) }))
        .filter((c) => c.limit > 1 && c.dist <= c.limit)
        .sort((a, b) => a.dist - b.dist || a.rank - b.rank);
      joined = candidates.find((c) => editDist(text, c.key.text, c.limit) < c.limit)?.key;
      if (!joined) keys.push((joined = { text, counts }));
    }
    out.push(joined.text);
  }
  return out;
}

/** Mutations of generated texts, so that many pairs sit near the 10% threshold. */
function nearThreshold(texts: readonly string[], seed: number): string[] {
  let s = seed;
  const rand = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  return texts.map((t) => {
    const chars = t.split('');
    const edits = rand(Math.max(2, Math.floor(t.length / 6)));
    for (let e = 0; e < edits; e++) chars[rand(chars.length)] = 'qwxz '[rand(5)];
    return chars.join('');
  });
}

describe('SignatureIndex', () => {
  it('equals the brute-force nearest-within-threshold search on varied texts', () => {
    // enough templates for a few hundred signatures, so that the length-window search is used too
    const base = sample(2400, 11, 1200);
    const texts = [...base.slice(0, 800), ...nearThreshold(base.slice(0, 900), 5), ...base.slice(800)];
    const index = new SignatureIndex();
    const got = texts.map((t) => index.assign(t).text);
    const want = bruteForce(texts);
    expect(got).toEqual(want);
    expect(index.stats.searchesCutShort).toBe(0); // the brute force has no work budget
    // the data exercised the fuzzy path, both joining and not joining
    const distinct = new Set(texts.map(signatureText));
    expect(index.size).toBeLessThan(distinct.size);
    expect(index.size).toBeGreaterThan(300);
  });

  it('a remembered fuzzy match moves to a newer, closer signature, as the brute force does', () => {
    const words = 'ghij klmn opqr stuv wxyz'.split(' ');
    const a = Array.from({ length: 50 }, (_, i) => words[i % 5]).join(' '); // 249 chars, limit 24
    const b = 'X'.repeat(30) + a.slice(30); // 30 edits from a: a new signature
    const x = 'X'.repeat(18) + a.slice(18); // 18 from a, 12 from b
    const texts = [a, x, b, x];
    const index = new SignatureIndex();
    const got = texts.map((t) => index.assign(t).text);
    const want = bruteForce(texts);
    expect(got).toEqual(want);
    expect(want[1]).toBe(a);
    expect(want[3]).toBe(b);
  });

  it('adding texts one at a time gives the same signatures as an index rebuilt from the earlier result', () => {
    const texts = sample(3000, 21);
    const whole = new SignatureIndex();
    const first = texts.slice(0, 1200).map((t) => whole.assign(t));
    const stored: StoredSignature[] = whole.signatures().map((s, i) => ({ id: i + 1, hash: s.hash, text: s.text }));
    // the database returns them in any order; ids say which came first
    const reloaded = new SignatureIndex([...stored].reverse());
    for (const sig of stored) whole.add(sig);
    const rest = texts.slice(1200);
    const fromWhole = rest.map((t) => whole.assign(t));
    const fromReloaded = rest.map((t) => reloaded.assign(t));
    expect(fromReloaded.map((a) => [a.hash, a.text, a.isNew])).toEqual(fromWhole.map((a) => [a.hash, a.text, a.isNew]));
    expect(first.filter((a) => a.isNew)).toHaveLength(stored.length);
    expect(fromReloaded.filter((a) => !a.isNew && a.id !== undefined).length).toBeGreaterThan(0);
  });

  it('ids are stable across a rebuild from the same texts in the same order', () => {
    const texts = sample(2000, 31);
    const hashes = (index: SignatureIndex) => texts.map((t) => index.assign(t).hash);
    const a = hashes(new SignatureIndex());
    const b = hashes(new SignatureIndex());
    expect(b).toEqual(a);
    const firstText = signatureText(texts[0]);
    expect(a[0]).toBe(makeNgramCountsDigest(firstText));
  });

  it('reports ids once stored, and rejects records that contradict it', () => {
    const index = new SignatureIndex();
    const created = index.assign('panic: something broke in the registry operator while syncing');
    expect(created.isNew).toBe(true);
    expect(created.id).toBeUndefined();
    index.add({ id: 42, hash: created.hash, text: created.text });
    expect(index.assign('panic: something broke in the registry operator while syncing')).toEqual({ ...created, isNew: false, id: 42 });
    expect(() => index.add({ id: 43, hash: 'other', text: created.text })).toThrow(/already registered/);
    expect(() => index.add({ id: 44, hash: created.hash, text: 'another text' })).toThrow(/already used/);
    expect(index.size).toBe(1);
  });

  it('derives a different hash when the digest is taken by another text', () => {
    // the digest only sees 4-gram counts: texts under 4 characters all have none
    const index = new SignatureIndex();
    const one = index.assign('EOF');
    const two = index.assign('nil');
    const three = index.assign('');
    expect(makeNgramCountsDigest('EOF')).toBe(makeNgramCountsDigest('nil'));
    expect([one.isNew, two.isNew, three.isNew]).toEqual([true, true, true]);
    expect(one.hash).toBe(makeNgramCountsDigest('EOF'));
    expect(two.hash).toBe(collisionHash('nil', 2));
    expect(three.hash).toBe(collisionHash('', 2));
    expect(new Set([one.hash, two.hash, three.hash]).size).toBe(3);
  });

  it('the Kubelet race from many runs is one signature', () => {
    const index = new SignatureIndex();
    let rv = 77980;
    const pad = (n: number) => String(n).padStart(2, '0');
    for (let run = 0; run < 50; run++) {
      rv += 61 * run + 7;
      const t = `2019-03-${pad(1 + (run % 28))}T${pad(run % 24)}:11:${pad(run % 60)}Z`;
      index.assign(
        `fail [github.com/openshift/origin/test/extended/deployments/deployments.go:${1200 + run}]: Expected pod deployment-test-${1 + (run % 3)}-deploy to be Failed after deletion\n` +
          `object.ObjectMeta.ResourceVersion: a: "${rv}" b: "${rv + 61}"\nobject.Status.Phase: a: "Failed" b: "Succeeded"\n` +
          `object.Status.ContainerStatuses[0].State.Terminated.FinishedAt: a: "${t}" b: "${t.replace(':11:', ':12:')}"`,
      );
    }
    expect(index.size).toBe(1);
  });

  it('"TLS handshake timeout" against different hosts from many tests is one signature', () => {
    const index = new SignatureIndex();
    const suffix = (n: number) => 'bcdfghjklmnpqrstvwxz2456789'[n % 27] + 'x7fq' + 'bcdfghjklmnpqrstvwxz2456789'[(n * 7) % 27];
    const domains = ['origin-ci-int-aws.dev.rhcloud.com', 'ci.azure.devcluster.openshift.com', 'gcp-2.ci.openshift.org'];
    const tests = ['builds', 'deployments', 'images', 'router', 'templates', 'cli', 'etcd', 'apiserver'];
    const hashes = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const host = `api.ci-op-${(i * 7919).toString(36).padStart(8, 'k')}-${suffix(i)}.${domains[i % 3]}`;
      const text =
        `fail [github.com/openshift/origin/test/extended/util/client.go:${200 + (i % 40)}]: Unexpected error:\n` +
        `    <*url.Error | 0xc${(0x420000000 + i * 4099).toString(16)}>: Get "https://${host}:6443/api/v1/namespaces/e2e-test-${tests[i % tests.length]}-${suffix(i * 3)}/pods": net/http: TLS handshake timeout\noccurred`;
      hashes.add(index.assign(text).hash);
    }
    expect(hashes.size).toBe(1);
  });

  it('the 4-gram proofs never claim a distance that the exact edit distance does not reach', () => {
    let seed = 9;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const lines = ['github.com/x/y.(*T).Run(UNIQ1)\n', '\t/go/src/x/y.go:UNIQ2\n', 'panic: boom\n', 'created by z\n', 'abab'];
    let proved = 0;
    for (let t = 0; t < 3000; t++) {
      const a = Array.from({ length: 1 + rand(12) }, () => lines[rand(lines.length)]).join('');
      let b = a;
      if (rand(2)) b = b.split('\n').sort(() => rand(3) - 1).join('\n'); // reorder lines
      for (let e = rand(20); e > 0; e--) {
        const p = rand(b.length + 1);
        b = b.slice(0, p) + 'qz\n '[rand(4)] + b.slice(p + rand(2));
      }
      const exact = editDist(a, b);
      for (const limit of [2, 5, 10, 20, 40]) {
        if (provablyAtLeast(a, b, limit)) {
          proved++;
          expect(exact, JSON.stringify([a, b, limit])).toBeGreaterThanOrEqual(limit);
        }
        if (provablyAtLeast(b, a, limit)) expect(exact).toBeGreaterThanOrEqual(limit);
      }
    }
    expect(proved).toBeGreaterThan(1000);
  });

  it('bounds the edit-distance work of one search; a search cut short makes a signature of its own', () => {
    // log tails: lines of the same kinds, other ones in another order each time, so that every pair
    // is near by ngrams and far by edits
    let seed = 5;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const areas = ['apps', 'node', 'network', 'storage', 'auth', 'cli'];
    const words = ['deployment', 'registry', 'router', 'volume', 'secret', 'quota', 'image', 'build', 'service', 'ingress', 'namespace', 'template'];
    const lines = Array.from({ length: 40 }, (_, i) => `passed: (${i}s) "[sig-${areas[i % 6]}] ${words[i % 12]} ${words[(i * 5 + 3) % 12]} should ${words[(i * 7 + 1) % 12]} [Suite:openshift/conformance/parallel]"`);
    const tails = Array.from({ length: 60 }, () => Array.from({ length: 15 }, () => lines[rand(lines.length)]).join('\n'));
    const budgeted = new SignatureIndex([], { editWorkBudget: 200_000 });
    const exhaustive = new SignatureIndex([], { editWorkBudget: Infinity });
    const checks = (index: SignatureIndex, text: string) => {
      const before = index.stats.editDistanceChecks;
      const { text: joined } = index.assign(text);
      return { joined, checks: index.stats.editDistanceChecks - before };
    };
    let most = 0;
    for (const [i, tail] of tails.entries()) {
      const cut = checks(budgeted, tail);
      const full = checks(exhaustive, tail);
      expect(cut.joined).toBe(full.joined);
      expect(full.checks).toBe(i); // every earlier tail was a candidate, and none was close enough
      most = Math.max(most, cut.checks);
    }
    expect(budgeted.size).toBe(60);
    expect(most).toBeLessThan(20);
    expect(budgeted.stats.searchesCutShort).toBeGreaterThan(30);
    // the nearest signatures are compared first: a near-duplicate still joins its own
    const nearDuplicate = tails[50].replace('should', 'shall');
    expect(budgeted.assign(nearDuplicate).text).toBe(signatureText(tails[50]));
  });

  it('never crashes on odd input', () => {
    const index = new SignatureIndex();
    for (const odd of ['', ' ', '\u0000', 'é', '\ud800'.repeat(10), 'x'.repeat(200_000), 'a\nb\n'.repeat(8000)]) {
      expect(typeof index.assign(odd).hash).toBe('string');
    }
  });
});
