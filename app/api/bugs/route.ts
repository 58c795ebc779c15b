// GET /api/bugs: the same as `buildcop bugs --json` ({ bugs: [ { tracker, id, url, summary, status,
// tests, links: [ { test, reason } ] } ] }); ?linked=true leaves out bugs linked to no test.
import type { NextRequest } from 'next/server';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export const dynamic = 'force-dynamic';

export async function GET(req: NextRequest) {
  return handle(() => answerRequest('bugs', req));
}
