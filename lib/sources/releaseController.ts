// The release controller's API: the tags of a stream and one payload's verification results.
// Every request goes through the shared HttpClient (allowed hosts, retries, size cap).
import { newestFirst, parseReleaseInfo, parseReleaseTags, type ReleaseInfo, type ReleaseTagEntry } from '../parse/releaseController';
import { HttpError, type HttpClient } from './http';

export class ReleaseControllerError extends Error {
  constructor(
    message: string,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'ReleaseControllerError';
  }
}

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

function apiUrl(base: string, stream: string, ...rest: string[]): string {
  return [`${base.replace(/\/+$/, '')}/api/v1/releasestream`, encodeURIComponent(stream), ...rest.map(encodeURIComponent)].join('/');
}

async function getJson(http: HttpClient, url: string, what: string): Promise<unknown> {
  try {
    return await http.getJson(url, { maxBytes: MAX_RESPONSE_BYTES });
  } catch (e) {
    const status = e instanceof HttpError ? e.status : 0;
    const hint = status === 404 ? ` (HTTP 404: no such ${what} on the release controller)` : '';
    throw new ReleaseControllerError(`release controller: cannot read ${what}: ${(e as Error).message}${hint}`, status);
  }
}

/** The stream's tags, newest first, with any entries that had to be skipped. */
export async function fetchReleaseTags(http: HttpClient, baseUrl: string, stream: string): Promise<{ tags: ReleaseTagEntry[]; problems: string[] }> {
  const body = await getJson(http, `${apiUrl(baseUrl, stream, 'tags')}?format=json`, `the tags of stream "${stream}"`);
  const { value, problems } = parseReleaseTags(body);
  if (problems.length && !value.tags.length) throw new ReleaseControllerError(`release controller: stream "${stream}": ${problems.join('; ')}`);
  return { tags: newestFirst(value.tags), problems: problems.map((p) => `stream "${stream}": ${p}`) };
}

/** One payload's phase and blocking/informing verification jobs. */
export async function fetchReleaseInfo(http: HttpClient, baseUrl: string, stream: string, tag: string): Promise<{ info: ReleaseInfo; problems: string[] }> {
  const body = await getJson(http, apiUrl(baseUrl, stream, 'release', tag), `release "${tag}" of stream "${stream}"`);
  const { value, problems } = parseReleaseInfo(body);
  return { info: value, problems: problems.map((p) => `release "${tag}": ${p}`) };
}
