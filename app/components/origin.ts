// The request's trusted origin for the pages ('' when links must be relative): see lib/server/origin.ts.
import { headers } from 'next/headers';
import { trustedOrigin } from '@/lib/server/origin';

export async function requestOrigin(): Promise<string> {
  return trustedOrigin(process.env, await headers());
}
