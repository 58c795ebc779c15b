// The run reader's worker thread: downloads and assembles the runs it is sent, and answers in the
// order they came (lib/ingest/runReader.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { StoredSignature } from '../analysis/signatures';
import type { Config } from '../config';
import type { ProwRun } from '../parse/types';
import { InlineRunReader, WireEncoder } from './runReader';

const data = workerData as { config: Config; signatures: StoredSignature[] };
const reader = new InlineRunReader(data.config, data.signatures);
const encoder = new WireEncoder();

parentPort!.on('message', (m: { id: number; run: ProwRun }) => {
  void reader.read(m.run).then((r) => {
    if (r instanceof Error) parentPort!.postMessage({ id: m.id, error: r.message });
    else parentPort!.postMessage(encoder.encode(m.id, r));
  });
});
parentPort!.postMessage({ ready: true });
