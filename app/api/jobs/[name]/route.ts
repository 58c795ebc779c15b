// GET /api/jobs/{name}: what `buildcop job NAME --json` prints.
import type { NextRequest } from 'next/server';
import { segment } from '@/app/components/format';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest, ctx: { params: Promise<{ name: string }> }) {
  return handle(async () => answerRequest('job', req, { name: segment((await ctx.params).name) }));
}
