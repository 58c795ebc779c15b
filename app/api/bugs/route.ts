// GET /api/bugs: the same as `buildcop bugs --json` ({ bugs: [ { tracker, id, url, summary, status,
// tests, links: [ { test, reason } ] } ] }); ?linked=true leaves out bugs linked to no test.
import type { NextRequest } from 'next/server';
import { listBugs } from '@/lib/bugs/manage';
import { handle, params } from '@/lib/server/api';
import { getDb } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

export async function GET(req: NextRequest) {
  return handle(async () => {
    const p = params(req);
    return listBugs(await getDb(), { linkedOnly: p.linked === 'true' || p.linked === '1' });
  });
}
