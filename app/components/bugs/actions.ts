'use server';
// Link and unlink from the test page: the same lib calls as POST/DELETE /api/tests/[id]/bugs, for
// whoever holds the sign-in cookie (checked here: a server action is a public endpoint).
import { revalidatePath } from 'next/cache';
import { cookies } from 'next/headers';
import { BugRequestError, linkBug, unlinkBug } from '@/lib/bugs/manage';
import { allowedHosts } from '@/lib/config';
import { HttpClient } from '@/lib/sources/http';
import { SESSION_COOKIE, validSession } from '@/lib/server/auth';
import { getConfig, getDb } from '@/lib/server/context';

export interface BugActionState {
  ok: boolean;
  message: string;
}

const field = (form: FormData, name: string): string | undefined => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};

export async function changeBugLink(_prev: BugActionState, form: FormData): Promise<BugActionState> {
  if (!validSession((await cookies()).get(SESSION_COOKIE)?.value)) return { ok: false, message: 'Sign in to change bug links.' };
  const op = field(form, 'op');
  const test = field(form, 'test');
  const bug = field(form, 'bug');
  if ((op !== 'link' && op !== 'unlink') || !test || !/^[0-9a-f]{16}$/.test(test)) return { ok: false, message: 'Malformed request.' };
  if (!bug) return { ok: false, message: 'Give a bug URL or id.' };
  const req = { test, bug, tracker: field(form, 'tracker'), signature: field(form, 'signature') };
  const db = await getDb();
  try {
    if (op === 'link') {
      const config = getConfig();
      const http = config ? new HttpClient({ allowedHosts: allowedHosts(config), retries: 1, timeoutMs: 10_000, headers: { 'user-agent': 'buildcop' } }) : undefined;
      try {
        const r = await linkBug(db, req, { config, http });
        revalidatePath('/', 'layout');
        return { ok: true, message: `Linked ${r.bug.tracker} ${r.bug.id}${r.signature ? ` to signature ${r.signature}` : ''}.` };
      } finally {
        (http as { close?: () => void } | undefined)?.close?.();
      }
    }
    const r = await unlinkBug(db, req);
    revalidatePath('/', 'layout');
    return { ok: true, message: `Unlinked ${r.bug.tracker} ${r.bug.id}.` };
  } catch (e) {
    if (e instanceof BugRequestError) return { ok: false, message: e.message };
    console.error(e);
    return { ok: false, message: 'Could not change the link (see the server log).' };
  }
}
