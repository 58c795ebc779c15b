// The assembler's worker thread: one SignatureIndex, requests answered in the order they come.
import { parentPort, workerData } from 'node:worker_threads';
import { SignatureIndex, type StoredSignature } from '../analysis/signatures';
import { ignoreMatcher } from '../parse/variants';
import { assembleWithSignatures, type FetchedRun } from './assembler';

const data = workerData as { signatures: StoredSignature[]; ignoreTests?: string[] };
const index = new SignatureIndex(data.signatures);
const isWrapper = ignoreMatcher(data.ignoreTests);

parentPort!.on('message', (m: { id: number; fetched: FetchedRun }) => {
  try {
    // Buffers arrive as plain Uint8Arrays after structured cloning
    for (const f of m.fetched.files) if ('bytes' in f) f.bytes = Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength);
    parentPort!.postMessage({ id: m.id, result: assembleWithSignatures(index, m.fetched, isWrapper) });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).stack ?? String(e) });
  }
});
parentPort!.postMessage({ ready: true });
