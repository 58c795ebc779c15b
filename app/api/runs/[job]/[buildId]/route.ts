// GET /api/runs/{job}/{buildId}: what `buildcop run JOB BUILD_ID --json` prints.
import type { NextRequest } from 'next/server';
import { segment } from '@/app/components/format';
import { handle } from '@/lib/server/api';
import { answerRequest } from '@/lib/server/answerPool';

export async function GET(req: NextRequest, ctx: { params: Promise<{ job: string; buildId: string }> }) {
  return handle(async () => {
    const { job, buildId } = await ctx.params;
    return answerRequest('run', req, { job: segment(job), buildId: segment(buildId) });
  });
}
