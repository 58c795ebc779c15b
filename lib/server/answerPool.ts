// The web server's answers run on answer threads, never on the thread that serves HTTP: a search or
// a hot list that takes seconds then delays neither /api/health nor the other requests. Each answer
// gets a time budget (lib/budget.ts) and stops with a `partial` answer when it runs out, or as soon
// as the client goes away (the request's AbortSignal, passed on to the thread through shared memory:
// a thread busy in a loop reads no messages). An answer that overruns its budget all the same (a
// single slow database statement, say) has its thread stopped and replaced.
//
// Threads: BUILDCOP_ANSWER_THREADS (default 2; 0 answers on the main thread, as the CLI does). Each
// thread holds its own cache of the verdicts' lookback (lib/verdicts/testHistory.ts): answers that
// judge verdicts go to the first idle thread, which keeps it warm; searches, which do not, to the last.
import os from 'node:os';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { Budget } from '../budget';
import { bundledWorker } from '../workerBundle';
import type { AnswerName, AnswerOf, AnswerParams } from './answers';

export interface AnswerOptions {
  /** the request's: the answer stops when it aborts */
  signal?: AbortSignal;
  /** milliseconds (default DEFAULT_BUDGET_MS); never more than MAX_BUDGET_MS */
  budgetMs?: number;
  /** the answer's JSON text (made on the answer thread, off the one serving HTTP) rather than the answer */
  json?: boolean;
}

/** Default time budgets: a search reads logs and may take its time; other answers read the window. */
export const DEFAULT_BUDGET_MS = { search: 15_000, other: 20_000 };
export const MAX_BUDGET_MS = 60_000;
/** Answers waiting for a thread at most; more get 503 (retry later). */
export const MAX_QUEUED = 64;

/** A request that could not be answered now (503, with Retry-After). */
export class AnswerUnavailableError extends Error {
  readonly status = 503;
  readonly expose = true;
}

interface Task {
  id: number;
  name: AnswerName;
  params: AnswerParams;
  budgetMs: number;
  enqueuedAt: number;
  abort: Int32Array;
  json?: boolean;
  resolve(v: unknown): void;
  reject(e: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** What an answer thread sends back. */
export type AnswerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { message: string; name?: string; status?: number; code?: string; expose?: boolean } };

/** The message an answer thread gets. */
export interface AnswerRequest {
  id: number;
  name: AnswerName;
  params: AnswerParams;
  budgetMs: number;
  enqueuedAt: number;
  abort: SharedArrayBuffer;
  json?: boolean;
}

/** Time an overrunning answer is given past its budget before its thread is stopped. */
const graceMs = (budgetMs: number) => Math.max(5_000, budgetMs);

class AnswerThread {
  task: Task | undefined;
  private worker: Worker | undefined;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(private readonly onIdle: () => void) {}

  async run(task: Task): Promise<void> {
    this.task = task;
    try {
      const w = (this.worker ??= await this.start());
      if (this.task !== task) return; // stopped meanwhile
      const req: AnswerRequest = { id: task.id, name: task.name, params: task.params, budgetMs: task.budgetMs, enqueuedAt: task.enqueuedAt, abort: task.abort.buffer as SharedArrayBuffer, json: task.json };
      w.postMessage(req);
      this.watchdog = setTimeout(() => this.stop(new AnswerUnavailableError(`the answer took more than its ${task.budgetMs} ms budget and was stopped; narrow the query`)), task.budgetMs + graceMs(task.budgetMs));
    } catch (e) {
      this.finish(task, undefined, new Error(`could not start an answer thread: ${(e as Error).message}`));
    }
  }

  private async start(): Promise<Worker> {
    // the process's environment itself (DATABASE_URL, BUILDCOP_CONFIG), not a copy taken now
    const w = new Worker(await bundledWorker('lib/server/answerWorkerMain.ts', 'answer-worker'), { env: SHARE_ENV });
    w.unref();
    w.on('message', (m: AnswerReply) => {
      const t = this.task;
      if (!t || t.id !== m.id) return;
      if (m.ok) this.finish(t, m.value);
      else this.finish(t, undefined, Object.assign(new Error(m.error.message), m.error));
    });
    w.on('error', (e) => this.lost(w, e));
    w.on('exit', (code) => this.lost(w, new Error(`the answer thread exited with code ${code}`)));
    return w;
  }

  private lost(w: Worker, e: Error): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    if (this.task) this.finish(this.task, undefined, e);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }

  /** Stops the thread (a new one starts for the next task) and fails its task with `e`. */
  private stop(e: Error): void {
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
    if (this.task) this.finish(this.task, undefined, e);
  }

  private finish(t: Task, value: unknown, error?: Error): void {
    if (this.task !== t) return;
    clearTimeout(this.watchdog);
    this.task = undefined;
    if (t.onAbort) t.signal?.removeEventListener('abort', t.onAbort);
    if (error) t.reject(error);
    else t.resolve(value);
    this.onIdle();
  }
}

/** Threads and the answers waiting for one. */
class AnswerPool {
  private readonly threads: AnswerThread[];
  private readonly queue: Task[] = [];
  private next = 0;

  constructor(size: number) {
    this.threads = Array.from({ length: size }, () => new AnswerThread(() => this.dispatch()));
  }

  submit(task: Omit<Task, 'id'>): void {
    if (this.queue.length >= MAX_QUEUED) {
      task.reject(new AnswerUnavailableError(`the server is busy: ${MAX_QUEUED} answers are waiting; try again shortly`));
      return;
    }
    const t: Task = { ...task, id: ++this.next };
    if (t.signal) {
      t.onAbort = () => {
        Atomics.store(t.abort, 0, 1);
        const i = this.queue.indexOf(t);
        if (i >= 0) {
          this.queue.splice(i, 1);
          t.reject(new AnswerUnavailableError('the client went away'));
        }
      };
      t.signal.addEventListener('abort', t.onAbort, { once: true });
    }
    this.queue.push(t);
    this.dispatch();
  }

  async close(): Promise<void> {
    for (const t of this.queue.splice(0)) t.reject(new AnswerUnavailableError('the server is stopping'));
    await Promise.all(this.threads.map((th) => th.close()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const idle = this.threads.filter((th) => !th.task);
      if (!idle.length) return;
      const t = this.queue.shift()!;
      const { WINDOW_ANSWERS } = answersModule!;
      void (WINDOW_ANSWERS.has(t.name) ? idle[0] : idle[idle.length - 1]).run(t);
    }
  }
}

let pool: AnswerPool | undefined;

/** Stops the answer threads (the next answer starts new ones, as many as answerThreads says then). */
export async function closeAnswerPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
let answersModule: typeof import('./answers') | undefined;

/** Threads to run answers on: BUILDCOP_ANSWER_THREADS, else 2 (at least 1 on a single core). */
export function answerThreads(env: Record<string, string | undefined> = process.env): number {
  const n = env.BUILDCOP_ANSWER_THREADS;
  if (n !== undefined && n !== '') {
    const v = Number(n);
    if (Number.isInteger(v) && v >= 0 && v <= 64) return v;
  }
  return Math.min(2, os.availableParallelism());
}

/** The budget an answer gets: the one asked for, within MAX_BUDGET_MS, else its default. */
export function budgetFor(name: AnswerName, asked?: number): number {
  const fallback = name === 'search' ? DEFAULT_BUDGET_MS.search : DEFAULT_BUDGET_MS.other;
  if (asked === undefined || !Number.isFinite(asked) || asked < 0) return fallback;
  return Math.min(asked, MAX_BUDGET_MS);
}

/**
 * Answers `name` for these parameters on an answer thread (or inline with BUILDCOP_ANSWER_THREADS=0),
 * within its budget. Errors keep their status (400, 404, 503) and message.
 */
export async function answer<N extends AnswerName>(name: N, params: AnswerParams, opts: AnswerOptions = {}): Promise<AnswerOf<N>> {
  answersModule ??= await import('./answers');
  const budgetMs = budgetFor(name, opts.budgetMs);
  const threads = answerThreads();
  if (threads === 0) {
    const [{ getConfig, getDb }, { runAnswer }, { jsonText }] = await Promise.all([import('./context'), import('./recentAnswers'), import('./jsonText')]);
    const value = await runAnswer(name, await getDb(), params, { budget: new Budget(budgetMs, opts.signal), config: getConfig() }, { json: opts.json });
    return (opts.json ? jsonText(value) : value) as AnswerOf<N>;
  }
  pool ??= new AnswerPool(threads);
  return new Promise<AnswerOf<N>>((resolve, reject) => {
    pool!.submit({
      name, params, budgetMs, enqueuedAt: Date.now(), abort: new Int32Array(new SharedArrayBuffer(4)), json: opts.json,
      resolve: resolve as (v: unknown) => void, reject, signal: opts.signal,
    });
  });
}

/**
 * An API route's answer: the request's query parameters with its path segments (decoded already),
 * its AbortSignal, and `budget` (milliseconds, at most MAX_BUDGET_MS) when the client asks for less time.
 */
export async function answerRequest(name: AnswerName, req: Request, segments: AnswerParams = {}): Promise<Response> {
  const query: AnswerParams = {};
  for (const [k, v] of new URL(req.url).searchParams) query[k] = v;
  const asked = query.budget === undefined || query.budget === '' ? undefined : Number(query.budget);
  const text = (await answer(name, { ...query, ...segments }, { signal: req.signal, budgetMs: asked, json: true })) as unknown as string;
  return new Response(text, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
}
