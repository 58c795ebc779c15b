// GET /api/jobs/{name}: what `buildcop job NAME --json` prints.
import type { NextRequest } from 'next/server';
import { jobDetail, parseJobsQuery } from '@/lib/answers/jobs';
import { segment } from '@/app/components/format';
import { handle, params } from '@/lib/server/api';
import { getConfig, getDb } from '@/lib/server/context';

export async function GET(req: NextRequest, ctx: { params: Promise<{ name: string }> }) {
  return handle(async () => {
    const q = parseJobsQuery(params(req));
    return jobDetail(await getDb(), segment((await ctx.params).name), q, getConfig());
  });
}
