// The one HTTP client every source uses: only configured hosts, bounded concurrency, retries with
// backoff on 5xx/429/timeouts/dropped connections, and a size cap per response.
import { Agent, errors as undiciErrors } from 'undici';

export class HttpError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
    message: string,
    /** worth another attempt: a 5xx/429/408, a timeout, a dropped or cut connection */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface HttpOptions {
  /** hosts (host:port) that may be contacted; anything else is refused before a request is made */
  allowedHosts: Set<string>;
  concurrency?: number;
  retries?: number;
  timeoutMs?: number;
  /** default cap per response body */
  maxBytes?: number;
  /** first backoff delay; doubles per attempt, with jitter */
  retryBaseMs?: number;
  headers?: Record<string, string>;
}

/** A response's headers, read on demand (building a WHATWG Headers per download cost more than the rest). */
export class ResponseHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}
  /** the header's value (repeated ones joined by ", "), or null; names are case-insensitive */
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
}

export interface HttpResponse {
  status: number;
  headers: ResponseHeaders;
  /** the whole of its own ArrayBuffer */
  body: Buffer;
  url: string;
}

export interface RequestOptions {
  maxBytes?: number;
  headers?: Record<string, string>;
  /** statuses returned to the caller instead of thrown (e.g. 404 when absence is an answer) */
  accept?: number[];
}

/** Drops a response body we will not read (its abort is expected, not an error to report). */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

export class HttpClient {
  readonly stats = { requests: 0, retries: 0, bytes: 0, failures: 0 };
  private active = 0;
  private queue: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly retries: number;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly retryBaseMs: number;
  // undici (Node's own fetch engine) through its request API: about half the CPU per request of
  // node:http, which matters with thousands of small artifact downloads per pass.
  private readonly agent: Agent;

  constructor(private readonly opts: HttpOptions) {
    this.concurrency = opts.concurrency ?? 16;
    this.retries = opts.retries ?? 4;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
    this.retryBaseMs = opts.retryBaseMs ?? 250;
    this.agent = new Agent({ connections: this.concurrency, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, connectTimeout: this.timeoutMs });
  }

  /** Closes keep-alive connections (the process can then exit). */
  close(): void {
    void this.agent.destroy().catch(() => undefined);
  }

  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }

  checkAllowed(url: string): URL {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new HttpError(url, 0, `invalid URL ${JSON.stringify(url)}`);
    }
    if (!this.opts.allowedHosts.has(u.host)) {
      throw new HttpError(url, 0, `refusing to contact ${u.host}: not a host named in the configuration`);
    }
    return u;
  }

  /** GET with retries. Throws HttpError for refused hosts, non-retryable statuses, and exhausted retries. */
  async get(url: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const target = this.checkAllowed(url);
    let lastError: HttpError | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) {
        this.stats.retries++;
        const delay = this.retryBaseMs * 2 ** (attempt - 1);
        await new Promise((r) => setTimeout(r, delay / 2 + Math.random() * delay));
      }
      let err: HttpError;
      try {
        const res = await this.slot(() => this.once(target, options));
        if (res.status < 400 || options.accept?.includes(res.status)) return res;
        err = new HttpError(url, res.status, `GET ${url}: HTTP ${res.status}`, RETRYABLE.has(res.status));
      } catch (e) {
        err = e instanceof HttpError ? e : new HttpError(url, 0, `GET ${url}: ${(e as Error).message}`, true);
      }
      if (!err.retryable) {
        this.stats.failures++;
        throw err;
      }
      lastError = err;
    }
    this.stats.failures++;
    throw new HttpError(url, lastError?.status ?? 0, `${lastError?.message ?? `GET ${url} failed`} (after ${this.retries + 1} attempts)`);
  }

  private async once(u: URL, options: RequestOptions, redirects = 0): Promise<HttpResponse> {
    this.stats.requests++;
    const url = u.href;
    const maxBytes = options.maxBytes ?? this.maxBytes;
    let res;
    try {
      res = await this.agent.request({ origin: u.origin, path: `${u.pathname}${u.search}`, method: 'GET', headers: { ...this.opts.headers, ...options.headers } });
    } catch (e) {
      throw this.transportError(url, e as Error);
    }
    const status = res.statusCode;
    const headers = new ResponseHeaders(res.headers);
    const location = headers.get('location');
    if (status >= 300 && status < 400 && location) {
      discard(res.body);
      if (redirects >= 5) throw new HttpError(url, status, `GET ${url}: too many redirects`);
      // A redirect may only lead to an allowed host as well.
      return this.once(this.checkAllowed(new URL(location, url).toString()), options, redirects + 1);
    }
    const declared = Number(headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      discard(res.body);
      throw new HttpError(url, 413, `GET ${url}: ${declared} bytes is over the ${maxBytes}-byte cap`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          discard(res.body);
          throw new HttpError(url, 413, `GET ${url}: over the ${maxBytes}-byte cap`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      if (e instanceof HttpError) throw e;
      throw this.transportError(url, e as Error, 'download interrupted: ');
    }
    // A body of its own (not a view into a socket read or the shared pool): it can then be handed
    // to another thread without copying (lib/ingest/runReader.ts).
    const body = Buffer.allocUnsafeSlow(size);
    let at = 0;
    for (const c of chunks) at += c.copy(body, at);
    if (Number.isFinite(declared) && body.length !== declared) {
      throw new HttpError(url, 0, `GET ${url}: truncated download (${body.length} of ${declared} bytes)`, true);
    }
    this.stats.bytes += body.length;
    return { status, headers, body, url };
  }

  /** A connection-level failure (refused, reset, timed out, cut short): worth retrying. */
  private transportError(url: string, e: Error & { code?: string }, prefix = ''): HttpError {
    if (e instanceof HttpError) return e;
    const timedOut = e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError || e instanceof undiciErrors.ConnectTimeoutError;
    if (timedOut) return new HttpError(url, 0, `GET ${url}: ${prefix}timed out after ${this.timeoutMs} ms`, true);
    const message = e.message;
    const code = e.code ?? (e.cause as { code?: string } | undefined)?.code;
    return new HttpError(url, 0, `GET ${url}: ${prefix}${message}${code && !message.includes(code) ? ` (${code})` : ''}`, true);
  }

  async getText(url: string, options?: RequestOptions): Promise<string> {
    return (await this.get(url, options)).body.toString('utf8');
  }

  async getJson<T = unknown>(url: string, options?: RequestOptions): Promise<T> {
    const text = await this.getText(url, { ...options, headers: { accept: 'application/json', ...options?.headers } });
    try {
      return JSON.parse(text) as T;
    } catch (e) {
      throw new HttpError(url, 0, `GET ${url}: response is not valid JSON (${(e as Error).message}): ${JSON.stringify(text.slice(0, 120))}`);
    }
  }
}
