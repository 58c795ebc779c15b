// GET /api/ingest: what `buildcop ingest-log --json` prints.
import type { NextRequest } from 'next/server';
import { ingestLog, parseIngestLogQuery } from '@/lib/answers/ingestLog';
import { handle, params } from '@/lib/server/api';
import { getDb } from '@/lib/server/context';

export async function GET(req: NextRequest) {
  return handle(async () => ingestLog(await getDb(), parseIngestLogQuery(params(req))));
}
