// GET /api/health: what `buildcop health --json` prints; 503 when the database cannot be read.
import { connection } from 'next/server';
import { health, healthHttpStatus } from '@/lib/answers/health';
import { handle, json } from '@/lib/server/api';
import { getDb } from '@/lib/server/context';

export async function GET() {
  await connection();
  return handle(async () => {
    const h = await health(getDb);
    const status = healthHttpStatus(h);
    return json(h, status, status === 503 ? { 'retry-after': '30' } : {});
  });
}
