// One test's detail per request, shared by the page and its metadata (React cache dedupes the two).
import { cache } from 'react';
import { answer } from '@/lib/server/answerPool';

export { testPermalink } from '@/lib/answers/testComment';

/** Failed and flaked runs the page lists at a time (the API's page is RUNS_PAGE): older ones are a link away. */
const PAGE_RUNS = 50;

export const loadTest = cache((id: string, window?: string, at?: string, job?: string, before?: string) => answer('test', { id, window, at, job, before, limit: String(PAGE_RUNS) }));
