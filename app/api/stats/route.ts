// GET /api/stats: what `buildcop stats --json` prints.
import { connection, type NextRequest } from 'next/server';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest) {
  await connection(); // never prerendered at build time: the numbers change with every ingest
  return handle(() => answerRequest('stats', req));
}
