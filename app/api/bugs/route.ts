// GET /api/bugs: the same as `buildcop bugs --json` ({ bugs: [ { tracker, id, url, summary, status,
// tests, links: [ { test, reason } ] } ] }); ?linked=true leaves out bugs linked to no test.
import { answerRoute } from '@/lib/server/answerRoute';

export const dynamic = 'force-dynamic';
export const GET = answerRoute('/api/bugs');
