// What the run reader's worker thread sends back: runs numbered-name encoded and decoded again are
// the runs that were assembled, whatever names repeat or first appear across messages.
import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { signatureOrderDigest } from '../../lib/signatures/clustering';
import { createRunReader, READER_THREAD_MIN_CORES, type AssembledRun } from '../../lib/ingest/runReader';
import { packFetched, unpackFetched, WireDecoder, WireEncoder } from '../../lib/ingest/runWire';
import { TestNames } from '../../lib/parse/testNames';
import type { TestResult } from '../../lib/parse/types';

function assembled(buildId: string, results: TestResult[]): AssembledRun {
  const record = {
    job: 'periodic-ci-x-e2e-aws', buildId, type: 'periodic', state: 'failure' as const, started: 1, finished: 2, url: 'u', gcsPath: 'gs://b/p', pull: null,
    baseRef: 'main', commitSha: '', payload: '', results, installFailed: false, problems: [{ file: 'f', message: 'm' }], meta: { a: 1 }, incomplete: false, fingerprint: 'x',
  };
  const signatures = results.map((r) => (r.outcome === 'failed' ? { hash: `h-${r.name}`, text: r.message } : null));
  // what search keeps: a log's compressed bytes arrive as a Buffer again, trigram codes as they were
  const search = { logs: [{ path: 'build-log.txt', body: Buffer.from(`log of ${buildId}`), size: 10, tailStart: 0 }], logGrams: Int32Array.of(1, 2), failureGrams: new Int32Array(0) };
  return { record, signatures, search };
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
    const back = dec.decode(structuredClone(m2));
    expect(back).toEqual(second);
    expect(Buffer.isBuffer(back.search.logs[0].body)).toBe(true);
  });

  it('sends downloaded runs as one text and one buffer, and gets back the same runs', () => {
    const pooled = Buffer.from('{"timestamp": 1}'); // a view into Node's shared pool
    const own = Buffer.allocUnsafeSlow(5).fill('x');
    const runs = [
      { id: 7, fetched: { run: { job: 'j', buildId: '1', type: 'periodic', state: 'failure' as const, started: 1, url: 'u' }, gcsPath: 'gs://b/1', listing: [{ path: 'started.json', size: 16, version: 'v' }], problems: [], files: [{ path: 'started.json', bytes: pooled }, { path: 'build-log.txt', error: 'HTTP 503' }, { path: 'x', bytes: own }, { path: 'empty', bytes: Buffer.alloc(0) }] } },
      { id: 8, fetched: { run: { job: 'j', buildId: '2', type: 'periodic', state: 'success' as const, started: 2, url: 'u2' }, gcsPath: 'gs://b/2', listing: [], problems: [{ file: 'f', message: 'm' }], files: [{ path: 'é.xml', bytes: Buffer.from('<a/>') }] } },
    ];
    const wire = packFetched(runs);
    expect(wire.bytes.byteLength).toBe(16 + 5 + 4);
    // posting clones the text and moves the buffer; structuredClone does the same
    const back = unpackFetched(structuredClone(wire, { transfer: [wire.bytes] }));
    expect(back).toEqual(runs);
    expect(Buffer.isBuffer((back[0].fetched.files[0] as { bytes: Buffer }).bytes)).toBe(true);
  });
});

describe('where runs are assembled by default', () => {
  it('on a reader thread only when more passes follow and cores are to spare; as configured otherwise', async () => {
    const config = { prow: { url: 'http://127.0.0.1:9' } };
    const kinds = [];
    for (const [morePasses, workers] of [[false, undefined], [true, undefined], [true, 0], [false, 1]] as const) {
      const reader = await createRunReader({ config: { ...config, ...(workers === undefined ? {} : { ingest: { workers } }) }, signatures: { digest: signatureOrderDigest([]), load: async () => [] }, morePasses });
      kinds.push(reader.kind);
      await reader.close();
    }
    expect(kinds).toEqual(['main thread', os.availableParallelism() >= READER_THREAD_MIN_CORES ? 'worker thread' : 'main thread', 'main thread', 'worker thread']);
  });
});
