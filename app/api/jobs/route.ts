// GET /api/jobs: what `buildcop jobs --json` prints.
import type { NextRequest } from 'next/server';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest) {
  return handle(() => answerRequest('jobs', req));
}
