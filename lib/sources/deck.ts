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

export async function fetchDeckRuns(http: HttpClient, prowUrl: string): Promise<DeckListing> {
  const base = prowUrl.replace(/\/$/, '');
  const problems: string[] = [];
  try {
    const text = await http.getText(`${base}/data.js`);
    return { runs: parseDeckJobs(text), source: 'data.js' };
  } catch (e) {
    problems.push(`data.js: ${(e as Error).message}`);
    if (e instanceof HttpError && e.status === 0 && /refusing/.test(e.message)) throw new SourceUnavailableError(problems.join('; '));
  }
  try {
    const text = await http.getText(`${base}/prowjobs.js?omit=annotations,labels,decoration_config,pod_spec`);
    return { runs: parseProwJobsJs(text), source: 'prowjobs.js' };
  } catch (e) {
    problems.push(`prowjobs.js: ${(e as Error).message}`);
  }
  throw new SourceUnavailableError(`cannot read the list of runs from Prow at ${base}: ${problems.join('; ')}`);
}
