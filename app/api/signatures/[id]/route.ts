// GET /api/signatures/[id]: what `buildcop signature ID --json` prints.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/signatures/{id}');
