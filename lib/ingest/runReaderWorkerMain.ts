// The run reader's worker thread: for each pass it is given, downloads and assembles the runs it is
// sent and answers in the order they came (lib/ingest/runReader.ts). Kept between passes.
import { parentPort } from 'node:worker_threads';
import type { StoredSignature } from '../analysis/signatures';
import type { Config } from '../config';
import type { ProwRun } from '../parse/types';
import { InlineRunReader, WireEncoder } from './runReader';

type Message =
  | { pass: number; begin: { config: Config; signatures: StoredSignature[] } }
  | { pass: number; end: true }
  | { pass: number; id: number; run: ProwRun };

let current: { pass: number; reader: InlineRunReader; encoder: WireEncoder } | undefined;

parentPort!.on('message', (m: Message) => {
  if ('begin' in m) {
    void current?.reader.close();
    current = { pass: m.pass, reader: new InlineRunReader(m.begin.config, m.begin.signatures), encoder: new WireEncoder() };
    parentPort!.postMessage({ pass: m.pass, ready: true });
  } else if ('end' in m) {
    if (current?.pass === m.pass) {
      void current.reader.close();
      current = undefined;
    }
  } else if (current?.pass === m.pass) {
    // answers go out with the pass (and encoder) they were asked in
    const { pass, reader, encoder } = current;
    void reader.read(m.run).then((r) => {
      if (r instanceof Error) parentPort!.postMessage({ pass, id: m.id, error: r.message });
      else parentPort!.postMessage({ pass, ...encoder.encode(m.id, r) });
    });
  }
});
