// GET /api/hotlist: what `buildcop hotlist --json` prints, for the same query parameters.
import type { NextRequest } from 'next/server';
import { hotlist, parseHotlistQuery } from '@/lib/answers/hotlist';
import { handle, params } from '@/lib/server/api';
import { getConfig, getDb } from '@/lib/server/context';

export async function GET(req: NextRequest) {
  return handle(async () => hotlist(await getDb(), parseHotlistQuery(params(req)), { ignoreTests: getConfig()?.ignoreTests }));
}
