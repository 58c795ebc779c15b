// Google Cloud Storage, read through the public JSON API (listing) and the object URLs (download).
import { globToRegExp } from './gcsGlob';
import { HttpError, type HttpClient, type RequestOptions } from './http';

export interface GcsObject {
  name: string;
  size: number;
  /** md5Hash or generation: what changes when the object is rewritten */
  version: string;
}

interface ListingPage {
  items?: { name: string; size?: string | number; md5Hash?: string; generation?: string }[];
  prefixes?: string[];
  nextPageToken?: string;
}

/** One level of a folder (a listing with `delimiter=/`): its objects, and its sub-folders' prefixes. */
export interface FolderLevel {
  objects: GcsObject[];
  /** `<prefix><name>/`, in name order */
  prefixes: string[];
}

/** The names a listing is limited to: from `startOffset` (included) to `endOffset` (excluded), as GCS reads them. */
export interface NameRange {
  startOffset?: string;
  endOffset?: string;
}

type ListingQuery = NameRange & { matchGlob?: string; delimiter?: string };

export class GcsClient {
  private readonly base: string;

  /** `warn`: where a notice for the operator goes (once per client: see disableGlob) */
  constructor(
    private readonly http: HttpClient,
    baseUrl: string,
    private readonly warn: (message: string) => void = (message) => process.emitWarning(message, { code: 'BUILDCOP_GCS_GLOB' }),
  ) {
    this.base = baseUrl.replace(/\/$/, '');
  }

  /** Why this client lists without `matchGlob`: the server refused it, or reads it otherwise than GCS. */
  globDisabled: string | undefined;
  /** whether the server's glob listings can be used, once its first one was checked */
  private globTrusted: Promise<boolean> | undefined;

  /**
   * Every object under prefix (recursive), following nextPageToken. With `matchGlob` (GCS glob syntax,
   * matched against whole object names) only the objects that match, where the server filters: a run
   * folder holds thousands of gathered artifacts and a pass wants a handful. The server's first glob
   * listing is checked against a full listing filtered by GCS's reading of the glob; a server that
   * refuses globs (400) or reads them otherwise is listed in full from then on (see globDisabled).
   */
  async list(bucket: string, prefix: string, matchGlob?: string): Promise<GcsObject[]> {
    while (matchGlob && this.globDisabled === undefined) {
      const own = !this.globTrusted;
      if (own) {
        this.globTrusted = this.checkGlob(bucket, prefix, matchGlob).catch((e: unknown) => {
          this.globTrusted = undefined; // not answered: the next listing checks again
          throw e;
        });
      }
      try {
        if (await this.globTrusted) return (await this.listPages(bucket, prefix, { matchGlob })).objects;
      } catch (e) {
        if (own) throw e; // this folder could not be listed
        continue; // another folder could not: check with this one
      }
    }
    return (await this.listPages(bucket, prefix)).objects;
  }

  /**
   * One level under `prefix` (ending in /), `delimiter=/`, following nextPageToken, within `range`:
   * a job's build folders without the thousands of objects each holds.
   */
  listLevel(bucket: string, prefix: string, range: NameRange = {}): Promise<FolderLevel> {
    return this.listPages(bucket, prefix, { ...range, delimiter: '/' });
  }

  private async checkGlob(bucket: string, prefix: string, matchGlob: string): Promise<boolean> {
    let globbed: GcsObject[];
    try {
      globbed = (await this.listPages(bucket, prefix, { matchGlob })).objects;
    } catch (e) {
      if (!(e instanceof HttpError && e.status === 400)) throw e;
      return this.disableGlob(`the server refused matchGlob (${e.message})`);
    }
    const re = globToRegExp(matchGlob);
    const expected = (await this.listPages(bucket, prefix)).objects.filter((o) => re?.test(o.name)).map((o) => o.name);
    const got = globbed.map((o) => o.name);
    if (re && got.length === expected.length && got.every((name, i) => name === expected[i])) return true;
    return this.disableGlob(`the server's matchGlob listing of gs://${bucket}/${prefix} has ${got.length} objects where GCS's reading of the glob has ${expected.length}`);
  }

  private disableGlob(why: string): false {
    this.globDisabled = `${why}: folders are listed in full`;
    // once per client (per pass), wherever the listing runs (a reader thread too)
    this.warn(`GCS ${this.base}: ${this.globDisabled}`);
    return false;
  }

  private async listPages(bucket: string, prefix: string, query: ListingQuery = {}): Promise<FolderLevel> {
    const out: GcsObject[] = [];
    const prefixes: string[] = [];
    let pageToken: string | undefined;
    const seen = new Set<string>();
    do {
      const q = new URLSearchParams({ prefix, fields: `items(name,size,md5Hash,generation),${query.delimiter ? 'prefixes,' : ''}nextPageToken` });
      for (const k of ['delimiter', 'startOffset', 'endOffset', 'matchGlob'] as const) if (query[k]) q.set(k, query[k]);
      if (pageToken) q.set('pageToken', pageToken);
      const url = `${this.base}/storage/v1/b/${encodeURIComponent(bucket)}/o?${q}`;
      const page = await this.http.getJson<ListingPage>(url);
      if (typeof page !== 'object' || page === null) throw new Error(`GCS listing ${url}: not a JSON object`);
      if (page.items !== undefined && !Array.isArray(page.items)) throw new Error(`GCS listing ${url}: "items" is not an array`);
      if (page.prefixes !== undefined && !Array.isArray(page.prefixes)) throw new Error(`GCS listing ${url}: "prefixes" is not an array`);
      for (const it of page.items ?? []) {
        if (typeof it?.name !== 'string') continue;
        out.push({ name: it.name, size: Number(it.size ?? 0), version: `${it.md5Hash ?? ''}/${it.generation ?? ''}` });
      }
      for (const p of page.prefixes ?? []) if (typeof p === 'string') prefixes.push(p);
      pageToken = typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined;
      // A server that repeats a token would loop forever; stop instead.
      if (pageToken && seen.has(pageToken)) throw new Error(`GCS listing of gs://${bucket}/${prefix} repeats page token ${pageToken}`);
      if (pageToken) seen.add(pageToken);
    } while (pageToken);
    return { objects: out, prefixes };
  }

  objectUrl(bucket: string, name: string): string {
    // most names need no escaping: skip splitting them (thousands of downloads a pass)
    const path = /^[\w.~/-]*$/.test(name) ? name : name.split('/').map(encodeURIComponent).join('/');
    return `${this.base}/${encodeURIComponent(bucket)}/${path}`;
  }

  async download(bucket: string, name: string, options?: RequestOptions): Promise<Buffer> {
    return (await this.http.get(this.objectUrl(bucket, name), options)).body;
  }
}
