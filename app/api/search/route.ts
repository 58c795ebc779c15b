// GET /api/search?q=REGEX: what `buildcop search REGEX --json` prints.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/search');
