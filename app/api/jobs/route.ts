// GET /api/jobs: what `buildcop jobs --json` prints.
import type { NextRequest } from 'next/server';
import { listJobs, parseJobsQuery } from '@/lib/answers/jobs';
import { handle, params } from '@/lib/server/api';
import { getDb } from '@/lib/server/context';

export async function GET(req: NextRequest) {
  return handle(async () => listJobs(await getDb(), parseJobsQuery(params(req))));
}
