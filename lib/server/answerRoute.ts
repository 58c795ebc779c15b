// The API routes that serve an answer: the one the route table (API_ROUTES, lib/api/openapi.ts) names
// for their path, their path segments decoded, on an answer thread within its budget (answerPool.ts).
import type { NextRequest } from 'next/server';
import { API_ROUTES } from '../api/openapi';
import { handle, segment } from './api';
import { answerRequest } from './answerPool';

/** The GET handler of the route at `path` (as the table writes it: /api/tests/{id}). */
export function answerRoute(path: string) {
  const answer = API_ROUTES.find((r) => r.path === path)?.answer;
  if (!answer) throw new Error(`${path} serves no answer in the route table (lib/api/openapi.ts)`);
  return async (req: NextRequest, ctx?: { params?: Promise<Record<string, string>> }) =>
    handle(async () => {
      const segments = ctx?.params ? await ctx.params : {};
      return answerRequest(answer, req, Object.fromEntries(Object.entries(segments).map(([k, v]) => [k, segment(v)])));
    });
}
