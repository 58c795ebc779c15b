// GET /api/promotion: what `buildcop promotion --json` prints (?at=ISO; 400 on a bad one).
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/promotion');
