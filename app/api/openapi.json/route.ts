// GET /api/openapi.json: the OpenAPI 3.1 description of every route (ours, bugs, promotion).
import { openApiDocument } from '@/lib/api/openapi';
import { json } from '@/lib/server/api';

export function GET() {
  return json(openApiDocument(), 200, { 'cache-control': 'public, max-age=300' });
}
