// Reading runs: downloading a run's artifacts and assembling them into its record with the
// signatures of its failures. The CPU and network side of ingest, done either on a worker thread
// (so that the main thread only writes to the database) or inline. Runs are assembled in the order
// they are queued, so signature clustering (first text wins) is the same either way.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SignatureIndex, type StoredSignature } from '../analysis/signatures';
import type { Config } from '../config';
import type { ParseProblem, ProwRun, TestResult } from '../parse/types';
import { ignoreMatcher } from '../parse/variants';
import { GcsClient } from '../sources/gcs';
import type { HttpClient } from '../sources/http';
import { assembleRun, type ListedObject, type RunFile, type RunRecord } from './assemble';
import { DEFAULT_MAX_FILE_BYTES, fetchRun, httpClientFor } from './run';

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

export interface RunReader {
  readonly kind: 'worker thread' | 'main thread';
  /** Queues a run. An Error result means it could not be read (it is retried by a later pass). */
  read(run: ProwRun): Promise<AssembledRun | Error>;
  close(): Promise<void>;
}

export interface RunReaderOptions {
  config: Config;
  /** the stored signatures in creation order, to seed clustering */
  signatures: StoredSignature[];
  /** the pass's HTTP client, used when reading on the main thread (a worker has its own) */
  http?: HttpClient;
}

/**
 * Assembles a run and clusters its failures. Wrapper tests (ci-operator steps that only mirror other
 * results, see DEFAULT_IGNORE_TESTS) get no signature: their "failure text" is a list of the other
 * tests' failures, not a cause, and long and unique every time.
 */
function assembleWithSignatures(index: SignatureIndex, f: FetchedRun, isWrapper: (name: string) => boolean): AssembledRun {
  const record = assembleRun(f.run, f.gcsPath, f.files, f.listing, f.problems);
  const signatures = record.results.map((r) => {
    if ((r.outcome !== 'failed' && r.outcome !== 'flaked') || !r.message || isWrapper(r.name)) return null;
    const s = index.assign(r.message);
    return { hash: s.hash, text: s.text };
  });
  return { record, signatures };
}

/** Downloads runs (several at once) and assembles them one at a time, in queue order. */
export class InlineRunReader implements RunReader {
  readonly kind = 'main thread' as const;
  private readonly gcs: GcsClient | undefined;
  private readonly http: HttpClient;
  private readonly index: SignatureIndex;
  private readonly isWrapper: (name: string) => boolean;
  private readonly maxFileBytes: number;
  private queued: Promise<unknown> = Promise.resolve();

  /** `http`: a client to share (left open by close); else one of its own from the configuration */
  constructor(config: Config, signatures: StoredSignature[], private readonly shared?: HttpClient) {
    this.http = shared ?? httpClientFor(config);
    this.gcs = config.gcs ? new GcsClient(this.http, config.gcs.url) : undefined;
    this.maxFileBytes = config.ingest?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.index = new SignatureIndex(signatures);
    this.isWrapper = ignoreMatcher(config.ignoreTests);
  }

  read(run: ProwRun): Promise<AssembledRun | Error> {
    const fetched = fetchRun(this.gcs, run, this.maxFileBytes).catch((e: Error) => e);
    const result = this.queued
      .then(() => fetched)
      .then((f) => {
        if (f instanceof Error) return f;
        try {
          return assembleWithSignatures(this.index, f, this.isWrapper);
        } catch (e) {
          return new Error(`assembling failed: ${(e as Error).message}`);
        }
      });
    this.queued = result;
    return result;
  }

  async close(): Promise<void> {
    if (!this.shared) this.http.close();
  }
}

// The worker sends each run back compactly: test names are numbered once per pass (most runs of a
// job repeat the same few thousand names), outcomes are bytes, and only failures carry text. Sending
// whole records cost more main-thread time than parsing them did.
const OUTCOMES: TestResult['outcome'][] = ['passed', 'failed', 'flaked', 'skipped'];
const OUTCOME_INDEX = new Map(OUTCOMES.map((o, i) => [o, i]));

export interface WireRun {
  id: number;
  error?: string;
  record?: Omit<RunRecord, 'results'>;
  /** names first used by this message, numbered after the ones sent before */
  newNames?: string[];
  names?: Int32Array;
  outcomes?: Uint8Array;
  /** results with failure text: [result index, message, signature] */
  notes?: [number, string, { hash: string; text: string } | null][];
}

/** Worker side: numbers names as it sends them. */
export class WireEncoder {
  private readonly numbers = new Map<string, number>();

  encode(id: number, a: AssembledRun): WireRun {
    const { results, ...record } = a.record;
    const newNames: string[] = [];
    const names = new Int32Array(results.length);
    const outcomes = new Uint8Array(results.length);
    const notes: WireRun['notes'] = [];
    results.forEach((r, i) => {
      let n = this.numbers.get(r.name);
      if (n === undefined) {
        n = this.numbers.size;
        this.numbers.set(r.name, n);
        newNames.push(r.name);
      }
      names[i] = n;
      outcomes[i] = OUTCOME_INDEX.get(r.outcome)!;
      if (r.message || a.signatures[i]) notes.push([i, r.message, a.signatures[i]]);
    });
    return { id, record, newNames, names, outcomes, notes };
  }
}

/** Main-thread side: the mirror of WireEncoder's numbering (messages arrive in order). */
export class WireDecoder {
  private readonly names: string[] = [];

  decode(m: WireRun): AssembledRun {
    this.names.push(...m.newNames!);
    const n = m.names!.length;
    const results: TestResult[] = new Array(n);
    for (let i = 0; i < n; i++) results[i] = { name: this.names[m.names![i]], outcome: OUTCOMES[m.outcomes![i]], message: '' };
    const signatures: AssembledRun['signatures'] = new Array(n).fill(null);
    for (const [i, message, sig] of m.notes!) {
      results[i].message = message;
      signatures[i] = sig;
    }
    return { record: { ...m.record!, results }, signatures };
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
  private readonly waiting = new Map<number, (r: AssembledRun | Error) => void>();
  private readonly decoder = new WireDecoder();
  private failed: Error | undefined;
  private readonly onMessage = (m: WireRun & { pass: number }) => {
    if (m.pass !== this.pass) return;
    const done = this.waiting.get(m.id);
    this.waiting.delete(m.id);
    if (m.error !== undefined) return done?.(new Error(m.error));
    // decoded even when nobody waits, to keep the name numbering in step
    const run = this.decoder.decode(m);
    done?.(run);
  };
  private readonly onFailure = (e: Error | number) => {
    this.failed = typeof e === 'number' ? new Error(`the run reader thread exited with code ${e}`) : e;
    for (const done of this.waiting.values()) done(this.failed);
    this.waiting.clear();
  };

  constructor(
    private readonly worker: Worker,
    private readonly pass: number,
  ) {
    worker.on('message', this.onMessage);
    worker.on('error', this.onFailure);
    worker.on('exit', this.onFailure);
    worker.ref();
  }

  read(run: ProwRun): Promise<AssembledRun | Error> {
    if (this.failed) return Promise.resolve(this.failed);
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ pass: this.pass, id, run });
    });
  }

  async close(): Promise<void> {
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

let workerFile: Promise<string> | undefined;

/**
 * The worker's code as one plain-JS file. A worker that loaded the TypeScript sources through tsx
 * spent about 0.5 s of CPU compiling them on a loader thread, every pass; esbuild bundles the same
 * sources in about 40 ms. Bundled once per process from the current sources and named by content
 * (written under a temporary name, then renamed), so it is never stale and concurrent processes
 * never read a half-written file.
 */
function workerScript(): Promise<string> {
  workerFile ??= (async () => {
    const esbuild = await import('esbuild');
    const here = path.dirname(fileURLToPath(import.meta.url));
    const out = await esbuild.build({
      entryPoints: [path.join(here, 'runReaderWorkerMain.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0].contents;
    // inside the project, so that the bundle's imports of packages resolve from node_modules
    const dir = path.join(here, '../../node_modules/.cache/buildcop');
    const file = path.join(dir, `run-reader-worker-${crypto.createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, code);
      fs.renameSync(tmp, file);
      // bundles of earlier sources, unless just written (another process may be about to load it)
      for (const old of fs.readdirSync(dir)) {
        const p = path.join(dir, old);
        try {
          if (old.startsWith('run-reader-worker-') && p !== file && Date.now() - fs.statSync(p).mtimeMs > 3_600_000) fs.rmSync(p, { force: true });
        } catch {
          // gone already (another process cleaned up)
        }
      }
    }
    return file;
  })();
  return workerFile;
}

/**
 * A run reader on a worker thread when the machine has cores to spare (`workers` decides when
 * given), else inline; inline too when the worker cannot be started. On 2 cores with the replay
 * server on the same machine the two measured the same (a median 1.5 s a pass either way: every core
 * was busy), so the default is a worker from 3 cores up, where the main thread then only writes.
 */
export async function createRunReader(opts: RunReaderOptions): Promise<RunReader> {
  const workers = opts.config.ingest?.workers ?? (os.availableParallelism() > 2 ? 1 : 0);
  if (workers < 1) return new InlineRunReader(opts.config, opts.signatures, opts.http);
  try {
    let worker = idle.values().next().value as Worker | undefined;
    if (worker) idle.delete(worker);
    else worker = await startWorker();
    const pass = ++passes;
    const w = worker;
    await new Promise<void>((resolve, reject) => {
      const gone = (code: number) => reject(new Error(`the run reader thread exited with code ${code}`));
      const onMessage = (m: { pass?: number; ready?: boolean }) => {
        if (m.pass !== pass || !m.ready) return;
        w.off('message', onMessage).off('error', reject).off('exit', gone);
        resolve();
      };
      w.on('message', onMessage).once('error', reject).once('exit', gone);
      w.postMessage({ pass, begin: { config: opts.config, signatures: opts.signatures } });
    });
    return new WorkerRunReader(worker, pass);
  } catch {
    return new InlineRunReader(opts.config, opts.signatures, opts.http);
  }
}
