// GET /api/ingest: what `buildcop ingest-log --json` prints.
import type { NextRequest } from 'next/server';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest) {
  return handle(() => answerRequest('ingestLog', req));
}
