// GET /api/hotlist: what `buildcop hotlist --json` prints, for the same query parameters.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/hotlist');
