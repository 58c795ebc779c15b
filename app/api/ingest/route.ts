// GET /api/ingest: what `buildcop ingest-log --json` prints.
import { answerRoute } from '@/lib/server/answerRoute';

export const GET = answerRoute('/api/ingest');
