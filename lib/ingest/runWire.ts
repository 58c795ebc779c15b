// What goes between the main thread and the run reader thread (lib/ingest/runReader.ts), in both
// directions, in forms that are cheap to post: a thread message costs what cloning its contents costs.
import type { TestNames } from '../parse/testNames';
import type { TestResult } from '../parse/types';
import type { RunFile, RunRecord } from './assemble';
import type { AssembledRun } from '../store/runs';
import type { FetchedRun } from './run';
import type { RunSearchText } from '../store/searchIndex';

/**
 * Main → thread: the downloaded runs of a message. Their metadata go as one JSON text (cloning the
 * objects cost about 20 µs a run; a string is copied whole), and their files' bytes one after the
 * other in one buffer moved to the thread (moving costs about 12 µs a buffer; copying them into one
 * costs less).
 */
export interface WireFetched {
  runs: string;
  bytes: ArrayBuffer;
}

type FileMeta = { path: string; size: number } | { path: string; error: string; overCap?: boolean };

export function packFetched(runs: { id: number; fetched: FetchedRun }[]): WireFetched {
  let size = 0;
  for (const { fetched } of runs) for (const f of fetched.files) if ('bytes' in f) size += f.bytes.length;
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = 0;
  const meta = runs.map(({ id, fetched: { files, ...rest } }) => ({
    id,
    ...rest,
    files: files.map((f): FileMeta => {
      if (!('bytes' in f)) return f;
      at += f.bytes.copy(bytes, at);
      return { path: f.path, size: f.bytes.length };
    }),
  }));
  return { runs: JSON.stringify(meta), bytes: bytes.buffer as ArrayBuffer };
}

export function unpackFetched(w: WireFetched): { id: number; fetched: FetchedRun }[] {
  let at = 0;
  const meta = JSON.parse(w.runs) as (Omit<FetchedRun, 'files'> & { id: number; files: FileMeta[] })[];
  return meta.map(({ id, files, ...rest }) => ({
    id,
    fetched: {
      ...rest,
      files: files.map((f): RunFile => {
        if ('error' in f) return f;
        at += f.size;
        return { path: f.path, bytes: Buffer.from(w.bytes, at - f.size, f.size) };
      }),
    },
  }));
}

// Thread → main: each run goes back compactly: test names are numbered once per pass (most runs of a
// job repeat the same few thousand names), outcomes are bytes, and only failures carry text. Sending
// whole records cost more main-thread time than parsing them did.
const OUTCOMES: TestResult['outcome'][] = ['passed', 'failed', 'flaked', 'skipped'];
const OUTCOME_INDEX = new Map(OUTCOMES.map((o, i) => [o, i]));

export interface WireRun {
  id: number;
  error?: string;
  record?: Omit<RunRecord, 'results'>;
  /** the names numbered since the previous message (in order, after the ones sent before) */
  newNames?: string[];
  names?: Int32Array;
  outcomes?: Uint8Array;
  /** results with failure text: [result index, message, signature] */
  notes?: [number, string, { hash: string; text: string } | null][];
  search?: RunSearchText;
}

/** Worker side: sends names by their numbers in the pass's TestNames, each new name once. */
export class WireEncoder {
  private sent = 0;

  constructor(private readonly names: TestNames) {}

  encode(id: number, a: AssembledRun): WireRun {
    const { results, ...record } = a.record;
    const names = new Int32Array(results.length);
    const outcomes = new Uint8Array(results.length);
    const notes: WireRun['notes'] = [];
    for (let i = 0; i < results.length; i++) {
      const r = results[i];
      names[i] = this.names.number(r.name);
      outcomes[i] = OUTCOME_INDEX.get(r.outcome)!;
      if (r.message || a.signatures[i]) notes.push([i, r.message, a.signatures[i]]);
    }
    // every name numbered since the last message, used by this run or not (the numbering must match)
    const newNames = this.names.names.slice(this.sent);
    this.sent = this.names.names.length;
    return { id, record, newNames, names, outcomes, notes, search: a.search };
  }
}

/** Main-thread side: the mirror of WireEncoder's numbering (messages arrive in order). */
export class WireDecoder {
  private readonly names: string[] = [];

  decode(m: WireRun): AssembledRun {
    for (const name of m.newNames!) this.names.push(name); // not push(...): a first message may bring tens of thousands
    const n = m.names!.length;
    const results: TestResult[] = new Array(n);
    for (let i = 0; i < n; i++) results[i] = { name: this.names[m.names![i]], outcome: OUTCOMES[m.outcomes![i]], message: '' };
    const signatures: AssembledRun['signatures'] = new Array(n).fill(null);
    for (const [i, message, sig] of m.notes!) {
      results[i].message = message;
      signatures[i] = sig;
    }
    // a Buffer arrives as a Uint8Array
    const search = m.search!;
    for (const l of search.logs) l.body = Buffer.from(l.body.buffer, l.body.byteOffset, l.body.length);
    return { record: { ...m.record!, results }, signatures, search };
  }
}

