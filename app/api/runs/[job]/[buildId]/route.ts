// GET /api/runs/{job}/{buildId}: what `buildcop run JOB BUILD_ID --json` prints.
import type { NextRequest } from 'next/server';
import { runDetail } from '@/lib/answers/runDetail';
import { segment } from '@/app/components/format';
import { handle } from '@/lib/server/api';
import { getConfig, getDb } from '@/lib/server/context';

export async function GET(_req: NextRequest, ctx: { params: Promise<{ job: string; buildId: string }> }) {
  return handle(async () => {
    const { job, buildId } = await ctx.params;
    return runDetail(await getDb(), segment(job), segment(buildId), getConfig());
  });
}
