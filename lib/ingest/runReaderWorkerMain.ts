// The run reader's worker thread: for each pass it is given, assembles the runs the main thread
// downloaded and sends them back in the order they came, a message's runs in one answer
// (lib/ingest/runReader.ts, lib/ingest/runWire.ts). Kept between passes.
import { parentPort } from 'node:worker_threads';
import { SignatureIndex, type StoredSignature } from '../signatures/clustering';
import type { Config } from '../config';
import { leaveIndex, RunAssembler, takeIdleIndex, type BeginAnswer } from './runReader';
import { unpackFetched, WireEncoder, type WireFetched } from './runWire';

type Message =
  // `signatures` only when the thread answered that it needs them
  | { pass: number; begin: { config: Config; digest: string; signatures?: StoredSignature[] } }
  | { pass: number; end: true }
  | ({ pass: number } & WireFetched);

let current: { pass: number; assembler: RunAssembler; encoder: WireEncoder } | undefined;

parentPort!.on('message', (m: Message) => {
  if ('begin' in m) {
    const { config, digest, signatures } = m.begin;
    const kept = takeIdleIndex(digest);
    if (!kept && !signatures) {
      parentPort!.postMessage({ pass: m.pass, needSignatures: true } satisfies BeginAnswer);
      return;
    }
    const assembler = new RunAssembler(config, kept ?? new SignatureIndex(signatures));
    current = { pass: m.pass, assembler, encoder: new WireEncoder(assembler.names) };
    parentPort!.postMessage({ pass: m.pass, ready: true, indexKept: !!kept } satisfies BeginAnswer);
  } else if ('end' in m) {
    if (current?.pass === m.pass) {
      leaveIndex(current.assembler.index);
      current = undefined;
    }
  } else if (current?.pass === m.pass) {
    const { assembler, encoder } = current;
    const answers = unpackFetched(m).map(({ id, fetched }) => {
      const r = assembler.assemble(fetched);
      return r instanceof Error ? { id, error: r.message } : encoder.encode(id, r);
    });
    parentPort!.postMessage({ pass: m.pass, answers });
  }
});
