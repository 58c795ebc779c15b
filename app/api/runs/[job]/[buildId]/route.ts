// GET /api/runs/{job}/{buildId}: what `buildcop run JOB BUILD_ID --json` prints.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/runs/{job}/{buildId}');
