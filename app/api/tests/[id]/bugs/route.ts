// The bugs of one test. GET lists them; POST links and DELETE unlinks one by hand, with the JSON body
// { "bug": "<URL or id>", "tracker"?: "bugzilla"|"jira"|"github", "signature"?: "<signature id>" }
// (with a signature the link is on the signature, so on every test failing with it). Writes need
// `Authorization: Bearer $BUILDCOP_ADMIN_TOKEN` (or the sign-in cookie); otherwise 401, no change.
import type { NextRequest } from 'next/server';
import { bugsForTests, markRecurrence } from '@/lib/bugs/refs';
import { BugRequestError, linkBug, unlinkBug, type LinkRequest } from '@/lib/bugs/manage';
import { allowedHosts } from '@/lib/config';
import { isTestId, testId } from '@/lib/ids';
import { HttpClient } from '@/lib/sources/http';
import { handle } from '@/lib/server/api';
import { authorize, unauthorized } from '@/lib/server/auth';
import { getConfig, getDb } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

const MAX_BODY = 16 * 1024;

async function body(req: Request, id: string): Promise<LinkRequest> {
  const text = await req.text();
  if (text.length > MAX_BODY) throw new BugRequestError('request body too large', 400);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BugRequestError('the body must be JSON: {"bug": "<URL or id>", "tracker"?: "...", "signature"?: "..."}', 400);
  }
  const b = raw as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null || typeof b.bug !== 'string') throw new BugRequestError('"bug" (a URL or id) is required', 400);
  for (const k of ['tracker', 'signature'] as const) {
    if (b[k] !== undefined && b[k] !== null && typeof b[k] !== 'string') throw new BugRequestError(`"${k}" must be a string`, 400);
  }
  return { test: id, bug: b.bug, tracker: (b.tracker as string | undefined) || undefined, signature: (b.signature as string | undefined) || undefined };
}

function checkId(id: string): string {
  const decoded = decodeURIComponent(id);
  return isTestId(decoded) ? decoded : testId(decoded);
}

export async function GET(_req: NextRequest, ctx: Ctx) {
  return handle(async () => {
    const id = checkId((await ctx.params).id);
    const db = await getDb();
    const t = await db.get<{ hash: string; name: string }>('SELECT hash, name FROM test WHERE hash = ?', [id]);
    if (!t) throw new BugRequestError(`no test ${id}`, 404);
    const last = await db.get<{ t: number | null }>('SELECT MAX(o.started) AS t FROM test_outcome o JOIN test t ON t.id = o.test_id WHERE t.hash = ?', [id]);
    return { test: t.name, id: t.hash, bugs: markRecurrence((await bugsForTests(db, [id])).get(id) ?? [], last?.t ?? null) };
  });
}

export async function POST(req: NextRequest, ctx: Ctx) {
  const auth = authorize(req);
  if (!auth.ok) return unauthorized(auth.reason, auth.retryAfter);
  return handle(async () => {
    const request = await body(req, checkId((await ctx.params).id));
    const config = getConfig();
    // a short-lived client to show a new bug's summary and status at once; a slow tracker only delays that
    const http = config ? new HttpClient({ allowedHosts: allowedHosts(config), retries: 1, timeoutMs: 10_000, headers: { 'user-agent': 'buildcop' } }) : undefined;
    try {
      return { ok: true, ...(await linkBug(await getDb(), request, { config, http })) };
    } finally {
      (http as { close?: () => void } | undefined)?.close?.();
    }
  });
}

export async function DELETE(req: NextRequest, ctx: Ctx) {
  const auth = authorize(req);
  if (!auth.ok) return unauthorized(auth.reason, auth.retryAfter);
  return handle(async () => {
    const request = await body(req, checkId((await ctx.params).id));
    return { ok: true, ...(await unlinkBug(await getDb(), request)) };
  });
}
