// One test's detail per request, shared by the page and its metadata (React cache dedupes the two).
import { cache } from 'react';
import { answer } from '@/lib/server/answerPool';

export { testPermalink } from '@/lib/answers/testComment';

export const loadTest = cache((id: string, window?: string, at?: string, job?: string) => answer('test', { id, window, at, job }));
