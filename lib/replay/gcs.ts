// Google Cloud Storage as the replay server serves it: the JSON API listing (prefix, delimiter,
// startOffset, endOffset, pageToken, maxResults, fields, matchGlob), object metadata and media, the XML-API style download path
// /<bucket>/<object>, and a tiny Spyglass stand-in under /view/gs/. Objects exist once visibleAt <= now.
import { contentTypeFor, type IndexedObject, type LoadedWorld, type ObjectBytes } from './world';
import type { Reply, RouteContext } from './http';
import { acceptsGzip, htmlEscape, jsonReply, parseFields, selectFields, textReply } from './http';
import { globToRegExp } from '../sources/gcsGlob';

function lowerBound(list: IndexedObject[], name: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].name < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** the smallest string greater than every string starting with `p` */
function afterPrefix(p: string): string {
  return p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1);
}

interface PageToken {
  /** 'o' = object name, 'p' = prefix */
  k: 'o' | 'p';
  n: string;
}

function encodeToken(t: PageToken): string {
  return Buffer.from(JSON.stringify(t), 'utf8').toString('base64url');
}

function decodeToken(s: string): PageToken | undefined {
  try {
    const t = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as PageToken;
    return (t.k === 'o' || t.k === 'p') && typeof t.n === 'string' ? t : undefined;
  } catch {
    return undefined;
  }
}

function gcsError(code: number, message: string, reason: string): Reply {
  return jsonReply(code, { error: { code, message, errors: [{ message, domain: 'global', reason }] } });
}

// An object's JSON resource and download headers never change (the world is fixed, and each server
// loads its own objects, see loadWorld): each is built once, not per request (a pass of ingest lists
// and downloads thousands).
const resources = new WeakMap<IndexedObject, Record<string, unknown>>();
const mediaHeaders = new WeakMap<IndexedObject, Record<string, string>>();

async function objectResource(o: IndexedObject, bytes: ObjectBytes, base: string): Promise<Record<string, unknown>> {
  let r = resources.get(o);
  if (!r) resources.set(o, (r = await buildResource(o, bytes, base)));
  return r;
}

async function buildResource(o: IndexedObject, bytes: ObjectBytes, base: string): Promise<Record<string, unknown>> {
  const { size, md5 } = await bytes.meta(o);
  const enc = encodeURIComponent(o.name);
  const updated = new Date(o.visibleAt * 1000 + (Number(o.generation.slice(-3)) % 1000)).toISOString();
  return {
    kind: 'storage#object',
    id: `${o.bucket}/${o.name}/${o.generation}`,
    selfLink: `${base}/storage/v1/b/${o.bucket}/o/${enc}`,
    mediaLink: `${base}/download/storage/v1/b/${o.bucket}/o/${enc}?generation=${o.generation}&alt=media`,
    name: o.name,
    bucket: o.bucket,
    generation: o.generation,
    metageneration: '1',
    contentType: contentTypeFor(o.name),
    ...(o.gzip ? { contentEncoding: 'gzip' } : {}),
    storageClass: 'STANDARD',
    size: String(size),
    md5Hash: md5,
    etag: `C${o.generation.slice(-8)}EAE=`,
    timeCreated: updated,
    updated,
    timeStorageClassUpdated: updated,
  };
}

// A glob listing of a fixed world finds the same objects every time (visibility aside), so each
// (prefix, glob) is matched once per bucket: GCS filters at no cost to its clients, and the stand-in
// should not spend a shared core on it while an ingest is measured (as ObjectBytes).
const globMatches = new WeakMap<IndexedObject[], Map<string, IndexedObject[] | null>>();

/** The objects of `list` under `prefix` that `glob` matches, in name order; null for a malformed glob. */
function matching(list: IndexedObject[], prefix: string, glob: string): IndexedObject[] | null {
  let byQuery = globMatches.get(list);
  if (!byQuery) globMatches.set(list, (byQuery = new Map()));
  const key = `${prefix}\n${glob}`;
  let found = byQuery.get(key);
  if (found === undefined) {
    const re = globToRegExp(glob);
    found = re ? [] : null;
    for (let i = lowerBound(list, prefix); re && i < list.length && list[i].name.startsWith(prefix); i++) if (re.test(list[i].name)) found!.push(list[i]);
    if (byQuery.size >= 100_000) byQuery.clear(); // bounded: a client inventing globs cannot grow it for ever
    byQuery.set(key, found);
  }
  return found;
}

export async function listObjects(ctx: RouteContext, bucket: string): Promise<Reply> {
  const all = ctx.world.objects.get(bucket);
  if (!all) return gcsError(404, 'The specified bucket does not exist.', 'notFound');
  const q = ctx.url.searchParams;
  const fields = q.has('fields') ? parseFields(q.get('fields')!) : undefined;
  if (q.has('fields') && !fields) return gcsError(400, `Invalid field selection ${q.get('fields')}`, 'invalidParameter');
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  const glob = q.get('matchGlob');
  const list = glob === null ? all : matching(all, prefix, glob);
  if (!list) return gcsError(400, `Invalid matchGlob ${glob}`, 'invalid');
  // names from startOffset (included) to endOffset (excluded), as GCS filters them
  const startOffset = q.get('startOffset') ?? '';
  const endOffset = q.get('endOffset') || undefined;
  const maxResults = Math.max(1, Number(q.get('maxResults') ?? 1000) || 1000);
  const pageSize = Math.min(maxResults, ctx.options.gcsPageSize);
  const tokenText = q.get('pageToken');
  let start = Math.max(lowerBound(list, prefix), lowerBound(list, startOffset));
  if (tokenText) {
    const token = decodeToken(tokenText);
    if (!token) return gcsError(400, 'Invalid page token', 'invalid');
    start = Math.max(start, lowerBound(list, token.k === 'p' ? afterPrefix(token.n) : `${token.n}\u0000`));
  }
  const items: Record<string, unknown>[] = [];
  const prefixes: string[] = [];
  let last: PageToken | undefined;
  let more = false;
  for (let i = start; i < list.length; i++) {
    const o = list[i];
    if (!o.name.startsWith(prefix) || (endOffset !== undefined && o.name >= endOffset)) break;
    if (o.visibleAt > ctx.now || ctx.hidden(o.name)) continue;
    const cut = delimiter ? o.name.indexOf(delimiter, prefix.length) : -1;
    const entry: PageToken = cut >= 0 ? { k: 'p', n: o.name.slice(0, cut + delimiter.length) } : { k: 'o', n: o.name };
    if (entry.k === 'p' && last?.k === 'p' && last.n === entry.n) continue;
    if (items.length + prefixes.length >= pageSize) {
      more = true;
      break;
    }
    if (entry.k === 'p') prefixes.push(entry.n);
    else items.push(await objectResource(o, ctx.bytes, ctx.baseUrl));
    last = entry;
  }
  const body: Record<string, unknown> = { kind: 'storage#objects' };
  if (more && last) body.nextPageToken = encodeToken(last);
  if (prefixes.length) body.prefixes = prefixes;
  if (items.length) body.items = items;
  return jsonReply(200, fields ? selectFields(body, fields) : body);
}

export function findObject(ctx: RouteContext, bucket: string, name: string): IndexedObject | undefined {
  const list = ctx.world.objects.get(bucket);
  if (!list) return undefined;
  const o = list[lowerBound(list, name)];
  return o && o.name === name && o.visibleAt <= ctx.now && !ctx.hidden(name) ? o : undefined;
}

/**
 * An object's bytes. One stored gzip-encoded goes as stored to a client that accepts gzip, and
 * inflated, whole, to one that does not (GCS's decompressive transcoding, which ignores Range).
 */
async function media(ctx: RouteContext, o: IndexedObject): Promise<Reply> {
  const { data, md5 } = await ctx.bytes.stored(o);
  let headers = mediaHeaders.get(o);
  if (!headers) {
    headers = {
      'content-type': contentTypeFor(o.name),
      'x-goog-generation': o.generation,
      'x-goog-hash': `md5=${md5}`,
      'last-modified': new Date(o.visibleAt * 1000).toUTCString(),
      'accept-ranges': 'bytes',
      ...(o.gzip ? { 'x-goog-stored-content-encoding': 'gzip', 'x-goog-stored-content-length': String(data.length) } : {}),
    };
    mediaHeaders.set(o, headers);
  }
  if (o.gzip) {
    if (!acceptsGzip(ctx.req.headers['accept-encoding'])) return { status: 200, headers: { ...headers, warning: '214 UploadServer gcs-transcoding' }, body: await ctx.bytes.read(o), object: true };
    headers = { ...headers, 'content-encoding': 'gzip' };
  }
  const range = /^bytes=(\d*)-(\d*)$/.exec(ctx.req.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    const size = data.length;
    const from = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const to = range[1] && range[2] ? Math.min(size - 1, Number(range[2])) : size - 1;
    if (from >= size || from > to) return { status: 416, headers: { 'content-range': `bytes */${size}` }, body: '' };
    return { status: 206, headers: { ...headers, 'content-range': `bytes ${from}-${to}/${size}` }, body: data.subarray(from, to + 1), object: true };
  }
  return { status: 200, headers, body: data, object: true };
}

function noSuchKey(bucket: string, name: string): Reply {
  const xml = `<?xml version='1.0' encoding='UTF-8'?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Details>No such object: ${htmlEscape(bucket)}/${htmlEscape(name)}</Details></Error>`;
  return { status: 404, headers: { 'content-type': 'application/xml; charset=UTF-8' }, body: xml };
}

/** GET /<bucket>/<object> (storage.googleapis.com style) */
export async function downloadObject(ctx: RouteContext, bucket: string, name: string): Promise<Reply | undefined> {
  if (!ctx.world.objects.has(bucket)) return undefined;
  const o = findObject(ctx, bucket, name);
  return o ? media(ctx, o) : noSuchKey(bucket, name);
}

/** GET /storage/v1/b/<bucket>/o/<object>[?alt=media] and /download/storage/v1/… */
export async function jsonApiObject(ctx: RouteContext, bucket: string, name: string, forceMedia: boolean): Promise<Reply> {
  if (!ctx.world.objects.has(bucket)) return gcsError(404, 'The specified bucket does not exist.', 'notFound');
  const o = findObject(ctx, bucket, name);
  if (!o) return gcsError(404, `No such object: ${bucket}/${name}`, 'notFound');
  if (forceMedia || ctx.url.searchParams.get('alt') === 'media') return media(ctx, o);
  return jsonReply(200, await objectResource(o, ctx.bytes, ctx.baseUrl));
}

/** GET /view/gs/<bucket>/<run path>: a small page standing in for Spyglass */
export function spyglass(ctx: RouteContext, bucket: string, runPath: string): Reply {
  const clean = runPath.replace(/\/+$/, '');
  const run = ctx.world.runs.find((r) => r.bucket === bucket && r.gcsPath === clean && r.started <= ctx.now);
  if (!run) return textReply(404, `no run at gs://${bucket}/${clean}\n`);
  const state = run.finished > ctx.now ? 'pending' : run.state;
  const files = (ctx.world.objects.get(bucket) ?? []).filter((o) => o.name.startsWith(`${clean}/`) && o.visibleAt <= ctx.now);
  const links = files.map((o) => `<li><a href="/${htmlEscape(bucket)}/${htmlEscape(o.name)}">${htmlEscape(o.name.slice(clean.length + 1))}</a></li>`).join('\n');
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${htmlEscape(run.job)} #${htmlEscape(run.buildId)}</title></head>
<body><h1>${htmlEscape(run.job)} #${htmlEscape(run.buildId)}</h1>
<p>State: <b>${htmlEscape(state)}</b>. Started ${new Date(run.started * 1000).toISOString()}${state === 'pending' ? '' : `, finished ${new Date(run.finished * 1000).toISOString()}`}.</p>
<p>Artifacts in gs://${htmlEscape(bucket)}/${htmlEscape(clean)}/ (replay of the sample world; the real Spyglass renders these):</p>
<ul>
${links}
</ul></body></html>
`;
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
}
