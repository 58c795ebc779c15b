// The run reader's worker thread: for each pass it is given, assembles the runs the main thread
// downloaded and sends them back in the order they came, a batch per message (lib/ingest/runReader.ts). Kept between passes.
import { parentPort } from 'node:worker_threads';
import type { StoredSignature } from '../analysis/signatures';
import type { Config } from '../config';
import type { RunFile } from './assemble';
import { RunAssembler, WireEncoder, type FetchedRun } from './runReader';

type Message =
  | { pass: number; begin: { config: Config; signatures: StoredSignature[] } }
  | { pass: number; end: true }
  | { pass: number; runs: { id: number; fetched: FetchedRun }[] };

let current: { pass: number; assembler: RunAssembler; encoder: WireEncoder } | undefined;

/** A Buffer again: a Buffer posted to a thread arrives as a plain Uint8Array. */
function asBuffer(f: RunFile): RunFile {
  return 'bytes' in f ? { path: f.path, bytes: Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength) } : f;
}

parentPort!.on('message', (m: Message) => {
  if ('begin' in m) {
    const assembler = new RunAssembler(m.begin.config, m.begin.signatures);
    current = { pass: m.pass, assembler, encoder: new WireEncoder(assembler.names) };
    parentPort!.postMessage({ pass: m.pass, ready: true });
  } else if ('end' in m) {
    if (current?.pass === m.pass) current = undefined;
  } else if (current?.pass === m.pass) {
    const { assembler, encoder } = current;
    const answers = m.runs.map(({ id, fetched }) => {
      const r = assembler.assemble({ ...fetched, files: fetched.files.map(asBuffer) });
      return r instanceof Error ? { id, error: r.message } : encoder.encode(id, r);
    });
    parentPort!.postMessage({ pass: m.pass, answers });
  }
});
