// GET /api/tests/{id}: what `buildcop test ID --json` prints (id: 16-digit test id or full name).
import type { NextRequest } from 'next/server';
import { parseTestQuery, testDetail } from '@/lib/answers/testDetail';
import { segment } from '@/app/components/format';
import { handle, params } from '@/lib/server/api';
import { getDb } from '@/lib/server/context';

export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const q = parseTestQuery(params(req));
    return testDetail(await getDb(), segment((await ctx.params).id), q);
  });
}
