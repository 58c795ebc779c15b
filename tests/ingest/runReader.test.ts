// What the run reader's worker thread sends back: runs numbered-name encoded and decoded again are
// the runs that were assembled, whatever names repeat or first appear across messages.
import { describe, expect, it } from 'vitest';
import { WireDecoder, WireEncoder, type AssembledRun } from '../../lib/ingest/runReader';
import { TestNames } from '../../lib/parse/testNames';
import type { TestResult } from '../../lib/parse/types';

function assembled(buildId: string, results: TestResult[]): AssembledRun {
  const record = {
    job: 'periodic-ci-x-e2e-aws', buildId, type: 'periodic', state: 'failure' as const, started: 1, finished: 2, url: 'u', gcsPath: 'gs://b/p', pull: null,
    baseRef: 'main', commitSha: '', payload: '', results, installFailed: false, problems: [{ file: 'f', message: 'm' }], meta: { a: 1 }, incomplete: false, fingerprint: 'x',
  };
  const signatures = results.map((r) => (r.outcome === 'failed' ? { hash: `h-${r.name}`, text: r.message } : null));
  return { record, signatures };
}

describe('run reader wire format', () => {
  it('round-trips runs, numbering each name once across messages', () => {
    const first = assembled('1', [
      { name: 'a', outcome: 'passed', message: '' },
      { name: 'b "quoted" \u00e9', outcome: 'failed', message: 'fail [x.go:1]: boom' },
      { name: 'c', outcome: 'skipped', message: '' },
    ]);
    const second = assembled('2', [
      { name: 'c', outcome: 'flaked', message: 'flake text' },
      { name: 'd', outcome: 'passed', message: '' },
      { name: 'a', outcome: 'failed', message: 'other' },
    ]);
    const enc = new WireEncoder(new TestNames());
    const dec = new WireDecoder();
    const m1 = enc.encode(0, first);
    const m2 = enc.encode(1, second);
    expect(m1.newNames).toEqual(['a', 'b "quoted" \u00e9', 'c']);
    expect(m2.newNames).toEqual(['d']);
    // structured cloning, as postMessage does
    expect(dec.decode(structuredClone(m1))).toEqual(first);
    expect(dec.decode(structuredClone(m2))).toEqual(second);
  });
});
