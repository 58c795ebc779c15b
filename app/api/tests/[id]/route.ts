// GET /api/tests/{id}: what `buildcop test ID --json` prints (id: 16-digit test id or full name).
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/tests/{id}');
