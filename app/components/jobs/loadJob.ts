// One job's detail per request, shared by the page and its metadata.
import { cache } from 'react';
import { answer } from '@/lib/server/answerPool';

export const loadJob = cache((name: string, window?: string, at?: string) => answer('job', { name, window, at }));
