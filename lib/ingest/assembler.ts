// Turning a run's downloaded files into its record and the signatures of its failures: the CPU
// part of ingest. It runs on a worker thread (one, fed in start order, so signature clustering is
// exactly what it would be inline) while the main thread downloads and writes; or inline.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { SignatureIndex, type StoredSignature } from '../analysis/signatures';
import type { ParseProblem, ProwRun } from '../parse/types';
import { ignoreMatcher } from '../parse/variants';
import { assembleRun, type ListedObject, type RunFile, type RunRecord } from './assemble';

/** A run's files as downloaded, before parsing. */
export interface FetchedRun {
  run: ProwRun;
  gcsPath: string;
  files: RunFile[];
  listing: ListedObject[];
  problems: ParseProblem[];
}

export interface AssembledRun {
  record: RunRecord;
  /** per result (same order): the signature of its failure text, or null */
  signatures: ({ hash: string; text: string } | null)[];
}

export interface Assembler {
  readonly kind: 'worker thread' | 'main thread';
  /** Queues a run; runs are assembled in the order they are queued. */
  assemble(f: FetchedRun): Promise<AssembledRun>;
  close(): Promise<void>;
}

/**
 * Assembles a run and clusters its failures. Wrapper tests (ci-operator steps that only mirror other
 * results, see DEFAULT_IGNORE_TESTS) get no signature: their "failure text" is a list of the other
 * tests' failures, not a cause, and long and unique every time.
 */
export function assembleWithSignatures(index: SignatureIndex, f: FetchedRun, isWrapper: (name: string) => boolean): AssembledRun {
  const record = assembleRun(f.run, f.gcsPath, f.files, f.listing, f.problems);
  const signatures = record.results.map((r) => {
    if ((r.outcome !== 'failed' && r.outcome !== 'flaked') || !r.message || isWrapper(r.name)) return null;
    const s = index.assign(r.message);
    return { hash: s.hash, text: s.text };
  });
  return { record, signatures };
}

class InlineAssembler implements Assembler {
  readonly kind = 'main thread' as const;
  private index: SignatureIndex;
  private isWrapper: (name: string) => boolean;
  constructor(signatures: StoredSignature[], ignoreTests: string[] | undefined) {
    this.index = new SignatureIndex(signatures);
    this.isWrapper = ignoreMatcher(ignoreTests);
  }
  async assemble(f: FetchedRun): Promise<AssembledRun> {
    return assembleWithSignatures(this.index, f, this.isWrapper);
  }
  async close(): Promise<void> {}
}

class WorkerAssembler implements Assembler {
  readonly kind = 'worker thread' as const;
  private next = 0;
  private waiting = new Map<number, { resolve: (a: AssembledRun) => void; reject: (e: Error) => void }>();
  private failed: Error | undefined;

  constructor(private worker: Worker) {
    worker.on('message', (m: { id: number; result?: AssembledRun; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.result!);
    });
    const fail = (e: Error) => {
      this.failed = e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => code !== 0 && fail(new Error(`the assembler worker exited with code ${code}`)));
  }

  assemble(f: FetchedRun): Promise<AssembledRun> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, fetched: f });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * A worker-thread assembler where the machine has cores to spare, else inline (`workers` decides
 * when given); inline too when a worker cannot be started. Measured on a 2-core machine with the
 * replay server on the same machine, the worker gained nothing (every core was busy), hence the
 * default: a worker from 3 cores up.
 */
export async function createAssembler(
  signatures: StoredSignature[],
  opts: { workers?: number; ignoreTests?: string[] } = {},
): Promise<Assembler> {
  const workers = opts.workers ?? (os.availableParallelism() > 2 ? 1 : 0);
  if (workers < 1) return new InlineAssembler(signatures, opts.ignoreTests);
  try {
    const worker = new Worker(new URL('./assemblerWorker.mjs', import.meta.url), { workerData: { signatures, ignoreTests: opts.ignoreTests } });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', (m: { ready?: boolean }) => (m.ready ? resolve() : reject(new Error('unexpected first message'))));
      worker.once('error', reject);
    });
    return new WorkerAssembler(worker);
  } catch {
    return new InlineAssembler(signatures, opts.ignoreTests);
  }
}
