// GET /api/stats: what `buildcop stats --json` prints.
import { connection } from 'next/server';
import { getStats } from '@/lib/answers/stats';
import { handle } from '@/lib/server/api';
import { getDb } from '@/lib/server/context';

export async function GET() {
  await connection(); // never prerendered at build time: the numbers change with every ingest
  return handle(async () => getStats(await getDb()));
}
