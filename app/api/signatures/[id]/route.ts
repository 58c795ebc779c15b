// GET /api/signatures/[id]: what `buildcop signature ID --json` prints.
import type { NextRequest } from 'next/server';
import { segment } from '@/app/components/format';
import { parseSignatureQuery, signatureDetail } from '@/lib/answers/signature';
import { handle, params } from '@/lib/server/api';
import { getConfig, getDb } from '@/lib/server/context';

export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  return handle(async () => signatureDetail(await getDb(), segment(id), parseSignatureQuery(params(req)), { ignoreTests: getConfig()?.ignoreTests }));
}
