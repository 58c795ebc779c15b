// GET /api/search?q=REGEX: what `buildcop search REGEX --json` prints.
import type { NextRequest } from 'next/server';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest) {
  return handle(() => answerRequest('search', req));
}
