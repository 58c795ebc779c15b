// GET /api/signatures/[id]: what `buildcop signature ID --json` prints.
import type { NextRequest } from 'next/server';
import { segment } from '@/app/components/format';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  return handle(async () => answerRequest('signature', req, { id: segment((await ctx.params).id) }));
}
