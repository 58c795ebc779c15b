// The run reader's worker thread: for each pass it is given, assembles the runs the main thread
// downloaded and sends them back in the order they came, a message's runs in one answer
// (lib/ingest/runReader.ts, lib/ingest/runWire.ts). Kept between passes.
import { parentPort } from 'node:worker_threads';
import type { StoredSignature } from '../analysis/signatures';
import type { Config } from '../config';
import { RunAssembler } from './runReader';
import { unpackFetched, WireEncoder, type WireFetched } from './runWire';

type Message =
  | { pass: number; begin: { config: Config; signatures: StoredSignature[] } }
  | { pass: number; end: true }
  | ({ pass: number } & WireFetched);

let current: { pass: number; assembler: RunAssembler; encoder: WireEncoder } | undefined;

parentPort!.on('message', (m: Message) => {
  if ('begin' in m) {
    const assembler = new RunAssembler(m.begin.config, m.begin.signatures);
    current = { pass: m.pass, assembler, encoder: new WireEncoder(assembler.names) };
    parentPort!.postMessage({ pass: m.pass, ready: true });
  } else if ('end' in m) {
    if (current?.pass === m.pass) current = undefined;
  } else if (current?.pass === m.pass) {
    const { assembler, encoder } = current;
    const answers = unpackFetched(m).map(({ id, fetched }) => {
      const r = assembler.assemble(fetched);
      return r instanceof Error ? { id, error: r.message } : encoder.encode(id, r);
    });
    parentPort!.postMessage({ pass: m.pass, answers });
  }
});
