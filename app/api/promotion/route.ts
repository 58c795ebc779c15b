// GET /api/promotion: what `buildcop promotion --json` prints (?at=ISO; 400 on a bad one).
import type { NextRequest } from 'next/server';
import { parsePromotionQuery, promotionStatus } from '@/lib/answers/promotion';
import { handle, params } from '@/lib/server/api';
import { getConfig, getDb } from '@/lib/server/context';

export async function GET(req: NextRequest) {
  return handle(async () => {
    const { at } = parsePromotionQuery(params(req));
    return promotionStatus(await getDb(), getConfig(), { at });
  });
}
