// GET /api/causes: what `buildcop causes --json` prints, for the same query parameters.
import type { NextRequest } from 'next/server';
import { causes, parseCausesQuery } from '@/lib/answers/causes';
import { handle, params } from '@/lib/server/api';
import { getConfig, getDb } from '@/lib/server/context';

export async function GET(req: NextRequest) {
  return handle(async () => causes(await getDb(), parseCausesQuery(params(req)), { ignoreTests: getConfig()?.ignoreTests }));
}
