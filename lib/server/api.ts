// JSON API plumbing: query parameters in, the lib function's answer out, 400/404/503 with a message.
import crypto from 'node:crypto';
import type { NextRequest } from 'next/server';
import { isDatabaseUnavailable } from '../store/db';
import { jsonText } from './jsonText';

export function params(req: NextRequest | Request): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of new URL(req.url).searchParams) out[k] = v;
  return out;
}

/** A path segment as the user wrote it (Next may hand it over still percent-encoded). */
export function segment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(jsonText(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * An unexpected error, logged on the server with an id; what the client gets is the id alone (an
 * error's message can hold SQL, paths or a stack's worth of internals).
 */
export function internalError(err: unknown): { error: string; id: string; detail: string } {
  const id = crypto.randomBytes(6).toString('hex');
  console.error(`[buildcop] internal error ${id}:`, err);
  return { error: 'internal error', id, detail: `logged on the server as ${id}` };
}

/**
 * Runs a handler; errors that carry a status (400, 401, 404) become that status with the message, a
 * database that cannot be reached a 503 (as /api/health answers then) that scripts may retry.
 */
export async function handle(fn: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await fn();
    return result instanceof Response ? result : json(result);
  } catch (e) {
    const err = e as Error & { status?: number };
    if (err.status && err.status >= 400 && err.status < 500) return json({ error: err.message }, err.status);
    // busy, or an answer stopped past its budget (lib/server/answerPool.ts)
    if (err.status === 503) return json({ error: err.message }, 503, { 'retry-after': '5' });
    if (isDatabaseUnavailable(err)) return json({ error: 'database unavailable', detail: err.message }, 503, { 'retry-after': '30' });
    return json(internalError(err), 500);
  }
}
