// The one HTTP client every source uses: only configured hosts, bounded concurrency, retries with
// backoff on 5xx/429/timeouts/dropped connections, gzip-encoded responses, and a size cap per response.
import zlib from 'node:zlib';
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
  /**
   * the most one attempt may take, headers and whole body (default 5 x timeoutMs): timeoutMs bounds
   * each wait, and a server dripping a byte now and then would otherwise hold a request for ever
   */
  deadlineMs?: number;
  /** default cap per response body */
  maxBytes?: number;
  /** first backoff delay; doubles per attempt, with jitter */
  retryBaseMs?: number;
  headers?: Record<string, string>;
}

/** Whether the raw header name `raw` is `lower` (ASCII, case-insensitive) without decoding it. */
function isHeader(raw: Buffer, lower: string): boolean {
  if (raw.length !== lower.length) return false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/** A response's headers as received (name, value, name, value, ...), read on demand. */
export class ResponseHeaders {
  constructor(private readonly raw: Buffer[]) {}
  /** the header's value (repeated ones joined by ", "), or null; names are case-insensitive */
  get(name: string): string | null {
    const lower = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i + 1 < this.raw.length; i += 2) {
      if (!isHeader(this.raw[i], lower)) continue;
      const v = this.raw[i + 1].toString('latin1');
      value = value === null ? v : `${value}, ${v}`;
    }
    return value;
  }
}

export interface HttpResponse {
  status: number;
  headers: ResponseHeaders;
  /** the body, inflated when it came gzip-encoded */
  body: Buffer;
  url: string;
  /** the body's size as received */
  wireBytes: number;
}

export interface RequestOptions {
  maxBytes?: number;
  headers?: Record<string, string>;
  /** statuses returned to the caller instead of thrown (e.g. 404 when absence is an answer) */
  accept?: number[];
}

/** A connection-level failure (refused, reset, timed out, cut short): worth retrying. */
function transportError(url: string, e: Error & { code?: string }, timeoutMs: number, prefix = ''): HttpError {
  if (e instanceof HttpError) return e;
  const timedOut = e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError || e instanceof undiciErrors.ConnectTimeoutError;
  if (timedOut) return new HttpError(url, 0, `GET ${url}: ${prefix}timed out after ${timeoutMs} ms`, true);
  const message = e.message;
  const code = e.code ?? (e.cause as { code?: string } | undefined)?.code;
  return new HttpError(url, 0, `GET ${url}: ${prefix}${message}${code && !message.includes(code) ? ` (${code})` : ''}`, true);
}

/**
 * The handler of one download, given the raw headers and each chunk by undici. undici's request API
 * wraps every response in a stream read through an async iterator and parses every header; that was
 * most of the client's CPU with thousands of small downloads a pass. A class rather than an object of
 * closures: tsx gives every named closure a name at run time, per request.
 */
class Download {
  /** when it was dispatched (performance.now()), for the deadline sweep */
  readonly startedAt = performance.now();
  private status = 0;
  private headers = new ResponseHeaders([]);
  private declared = NaN;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private abort: (reason: Error) => void = () => undefined;
  private connected = false;
  private expired = false;

  constructor(
    private readonly url: string,
    private readonly maxBytes: number,
    private readonly timeoutMs: number,
    private readonly resolve: (r: HttpResponse) => void,
    private readonly reject: (e: Error) => void,
    /** the client's downloads in flight: it leaves them when it ends, either way */
    private readonly inFlight: Set<Download>,
  ) {}

  onConnect(abort: (reason: Error) => void): void {
    this.abort = abort;
    this.connected = true;
  }

  /** Gives up on an attempt past its deadline (see HttpClient's sweep); retried like a timeout. */
  expire(deadlineMs: number): void {
    if (this.expired || !this.connected) return; // not connected yet: connecting has its own timeout
    this.expired = true;
    const after = deadlineMs >= 10_000 ? `${Math.round(deadlineMs / 1000)} s` : `${deadlineMs} ms`;
    this.abort(new HttpError(this.url, 0, `GET ${this.url}: not complete after ${after} (${this.size} bytes so far)`, true));
  }

  onHeaders(statusCode: number, raw: Buffer[]): boolean {
    if (statusCode < 200) return true; // informational: the response follows
    this.status = statusCode;
    this.headers = new ResponseHeaders(raw);
    this.declared = Number(this.headers.get('content-length') ?? NaN);
    if (this.declared > this.maxBytes) this.abort(new HttpError(this.url, 413, `GET ${this.url}: ${this.declared} bytes is over the ${this.maxBytes}-byte cap`));
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.abort(new HttpError(this.url, 413, `GET ${this.url}: over the ${this.maxBytes}-byte cap`));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.inFlight.delete(this);
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    if (Number.isFinite(this.declared) && body.length !== this.declared) {
      this.reject(new HttpError(this.url, 0, `GET ${this.url}: truncated download (${body.length} of ${this.declared} bytes)`, true));
    } else {
      const encoding = (this.headers.get('content-encoding') ?? '').trim().toLowerCase();
      if (body.length === 0 || encoding === '' || encoding === 'identity') return this.respond(body, body.length);
      decodeCapped(this.url, encoding, body, this.maxBytes).then(
        (plain) => this.respond(plain, body.length),
        // a redirect's or an error's body is not what the caller reads: its status is
        (e: Error) => (this.status >= 300 ? this.respond(body, body.length) : this.reject(e)),
      );
    }
  }

  private respond(body: Buffer, wireBytes: number): void {
    this.resolve({ status: this.status, headers: this.headers, body, url: this.url, wireBytes });
  }

  onError(e: Error): void {
    this.inFlight.delete(this);
    this.reject(transportError(this.url, e, this.timeoutMs, this.status ? 'download interrupted: ' : ''));
  }
}

type Inflate = (body: Buffer, opts: zlib.ZlibOptions & zlib.BrotliOptions, done: (e: Error | null, plain: Buffer) => void) => void;

/** The content codings a body may come in: gzip is asked for; the others are read when a server sends them anyway. */
const DECODERS: Record<string, Inflate> = { gzip: zlib.gunzip, 'x-gzip': zlib.gunzip, deflate: zlib.inflate, br: zlib.brotliDecompress };

/**
 * An encoded body, inflated on libuv's thread pool and never past the cap (a small body can inflate
 * a thousandfold). Deck gzips data.js for a client that asks; GCS sends an object stored gzip-encoded
 * (Prow's compress_file_types stores build logs and JSON so) as stored to such a client.
 */
function decodeCapped(url: string, encoding: string, body: Buffer, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const decode = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
    if (!decode) return reject(new HttpError(url, 0, `GET ${url}: the body is in a content coding buildcop cannot read: ${JSON.stringify(encoding.slice(0, 100))}`));
    decode(body, { maxOutputLength: maxBytes }, (e, plain) => {
      if (!e) return resolve(plain);
      const code = (e as Error & { code?: string }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') reject(new HttpError(url, 413, `GET ${url}: over the ${maxBytes}-byte cap once inflated (${body.length} bytes ${encoding}-encoded)`));
      // cut short (a connection that ended early without a declared length) is worth another try; a
      // body that is not in its coding at all is not
      else reject(new HttpError(url, 0, `GET ${url}: the ${encoding}-encoded body cannot be inflated: ${e.message}`, code === 'Z_BUF_ERROR'));
    });
  });
}

/** Headers that carry a credential: any source's token, password or session. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'x-auth-token', 'private-token']);

/**
 * Whether a redirect from `from` to `to` may carry the credentials sent to `from`: to the same origin
 * only (scheme, host and port), so never to another host, nor from https to http. As browsers and
 * curl do; once dropped they stay dropped, even if a later redirect leads back.
 */
function keepsCredentials(from: URL, to: URL): boolean {
  return from.origin === to.origin;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from now; 0 when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (!value) return 0;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}

export class HttpClient {
  /** bytes: bodies as read (inflated); wireBytes: as received */
  readonly stats = { requests: 0, retries: 0, bytes: 0, wireBytes: 0, failures: 0 };
  private active = 0;
  private queue: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly retries: number;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly retryBaseMs: number;
  private readonly deadlineMs: number;
  /** sent with every request: the configured ones, gzip accepted unless they say otherwise */
  private readonly headers: Record<string, string>;
  /** attempts in flight, swept for their deadline once a second (one timer, not one per request) */
  private readonly inFlight = new Set<Download>();
  private sweeper: NodeJS.Timeout | undefined;
  // undici (Node's own fetch engine), through its dispatch API (see exchange): far less CPU per
  // request than node:http, which matters with thousands of small artifact downloads per pass.
  private readonly agent: Agent;

  constructor(private readonly opts: HttpOptions) {
    this.concurrency = opts.concurrency ?? 16;
    this.retries = opts.retries ?? 4;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
    this.retryBaseMs = opts.retryBaseMs ?? 250;
    this.deadlineMs = opts.deadlineMs ?? 5 * this.timeoutMs;
    this.headers = { 'accept-encoding': 'gzip', ...opts.headers };
    this.agent = new Agent({ connections: this.concurrency, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, connectTimeout: this.timeoutMs });
  }

  /** Closes keep-alive connections (the process can then exit). */
  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    void this.agent.destroy().catch(() => undefined);
  }

  private sweep(): void {
    const now = performance.now();
    for (const d of this.inFlight) if (now - d.startedAt > this.deadlineMs) d.expire(this.deadlineMs);
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
    /** what the last answer's Retry-After asked for (ms), bounded by the timeout */
    let askedWait = 0;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) {
        this.stats.retries++;
        const delay = this.retryBaseMs * 2 ** (attempt - 1);
        await new Promise((r) => setTimeout(r, Math.max(askedWait, delay / 2 + Math.random() * delay)));
      }
      let err: HttpError;
      try {
        const res = await this.slot(() => this.once(target, options));
        if (res.status < 400 || options.accept?.includes(res.status)) return res;
        err = new HttpError(url, res.status, `GET ${url}: HTTP ${res.status}`, RETRYABLE.has(res.status));
        askedWait = Math.min(this.timeoutMs, retryAfterMs(res.headers.get('retry-after')));
      } catch (e) {
        err = e instanceof HttpError ? e : new HttpError(url, 0, `GET ${url}: ${(e as Error).message}`, true);
        askedWait = 0;
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

  private async once(u: URL, options: RequestOptions, redirects = 0, sent = options.headers ? { ...this.headers, ...options.headers } : this.headers): Promise<HttpResponse> {
    this.stats.requests++;
    const url = u.href;
    const res = await this.exchange(u, sent, options.maxBytes ?? this.maxBytes);
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location) {
      if (redirects >= 5) throw new HttpError(url, res.status, `GET ${url}: too many redirects`);
      // A redirect may only lead to an allowed host as well, and takes no credentials elsewhere.
      const to = this.checkAllowed(new URL(location, url).toString());
      return this.once(to, options, redirects + 1, keepsCredentials(u, to) ? sent : withoutCredentials(sent));
    }
    this.stats.bytes += res.body.length;
    this.stats.wireBytes += res.wireBytes;
    return res;
  }

  /** One GET through undici's dispatch API (see Download). */
  private exchange(u: URL, headers: Record<string, string> | undefined, maxBytes: number): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const download = new Download(u.href, maxBytes, this.timeoutMs, resolve, reject, this.inFlight);
      this.inFlight.add(download);
      if (!this.sweeper) {
        this.sweeper = setInterval(() => this.sweep(), Math.min(1000, this.deadlineMs / 4));
        this.sweeper.unref(); // never what keeps a process alive
      }
      this.agent.dispatch({ origin: u.origin, path: `${u.pathname}${u.search}`, method: 'GET', headers }, download);
    });
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
