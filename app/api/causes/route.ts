// GET /api/causes: what `buildcop causes --json` prints, for the same query parameters.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/causes');
