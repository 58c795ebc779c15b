// GET /api/jobs/{name}: what `buildcop job NAME --json` prints.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/jobs/{name}');
