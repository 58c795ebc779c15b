// One test's detail per request, shared by the page and its metadata (React cache dedupes the two).
import { cache } from 'react';
import { parseTestQuery, testDetail } from '@/lib/answers/testDetail';
import { getDb } from '@/lib/server/context';

export { testPermalink } from '@/lib/answers/testComment';

export const loadTest = cache(async (id: string, window?: string, at?: string, job?: string) =>
  testDetail(await getDb(), id, parseTestQuery({ window, at, job })),
);
