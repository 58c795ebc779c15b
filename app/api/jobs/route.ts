// GET /api/jobs: what `buildcop jobs --json` prints.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/jobs');
