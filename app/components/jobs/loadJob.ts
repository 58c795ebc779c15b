// One job's detail per request, shared by the page and its metadata.
import { cache } from 'react';
import { jobDetail, parseJobsQuery } from '@/lib/answers/jobs';
import { getConfig, getDb } from '@/lib/server/context';

export const loadJob = cache(async (name: string, window?: string, at?: string) => jobDetail(await getDb(), name, parseJobsQuery({ window, at }), getConfig()));
