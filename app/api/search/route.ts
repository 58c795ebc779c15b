// GET /api/search?q=REGEX: what `buildcop search REGEX --json` prints.
import type { NextRequest } from 'next/server';
import { parseSearchQuery, search } from '@/lib/answers/search';
import { handle, params } from '@/lib/server/api';
import { getDb } from '@/lib/server/context';

export async function GET(req: NextRequest) {
  return handle(async () => search(await getDb(), parseSearchQuery(params(req))));
}
