// Prow's Deck: the list of recent runs, from /data.js, falling back to /prowjobs.js.
import { parseDeckJobs, parseProwJobsJs } from '../parse/prowMetadata';
import type { ProwRun } from '../parse/types';
import { HttpError, type HttpClient } from './http';

export interface DeckListing {
  runs: ProwRun[];
  /** which endpoint answered */
  source: 'data.js' | 'prowjobs.js';
}

export class SourceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceUnavailableError';
  }
}

/**
 * Deck's listing is one document of every run it remembers: tens of MB at OpenShift CI's scale (24,000
 * runs a day), over a per-artifact cap (ingest.maxFileBytes) a user may well lower. Its own cap is
 * about the longest string V8 can hold.
 */
export const DECK_LISTING_MAX_BYTES = 512 * 1024 * 1024;

export async function fetchDeckRuns(http: HttpClient, prowUrl: string): Promise<DeckListing> {
  const base = prowUrl.replace(/\/$/, '');
  const problems: string[] = [];
  const options = { maxBytes: DECK_LISTING_MAX_BYTES };
  try {
    const text = await http.getText(`${base}/data.js`, options);
    return { runs: parseDeckJobs(text), source: 'data.js' };
  } catch (e) {
    problems.push(`data.js: ${(e as Error).message}`);
    if (e instanceof HttpError && e.status === 0 && /refusing/.test(e.message)) throw new SourceUnavailableError(problems.join('; '));
  }
  try {
    const text = await http.getText(`${base}/prowjobs.js?omit=annotations,labels,decoration_config,pod_spec`, options);
    return { runs: parseProwJobsJs(text), source: 'prowjobs.js' };
  } catch (e) {
    problems.push(`prowjobs.js: ${(e as Error).message}`);
  }
  throw new SourceUnavailableError(`cannot read the list of runs from Prow at ${base}: ${problems.join('; ')}`);
}
