// One test's detail per request, shared by the page and its metadata (React cache dedupes the two).
import { cache } from 'react';
import { parseTestQuery, testDetail } from '@/lib/answers/testDetail';
import { getDb } from '@/lib/server/context';

export const loadTest = cache(async (id: string, window?: string, at?: string, job?: string) =>
  testDetail(await getDb(), id, parseTestQuery({ window, at, job })),
);

export function testPermalink(origin: string, d: { id: string; window: string; to: string }, job?: string): string {
  // Readable in a bug: an ISO time needs no escaping in a query string.
  const q = [`at=${d.to}`];
  if (d.window !== '7d') q.push(`window=${d.window}`);
  if (job) q.push(`job=${encodeURIComponent(job)}`);
  return `${origin}/tests/${d.id}?${q.join('&')}`;
}
