// GET /api/promotion: what `buildcop promotion --json` prints (?at=ISO; 400 on a bad one).
import type { NextRequest } from 'next/server';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest) {
  return handle(() => answerRequest('promotion', req));
}
