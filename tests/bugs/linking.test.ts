// Automatic bug linking, the pure part: full names only, reasons, signature quotes that are specific,
// and the pattern index against a brute-force search.
import { describe, expect, it } from 'vitest';
import {
  candidateKeyLines, canonicalText, collapseSpaces, computeAutoLinks, informativeLetters, keyForm, nameLinks, SignatureKeySelector, SignatureQuoteIndex, TestNameIndex,
} from '../../lib/bugs/linking';
import { holdsHash, letterRunHashes, quoteRunKey } from '../../lib/bugs/letterRuns';
import { signatureText } from '../../lib/signatures/normalize';
import { PatternIndex } from '../../lib/signatures/patternIndex';

const DC = '[sig-apps][Feature:DeploymentConfig] deploymentconfigs keep the deployer pod invariant valid [Conformance] should deal with config change in case the deployment is still running [Suite:openshift/conformance/parallel/minimal] [Suite:k8s]';
const NODEPORT = '[sig-network] Services should be able to create a functioning NodePort service [Suite:openshift/conformance/parallel] [Suite:k8s]';
const NODEPORT_UPSTREAM = '[sig-network] Services should be able to create a functioning NodePort service';
const INSTALL = 'install should succeed: infrastructure';
const INSTALL_OVERALL = 'install should succeed: overall';
const XSS = '[sig-xss] renders <img src=x onerror=alert(1)> as text [Suite:openshift/conformance/parallel]';
const NAMES = [DC, NODEPORT, NODEPORT_UPSTREAM, INSTALL, INSTALL_OVERALL, XSS, 'Overall'];

const bug = (summary: string, description = '', comments: string[] = []) => ({ summary, description, comments });
/** A seeded generator of whole numbers below n (the same sequence every run). */
const lcg = (seed: number) => (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 16) % n;

describe('PatternIndex', () => {
  it('finds exactly what a brute-force search finds, short and long patterns, overlaps included', () => {
    // a small alphabet makes many overlapping and repeated occurrences
    const rand = lcg(7);
    const word = (len: number) => Array.from({ length: len }, () => 'ab c'[rand(4)]).join('');
    const patterns = Array.from({ length: 300 }, () => word(3 + rand(40)));
    const index = new PatternIndex(patterns, 12);
    for (let t = 0; t < 20; t++) {
      const text = word(2000) + patterns[rand(patterns.length)] + word(50);
      const expected: string[] = [];
      patterns.forEach((p, i) => {
        for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) expected.push(`${i}@${at}`);
      });
      const got = index.findAll(text).map((m) => `${m.pattern}@${m.start}`);
      expect(got.sort()).toEqual(expected.sort());
    }
  });

  it('finds patterns pushed after it was built as it finds those it was built with', () => {
    const rand = lcg(11);
    const word = (len: number) => Array.from({ length: len }, () => 'ab c'[rand(4)]).join('');
    const patterns = Array.from({ length: 300 }, () => word(3 + rand(40)));
    const built = new PatternIndex(patterns, 12);
    const grown = new PatternIndex(patterns.slice(0, 50), 12, true);
    for (const p of patterns.slice(50)) grown.push(p);
    expect(() => built.push('abc')).toThrow(/not built growable/);
    for (let t = 0; t < 20; t++) {
      const text = word(2000) + patterns[rand(patterns.length)] + word(50);
      const found = (index: PatternIndex) => index.findAll(text).map((m) => `${m.pattern}@${m.start}`).sort();
      expect(found(grown)).toEqual(found(built));
    }
  });
});

describe('links by test name', () => {
  const index = new TestNameIndex(NAMES);
  const found = (text: string) => [...index.find(text)].map((i) => NAMES[i]).sort();

  it('links the full name wherever it appears, with the strongest reason', () => {
    const links = nameLinks(index, bug(`${INSTALL} fails on GCP`, `Seen in:\n${DC}\n`, [`also ${NODEPORT}`, `and ${INSTALL} again`]));
    expect(Object.fromEntries([...links].map(([i, r]) => [NAMES[i], r]))).toEqual({
      [INSTALL]: 'name-in-summary',
      [DC]: 'name-in-description',
      [NODEPORT]: 'name-in-comment',
    });
  });

  it('does not link a partial name', () => {
    expect(found('Intermittent failures in "[sig-network] Services should" tests on Azure')).toEqual([]);
    expect(found('install should succeed: infra fails')).toEqual([]);
    expect(found(DC.slice(0, -14))).toEqual([]);
  });

  it('does not link a name that only occurs inside a longer test name', () => {
    expect(found(`Failing test: ${NODEPORT}`)).toEqual([NODEPORT]);
    expect(found(`Failing upstream: ${NODEPORT_UPSTREAM}. And downstream: ${NODEPORT}`)).toEqual([NODEPORT, NODEPORT_UPSTREAM].sort());
  });

  it('needs word boundaries where the name starts or ends with a letter or digit', () => {
    expect(found(`re${INSTALL}`)).toEqual([]);
    expect(found(`${INSTALL}s`)).toEqual([]);
    expect(found(`"${INSTALL}".`)).toEqual([INSTALL]);
    expect(found(`_${INSTALL}_`)).toEqual([INSTALL]);
  });

  it('ignores whitespace differences, markup escapes and quote markers, but not case', () => {
    expect(found(DC.replace(/ /g, '\n  '))).toEqual([DC]);
    expect(found(`> ${DC.replace(/\[/g, '\\[').replace(/\]/g, '\\]')}`)).toEqual([DC]);
    expect(found(DC.toUpperCase())).toEqual([]);
  });

  it('takes every whitespace run as one space, Unicode spaces and line separators included', () => {
    const rand = lcg(11);
    const alphabet = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\v', 'a', 'bc', '>', '\\[', '\u200b'];
    for (let t = 0; t < 2000; t++) {
      const s = Array.from({ length: rand(30) }, () => alphabet[rand(alphabet.length)]).join('');
      expect(collapseSpaces(s), JSON.stringify(s)).toBe(s.replace(/\s+/g, ' '));
      // what canonicalText did as one chain of replacements
      const chained = s.replace(/^[ \t]*>+[ \t]?/gm, '').replace(/\\([[\]{}()*_#|`-])/g, '$1').replace(/\s+/g, ' ').trim();
      expect(canonicalText(s), JSON.stringify(s)).toBe(chained);
    }
  });

  it('matches names with markup-like characters literally', () => {
    expect(found(`Example: ${XSS}`)).toEqual([XSS]);
  });

  it('never links names too short to be specific', () => {
    expect(found('Overall the cluster was fine')).toEqual([]);
  });
});

const KUBELET = (ns: string, rv: number, pod: string, when: string) =>
  [
    '[BeforeEach] [Top Level]',
    '  /go/src/github.com/openshift/origin/test/extended/util/test.go:58',
    'STEP: Creating a kubernetes client',
    `${when}: INFO: Running 'oc rollout latest --namespace=${ns} dc/deployment-test'`,
    `fail [github.com/openshift/origin/test/extended/deployments/util.go:754]: ${when}: deployer pod ${ns}/deployment-test-1-deploy changed unexpectedly (pod ${pod}):`,
    'object.ObjectMeta.ResourceVersion:',
    `  a: "${rv}"`,
    `  b: "${rv + 17}"`,
    'object.Status.Phase:',
    '  a: "Failed"',
    '  b: "Succeeded"',
  ].join('\n');
const DNS = [
  'STEP: Creating a kubernetes client',
  'fail [k8s.io/kubernetes/test/e2e/network/dns_common.go:475]: Unexpected error:',
  '    <*errors.errorString | 0xc000a1b2c3>: {',
  '        s: "timed out waiting for the condition",',
  '    }',
  '    timed out waiting for the condition',
  'occurred',
].join('\n');

describe('signature key lines', () => {
  it('keeps the specific failure line and not the generic ones', () => {
    const lines = candidateKeyLines(signatureText(KUBELET('e2e-test-cli-deployment-x7k2p', 41230, 'deployment-test-1-b9z4q', 'Nov 14 10:00:01.123'))).map((l) => l.line);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('changed unexpectedly');
    expect(candidateKeyLines(signatureText(DNS))).toEqual([]);
  });

  it('does not count stock phrases, file locations or placeholders as content', () => {
    expect(informativeLetters('fail [k8s.io/kubernetes/test/e2e/framework/util.go:UNIQ]: timed out waiting for the condition')).toBe(0);
    expect(informativeLetters('Get https://api.CLUSTER:PORT/api/v1/namespaces/NS: net/http: TLS handshake timeout')).toBe(0);
    expect(informativeLetters('PersistentVolumeClaims [pvc-XXXXX] not all in phase Bound within DURATION')).toBeGreaterThan(0);
  });

  it('leaves out lines that are test names, and fragments cut by the normaliser', () => {
    const listing = `Failing tests:\n\n${DC}\n\nerror: 1 fail, 170 pass, 21 skip`;
    expect(candidateKeyLines(listing, new TestNameIndex([DC].map((n) => keyForm(signatureText(n)))))).toEqual([]);
    const cut = `first line of a long text\n${NODEPORT.slice(20)}\n...[truncated]...\n${DC.slice(0, 80)}\nthe failing check reported an unrecoverable storage quota problem`;
    expect(candidateKeyLines(cut).map((l) => l.line)).toEqual(['the failing check reported an unrecoverable storage quota problem']);
  });

  it('treats a line shared by many signatures as boilerplate', () => {
    const shared = 'INFO: About to run a Kube e2e test, ensuring namespace is privileged and ready';
    const sigs = Array.from({ length: 10 }, (_, i) => `${shared}\nsomething specific number ${'abcdefghij'[i]} happened with the widget controller`);
    const selector = new SignatureKeySelector<number>();
    sigs.forEach((s, i) => selector.add(i, s));
    sigs.forEach((_, i) => expect(selector.keys(i).some((l) => l.includes('About to run'))).toBe(false));
    expect(selector.keys(0).length).toBe(1);
  });
});

describe('links by signature quote', () => {
  const sig = signatureText(KUBELET('e2e-test-cli-deployment-x7k2p', 41230, 'deployment-test-1-b9z4q', 'Nov 14 10:00:01.123'));
  const selector = new SignatureKeySelector([DC]);
  selector.add('kubelet', sig);
  selector.add('dns', signatureText(DNS));
  const index = new SignatureQuoteIndex(selector.keyed());

  it('links a bug quoting another occurrence of the failure (other names, numbers, times)', () => {
    const other = KUBELET('e2e-test-cli-deployment-q2w8r', 88001, 'deployment-test-1-m4n5p', 'Nov 20 23:59:59.999');
    const quote = other.slice(other.indexOf('fail ['));
    expect([...index.find(bug('Kubelet reports deployer pod phase Failed', `Seen in CI (periodic-ci #2119659823690678284):\n\n${quote}\n\nstale phase`))]).toEqual(['kubelet']);
    // quoted as a reply, inside a comment
    expect([...index.find(bug('x', '', ['unrelated', quote.split('\n').map((l) => `> ${l}`).join('\n')]))]).toEqual(['kubelet']);
  });

  it('does not link a generic phrase or a paraphrase', () => {
    expect([...index.find(bug('e2e operations time out', 'Several tests fail with "timed out waiting for the condition" when the cluster is slow.'))]).toEqual([]);
    expect([...index.find(bug('deployer pod changed unexpectedly', 'the deployer pod changed unexpectedly in a run'))]).toEqual([]);
  });
});

describe('computeAutoLinks', () => {
  it('links thousands of tests and bugs exactly as constructed', () => {
    const tests = Array.from({ length: 5000 }, (_, i) => ({ hash: `t${i}`, name: `[sig-area${i % 37}] Component ${i} should handle case ${i * 7} [Suite:openshift/conformance/parallel]` }));
    const bugs = Array.from({ length: 2000 }, (_, i) => ({
      key: i,
      summary: i % 3 === 0 ? `${tests[i].name} flakes` : `Bug number ${i}`,
      description: i % 3 === 1 ? `Failing:\n${tests[i + 1].name}\n` : 'nothing to see',
      // a partial name (cut before the suite tag) must not link
      comments: i % 3 === 2 ? [`maybe ${tests[i + 2].name.slice(0, 40)}`] : [],
    }));
    const links = computeAutoLinks({ tests, signatures: [], bugs });
    const expected = bugs.flatMap((b) =>
      b.key % 3 === 0 ? [`${b.key} t${b.key} name-in-summary`] : b.key % 3 === 1 ? [`${b.key} t${b.key + 1} name-in-description`] : [],
    );
    expect(links.names.map((l) => `${l.bug} ${l.test} ${l.reason}`).sort()).toEqual(expected.sort());
  });
});

describe('key lines of signatures that keep coming', () => {
  it('find, taken in as they come, what they find taken in all at once', () => {
    const rand = lcg(3);
    const WORDS = 'reconcile controller volume attachment webhook admission route ingress etcd leader election quota namespace finalizer deployment rollout replica scheduler taint toleration kubelet eviction'.split(' ');
    const line = () => Array.from({ length: 7 }, () => WORDS[rand(WORDS.length)]).join(' ');
    // a line shared by many signatures (boilerplate: never a key) and lines of their own
    const texts = Array.from({ length: 600 }, (_, i) => signatureText(`STEP: waiting for the cluster operators to settle down completely\nfail [pkg/f${i % 7}.go:12]: ${line()}\n${line()}\n${line()}`));
    const incremental = new SignatureKeySelector<number>();
    const quotes = new SignatureQuoteIndex<number>([]);
    for (let from = 0; from < texts.length; from += 40) {
      texts.slice(from, from + 40).forEach((t, k) => incremental.add(from + k, t));
      quotes.setKeys(incremental.keyed());
    }
    const all = new SignatureKeySelector<number>();
    texts.forEach((t, i) => all.add(i, t));
    const fresh = new SignatureQuoteIndex(all.keyed());
    let linked = 0;
    for (let b = 0; b < 200; b++) {
      const quoted = texts[rand(texts.length)].split('\n')[1 + rand(3)];
      const text = bug('CI failure', `seen in a run:\n\n${quoted}\n\nand more`, [`STEP: waiting for the cluster operators to settle down completely`]);
      const found = [...quotes.find(text)].sort((x, y) => x - y);
      expect(found).toEqual([...fresh.find(text)].sort((x, y) => x - y));
      if (found.length) linked++;
    }
    expect(linked).toBeGreaterThan(150);
  });
});

describe('test names that keep coming', () => {
  it('give the key lines that all the names at once give, looking again only at the signatures that hold one', () => {
    const rand = lcg(5);
    const WORDS = 'reconcile controller volume attachment webhook admission route ingress etcd leader election quota namespace finalizer deployment rollout'.split(' ');
    const phrase = () => Array.from({ length: 6 }, () => WORDS[rand(WORDS.length)]).join(' ');
    const names = Array.from({ length: 60 }, (_, i) => `[sig-storage] ${phrase()} should keep working ${i} [Suite:openshift/conformance/parallel]`);
    // failure texts that quote test names in their lines (a name blanks out its words there)
    const texts = Array.from({ length: 300 }, (_, i) =>
      signatureText(`fail [pkg/f.go:12]: ${phrase()}\n${rand(2) ? `the check of ${names[rand(60)]} reported ${phrase()}` : phrase()}\nwhile ${names[rand(60)]} ran ${phrase()}`) + `\n${i}`,
    );
    const known = names.slice(0, 20);
    const later = names.slice(20);
    const incremental = new SignatureKeySelector<number>(known);
    texts.forEach((t, i) => incremental.add(i, t));
    const holdsNew = incremental.addTestNames(later);
    let lookedAgain = 0;
    texts.forEach((t, i) => {
      if (!holdsNew(t)) return;
      incremental.again(i, t);
      lookedAgain++;
    });
    const all = new SignatureKeySelector<number>(names);
    texts.forEach((t, i) => all.add(i, t));
    expect(lookedAgain).toBeGreaterThan(50);
    expect(lookedAgain).toBeLessThan(texts.length);
    expect([...incremental.keyed()]).toEqual([...all.keyed()]);
    // the names changed some signatures' key lines
    const before = new SignatureKeySelector<number>(known);
    texts.forEach((t, i) => before.add(i, t));
    expect([...before.keyed()]).not.toEqual([...all.keyed()]);
  });
});

describe('the letter runs of a bug text', () => {
  it('hold the key of every line the text holds, wherever it starts or ends, and tell most other lines apart', () => {
    const rand = lcg(9);
    const WORDS = 'reconcile controller volume attachment webhook admission route ingress etcd leader election quota namespace finalizer'.split(' ');
    const words = (n: number) => Array.from({ length: n }, () => WORDS[rand(WORDS.length)] + ['', '-', '.', ':'][rand(4)]).join(' ');
    const text = words(400);
    const runs = letterRunHashes([text.slice(0, 1000), text.slice(1000)]);
    for (let k = 0; k < 200; k++) {
      // any stretch of the text, cut anywhere (mid-word too), as findAll matches it
      const start = rand(text.length - 200);
      const line = text.slice(start, start + 40 + rand(120));
      if (start + line.length <= 1000 || start >= 1000) expect(holdsHash(runs, quoteRunKey(line)!), line).toBe(true);
    }
    const others = Array.from({ length: 100 }, () => `the ${words(3)} unexpectedly scheduled ${words(3)} twice`);
    expect(others.filter((l) => holdsHash(runs, quoteRunKey(l)!)).length).toBeLessThan(5);
    expect(quoteRunKey('ab cd')).toBeUndefined();
  });
});
