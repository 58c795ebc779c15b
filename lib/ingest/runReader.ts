// Reading runs: downloading a run's artifacts and assembling them into its record with the
// signatures of its failures. Downloads stay on the main thread (on a reader thread they made that
// thread the bottleneck); assembling runs either on a reader thread or inline. Runs are assembled in
// the order they are queued, so signature clustering (first text wins) is the same either way.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { SignatureIndex, type StoredSignature } from '../signatures/clustering';
import type { Config } from '../config';
import type { ParseProblem, ProwRun } from '../parse/types';
import { TestNames } from '../parse/testNames';
import { ignoreMatcher } from '../parse/variants';
import { GcsClient } from '../sources/gcs';
import type { HttpClient } from '../sources/http';
import { assembleRun, type ListedObject, type RunFile, type RunRecord } from './assemble';
import { DEFAULT_MAX_FILE_BYTES, fetchRun, httpClientFor, type FetchedRun } from './run';
import { packFetched, WireDecoder, type WireRun } from './runWire';
import { bundledWorker } from '../workerBundle';
import { runSearchText } from '../search/runText';
import { GramCollector } from '../store/searchGrams';
import type { AssembledRun } from '../store/runs';


export type { AssembledRun } from '../store/runs';
export type { FetchedRun } from './run';

export interface RunReader {
  readonly kind: 'worker thread' | 'main thread';
  /** the clustering index is the one the reading thread's last pass left (else built for this pass) */
  readonly indexKept: boolean;
  /** Queues a run. An Error result means it could not be read (it is retried by a later pass). */
  read(run: ProwRun): Promise<AssembledRun | Error>;
  close(): Promise<void>;
}

/** The stored signatures a pass starts from: their digest (SignatureIndex.digest), and how to read them. */
export interface SignatureSeed {
  digest: string;
  /** in creation order; read only when the reading thread has no index with this digest */
  load(): Promise<StoredSignature[]>;
}

export interface RunReaderOptions {
  config: Config;
  /** the stored signatures, to seed clustering */
  signatures: SignatureSeed;
  /** the pass's HTTP client (else the reader makes its own from the configuration) */
  http?: HttpClient;
  /** more passes follow in this process (see createRunReader) */
  morePasses?: boolean;
}

/** Assembles fetched runs one at a time, in the order given, clustering their failures (on either thread). */
export class RunAssembler {
  /** the test names of the pass: results name their tests by these strings */
  readonly names = new TestNames();
  private readonly isWrapper: (name: string) => boolean;
  private readonly grams = new GramCollector();

  constructor(config: Config, readonly index: SignatureIndex) {
    this.isWrapper = ignoreMatcher(config.ignoreTests);
  }

  /**
   * Wrapper tests (ci-operator steps that only mirror other results, see DEFAULT_IGNORE_TESTS) get no
   * signature: their "failure text" is a list of the other tests' failures, not a cause, and long and
   * unique every time.
   */
  assemble(f: FetchedRun): AssembledRun | Error {
    try {
      const record = assembleRun(f.run, f.gcsPath, f.files, f.listing, f.problems, this.names);
      const signatures = record.results.map((r) => {
        if ((r.outcome !== 'failed' && r.outcome !== 'flaked') || !r.message || this.isWrapper(r.name)) return null;
        const s = this.index.assign(r.message);
        return { hash: s.hash, text: s.text };
      });
      return { record, signatures, search: runSearchText(f.files, record.results, this.grams) };
    } catch (e) {
      return new Error(`assembling failed: ${(e as Error).message}`);
    }
  }
}

/**
 * The clustering index this thread's last pass left. The next pass takes it when it holds exactly
 * the stored signatures (equal digests): with 50,000 signatures, building one took 0.33-0.53 s and
 * reading their texts 0.15-0.26 s, every pass of `ingest --interval`. A pass holds it while in use, so
 * a concurrent one builds its own.
 */
let idleIndex: SignatureIndex | undefined;

/** The index the last pass left if its digest is this one (else undefined, and it is dropped). */
export function takeIdleIndex(digest: string): SignatureIndex | undefined {
  const index = idleIndex;
  idleIndex = undefined;
  return index?.digest() === digest ? index : undefined;
}

/** Leaves a pass's index for the next pass on this thread (see takeIdleIndex). */
export function leaveIndex(index: SignatureIndex): void {
  idleIndex = index;
}

/** Downloads runs with the pass's HTTP client (several runs at once); a fetch error is the run's result. */
class RunFetcher {
  private readonly gcs: GcsClient | undefined;
  private readonly maxFileBytes: number;
  private readonly http: HttpClient;

  /** `http`: a client to share (left open by close); else one of its own from the configuration */
  constructor(config: Config, private readonly shared?: HttpClient) {
    this.http = shared ?? httpClientFor(config);
    this.gcs = config.gcs ? new GcsClient(this.http, config.gcs.url) : undefined;
    this.maxFileBytes = config.ingest?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  fetch(run: ProwRun): Promise<FetchedRun | Error> {
    return fetchRun(this.gcs, run, this.maxFileBytes).catch((e: Error) => e);
  }

  close(): void {
    if (!this.shared) this.http.close();
  }
}

/** Downloads runs (several at once) and assembles them one at a time, in queue order, on this thread. */
class InlineRunReader implements RunReader {
  readonly kind = 'main thread' as const;
  private readonly fetcher: RunFetcher;
  private readonly assembler: RunAssembler;
  private queued: Promise<unknown> = Promise.resolve();

  private constructor(config: Config, index: SignatureIndex, readonly indexKept: boolean, http?: HttpClient) {
    this.fetcher = new RunFetcher(config, http);
    this.assembler = new RunAssembler(config, index);
  }

  static async create(config: Config, signatures: SignatureSeed, http?: HttpClient): Promise<InlineRunReader> {
    const kept = takeIdleIndex(signatures.digest);
    return new InlineRunReader(config, kept ?? new SignatureIndex(await signatures.load()), !!kept, http);
  }

  read(run: ProwRun): Promise<AssembledRun | Error> {
    const fetched = this.fetcher.fetch(run);
    const result = this.queued.then(() => fetched).then((f) => (f instanceof Error ? f : this.assembler.assemble(f)));
    this.queued = result;
    return result;
  }

  async close(): Promise<void> {
    this.fetcher.close();
    leaveIndex(this.assembler.index);
  }
}

/**
 * The reader thread is kept between passes (idle, not keeping the process alive), so the passes of
 * a long-running `ingest --interval` run warm code instead of starting a cold thread each time.
 * Each pass begins with its own number, configuration and signatures; messages of another pass
 * are ignored on both sides.
 */
class WorkerRunReader implements RunReader {
  readonly kind = 'worker thread' as const;
  private next = 0;
  private queued: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<number, (r: AssembledRun | Error) => void>();
  private readonly decoder = new WireDecoder();
  private failed: Error | undefined;
  /** runs to send when the thread is next idle (see send) */
  private outbox: { id: number; fetched: FetchedRun }[] = [];
  /** runs sent and not answered yet */
  private atThread = 0;
  private readonly onMessage = (m: { pass: number; answers: WireRun[] }) => {
    if (m.pass !== this.pass) return;
    this.atThread -= m.answers.length;
    if (this.atThread === 0) this.flush();
    for (const a of m.answers) {
      const done = this.waiting.get(a.id);
      this.waiting.delete(a.id);
      // decoded even when nobody waits, to keep the name numbering in step
      done?.(a.error !== undefined ? new Error(a.error) : this.decoder.decode(a));
    }
  };
  private readonly onFailure = (e: Error | number) => {
    this.failed = typeof e === 'number' ? new Error(`the run reader thread exited with code ${e}`) : e;
    for (const done of this.waiting.values()) done(this.failed);
    this.waiting.clear();
  };

  constructor(
    private readonly worker: Worker,
    private readonly pass: number,
    private readonly fetcher: RunFetcher,
    readonly indexKept: boolean,
  ) {
    worker.on('message', this.onMessage);
    worker.on('error', this.onFailure);
    worker.on('exit', this.onFailure);
    worker.ref();
  }

  read(run: ProwRun): Promise<AssembledRun | Error> {
    const fetched = this.fetcher.fetch(run);
    // Sent in queue order (the thread clusters failures in the order runs come), but without waiting
    // for the answer to the run before: the answer is wrapped so that the chain does not await it.
    const sent = this.queued.then(() => fetched).then((f) => ({ answer: f instanceof Error ? f : this.send(f) }));
    this.queued = sent;
    return sent.then((s) => s.answer);
  }

  /**
   * Runs go to the thread when it is idle: all those downloaded meanwhile in one message, answered
   * in one. Waking the other thread makes a message cost about 0.1 ms on each side; a message per run
   * was a tenth of the pass.
   */
  private send(fetched: FetchedRun): Promise<AssembledRun | Error> | Error {
    if (this.failed) return this.failed;
    const id = this.next++;
    // the end of this turn of the event loop: runs downloaded in the same turn go together
    if (!this.outbox.length && this.atThread === 0) setImmediate(this.flush);
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.outbox.push({ id, fetched });
    });
  }

  private readonly flush = () => {
    const runs = this.outbox;
    if (!runs.length || this.atThread > 0 || this.failed) return;
    this.outbox = [];
    this.atThread = runs.length;
    const wire = packFetched(runs);
    this.worker.postMessage({ pass: this.pass, ...wire }, [wire.bytes]);
  };

  async close(): Promise<void> {
    this.fetcher.close();
    this.worker.off('message', this.onMessage).off('error', this.onFailure).off('exit', this.onFailure);
    if (this.failed) return;
    this.worker.postMessage({ pass: this.pass, end: true });
    this.worker.unref();
    idle.add(this.worker);
  }
}

/** Reader threads between passes (a thread that fails leaves it: see startWorker). */
const idle = new Set<Worker>();
let passes = 0;

async function startWorker(): Promise<Worker> {
  const worker = new Worker(await workerScript());
  worker.unref();
  worker.on('error', () => idle.delete(worker));
  worker.on('exit', () => idle.delete(worker));
  return worker;
}

/** The reader thread's code, bundled at first use (see lib/workerBundle.ts). */
const workerScript = () => bundledWorker('lib/ingest/runReaderWorkerMain.ts', 'run-reader-worker');

/** Cores from which the reader thread is the default where more passes follow (see createRunReader). */
export const READER_THREAD_MIN_CORES = 3;

/**
 * A run reader that assembles on a worker thread, or inline. `ingest.workers` decides when given; by
 * default the thread is used when more passes follow in this process and the machine has cores to
 * spare (more than two). The thread costs CPU of its own (packing, posting and decoding runs, its own
 * heap and compiled code); on 2 cores shared with the replay server, inline measured faster, warm
 * (median 0.91 s a pass against 0.95 s, alternating in one process) and above all on a process's
 * first pass (1.1-1.3 s against 1.7 s). Inline too when the thread cannot be started.
 */
export async function createRunReader(opts: RunReaderOptions): Promise<RunReader> {
  const workers = opts.config.ingest?.workers ?? (opts.morePasses && os.availableParallelism() >= READER_THREAD_MIN_CORES ? 1 : 0);
  if (workers < 1) return InlineRunReader.create(opts.config, opts.signatures, opts.http);
  let started: { worker: Worker; pass: number; indexKept: boolean };
  try {
    started = await beginPass(opts);
  } catch {
    return InlineRunReader.create(opts.config, opts.signatures, opts.http);
  }
  return new WorkerRunReader(started.worker, started.pass, new RunFetcher(opts.config, opts.http), started.indexKept);
}

/** What the reader thread answers a pass's begin message (see runReaderWorkerMain.ts). */
export type BeginAnswer = { pass: number; ready: true; indexKept: boolean } | { pass: number; needSignatures: true };

/**
 * Starts a pass on an idle reader thread (or a new one): its configuration and the digest of the
 * stored signatures go first; their texts only when the thread has no index with that digest.
 */
async function beginPass(opts: RunReaderOptions): Promise<{ worker: Worker; pass: number; indexKept: boolean }> {
  let worker = idle.values().next().value as Worker | undefined;
  if (worker) idle.delete(worker);
  else worker = await startWorker();
  const pass = ++passes;
  const w = worker;
  const begin = (signatures?: StoredSignature[]) =>
    new Promise<BeginAnswer>((resolve, reject) => {
      const gone = (code: number) => reject(new Error(`the run reader thread exited with code ${code}`));
      const onMessage = (m: Partial<BeginAnswer>) => {
        if (m.pass !== pass || !('ready' in m || 'needSignatures' in m)) return;
        w.off('message', onMessage).off('error', reject).off('exit', gone);
        resolve(m as BeginAnswer);
      };
      w.on('message', onMessage).once('error', reject).once('exit', gone);
      w.postMessage({ pass, begin: { config: opts.config, digest: opts.signatures.digest, signatures } });
    });
  let answer = await begin();
  if ('needSignatures' in answer) {
    let signatures: StoredSignature[];
    try {
      signatures = await opts.signatures.load();
    } catch (e) {
      idle.add(w); // the database failed, not the thread: it waits for the next pass's begin
      throw e;
    }
    answer = await begin(signatures);
  }
  return { worker, pass, indexKept: 'ready' in answer && answer.indexKept };
}
