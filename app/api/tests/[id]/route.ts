// GET /api/tests/{id}: what `buildcop test ID --json` prints (id: 16-digit test id or full name).
import type { NextRequest } from 'next/server';
import { segment } from '@/app/components/format';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  return handle(async () => answerRequest('test', req, { id: segment((await ctx.params).id) }));
}
