// GET /api/hotlist: what `buildcop hotlist --json` prints, for the same query parameters.
import type { NextRequest } from 'next/server';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest) {
  return handle(() => answerRequest('hotlist', req));
}
