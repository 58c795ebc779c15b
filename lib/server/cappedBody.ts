// Request bodies read with bounds: how many at once (for all clients together), how large, and for
// how long. Without them, a few hundred clients each sending a slow or huge body to a route that
// reads it whole (sign-in) held the server's memory and its attention.
export class BodyError extends Error {
  constructor(
    message: string,
    readonly status: 408 | 413 | 503,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

export interface BodyLimits {
  /** bodies being read at once, for every client together, by the callers sharing `slots` */
  slots: { inUse: number; max: number };
  maxBytes: number;
  timeoutMs: number;
}

/** The body's bytes, or a BodyError: 503 when too many are being read, 413 past maxBytes, 408 past timeoutMs. */
export async function readCappedBody(req: Request, limits: BodyLimits): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > limits.maxBytes) throw new BodyError(`the body is over ${limits.maxBytes} bytes`, 413);
  if (limits.slots.inUse >= limits.slots.max) throw new BodyError('too many requests are sending a body right now: try again in a moment', 503);
  const reader = req.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  limits.slots.inUse++;
  // a body that stops coming ends the read (done), and the time says why
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), limits.timeoutMs);
  const started = Date.now();
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (Date.now() - started >= limits.timeoutMs) throw new BodyError(`the body did not arrive within ${limits.timeoutMs / 1000} s`, 408);
      if (done) break;
      size += value.length;
      if (size > limits.maxBytes) throw new BodyError(`the body is over ${limits.maxBytes} bytes`, 413);
      chunks.push(Buffer.from(value));
    }
    return Buffer.concat(chunks, size);
  } finally {
    clearTimeout(timer);
    limits.slots.inUse--;
    reader.cancel().catch(() => undefined);
  }
}
