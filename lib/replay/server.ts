// The replay server: a plain node:http server that serves a generated sample world (lib/world) in the
// real services' URL shapes — Deck, GCS, Bugzilla, Jira, GitHub, the release controller — as the
// world looked at `now`, with injectable faults. Used by tests and by the offline demo.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { dataJs, prowJobsJs } from './deck';
import { downloadObject, jsonApiObject, listObjects, spyglass } from './gcs';
import { acceptsGzip, jsonReply, textReply, type Reply, type RouteContext, type RouteOptions } from './http';
import { releaseRoute } from './releaseController';
import { bugzillaBugById, bugzillaComments, bugzillaSearch, githubComments, githubIssue1, githubIssues, jiraIssueByKey, jiraSearch } from './trackers';
import { ObjectBytes, loadWorld, type LoadedWorld } from './world';

export interface ReplayFaults {
  /** answer requests whose path+query matches `match` (a regex) with `status`, `times` times */
  status?: { match: string; status: number; times: number }[];
  /** regexes on path+query: the body is cut to half its length (Content-Length says the cut length) */
  truncate?: string[];
  /** delay before every response */
  delayMs?: number;
  /** regexes on path+query: the connection is destroyed without a response */
  resetConnection?: string[];
  /** regexes on GCS object names: those objects are missing (neither listed nor served), as if never uploaded */
  hideObjects?: string[];
}

export interface ReplayServerOptions {
  /** a world directory written by generateWorld (see ensureWorld) */
  dir: string;
  port?: number;
  host?: string;
  /** serve the world as it looked at this time (default: the world's end) */
  now?: Date;
  faults?: ReplayFaults;
  /** data.js field set: current (default) or the 2017–Jan 2019 one */
  deckFormat?: 'current' | '2019';
  /** /data.js answers 404, so clients fall back to /prowjobs.js */
  noDataJs?: boolean;
  /** GCS listing page size cap (default 3, to exercise pagination) */
  gcsPageSize?: number;
  /** Deck lists runs started within this many hours before now (default 72) */
  deckWindowHours?: number;
  /** Jira search page size cap (default 2) */
  jiraPageSize?: number;
  /** GitHub page size cap (default 2) */
  githubPageSize?: number;
  /** keep every request in `requests` (default true; a long-running server does not) */
  recordRequests?: boolean;
  /** extensions of the GCS objects stored gzip-encoded, as Prow's compress_file_types (see LoadOptions) */
  compressFileTypes?: string[];
}

export interface ReplayServer {
  url: string;
  setNow(d: Date): void;
  setFaults(f: ReplayFaults): void;
  /** Deck lists the runs started within this many hours before now from now on (see deckWindowHours) */
  setDeckWindowHours(hours: number): void;
  /** the requests answered (encoding: the response's Content-Encoding, if any) */
  requests: { method: string; path: string; status: number; encoding?: string }[];
  close(): Promise<void>;
}

interface ActiveFaults {
  status: { re: RegExp; status: number; left: number }[];
  truncate: RegExp[];
  delayMs: number;
  reset: RegExp[];
  hidden: RegExp[];
}

function compileFaults(f: ReplayFaults | undefined): ActiveFaults {
  return {
    status: (f?.status ?? []).map((s) => ({ re: new RegExp(s.match), status: s.status, left: s.times })),
    truncate: (f?.truncate ?? []).map((s) => new RegExp(s)),
    delayMs: f?.delayMs ?? 0,
    reset: (f?.resetConnection ?? []).map((s) => new RegExp(s)),
    hidden: (f?.hideObjects ?? []).map((s) => new RegExp(s)),
  };
}

const seg = (s: string) => decodeURIComponent(s);

async function route(ctx: RouteContext): Promise<Reply> {
  const parts = ctx.url.pathname.split('/').slice(1);
  const [a, b, c, d, e] = parts;
  if (ctx.url.pathname === '/data.js') return ctx.options.noDataJs ? textReply(404, '404 page not found\n') : dataJs(ctx);
  if (ctx.url.pathname === '/prowjobs.js') return prowJobsJs(ctx);
  if (a === 'storage' && b === 'v1' && c === 'b' && d && e === 'o') {
    if (parts.length === 5 || (parts.length === 6 && parts[5] === '')) return listObjects(ctx, seg(d));
    return jsonApiObject(ctx, seg(d), parts.slice(5).map(seg).join('/'), false);
  }
  if (a === 'download' && b === 'storage' && c === 'v1' && d === 'b' && parts[5] === 'o' && parts.length > 6) {
    return jsonApiObject(ctx, seg(e), parts.slice(6).map(seg).join('/'), true);
  }
  if (a === 'view' && (b === 'gs' || b === 'gcs') && c) return spyglass(ctx, seg(c), parts.slice(3).map(seg).join('/'));
  if (a === 'rest' && b === 'bug') {
    if (parts.length === 2) return bugzillaSearch(ctx);
    if (/^\d+$/.test(c) && parts.length === 3) return bugzillaBugById(ctx, Number(c));
    if (/^\d+$/.test(c) && d === 'comment' && parts.length === 4) return bugzillaComments(ctx, Number(c));
  }
  if (a === 'rest' && b === 'api' && c === '2') {
    if (d === 'search' && parts.length === 4) return jiraSearch(ctx);
    if (d === 'issue' && e && parts.length === 5) return jiraIssueByKey(ctx, seg(e));
  }
  if (a === 'repos' && parts.length >= 4 && d === 'issues') {
    const repo = `${seg(b)}/${seg(c)}`;
    if (parts.length === 4) return githubIssues(ctx, repo);
    if (/^\d+$/.test(e) && parts.length === 5) return githubIssue1(ctx, repo, Number(e));
    if (/^\d+$/.test(e) && parts[5] === 'comments' && parts.length === 6) return githubComments(ctx, repo, Number(e));
  }
  if (a === 'api' && b === 'v1') {
    const r = releaseRoute(ctx, parts.slice(2).map(seg));
    if (r) return r;
  }
  if (ctx.url.pathname === '/') {
    return textReply(200, `buildcop replay of the sample world (end ${ctx.world.manifest.end}); serving it as of ${new Date(ctx.now * 1000).toISOString()}\n`);
  }
  if (a && parts.length > 1) {
    const r = await downloadObject(ctx, seg(a), parts.slice(1).map(seg).join('/'));
    if (r) return r;
  }
  return jsonReply(404, { error: 'not found', path: ctx.url.pathname });
}

export async function startReplayServer(opts: ReplayServerOptions): Promise<ReplayServer> {
  const world: LoadedWorld = loadWorld(opts.dir, { compressFileTypes: opts.compressFileTypes });
  const options: RouteOptions = {
    deckFormat: opts.deckFormat ?? 'current',
    noDataJs: opts.noDataJs ?? false,
    gcsPageSize: Math.max(1, opts.gcsPageSize ?? 3),
    deckWindowHours: opts.deckWindowHours ?? 72,
    jiraPageSize: Math.max(1, opts.jiraPageSize ?? 2),
    githubPageSize: Math.max(1, opts.githubPageSize ?? 2),
  };
  let now = opts.now ? Math.floor(opts.now.getTime() / 1000) : world.manifest.endUnix;
  let faults = compileFaults(opts.faults);
  const requests: ReplayServer['requests'] = [];
  const record = opts.recordRequests ?? true;
  const sockets = new Set<Socket>();
  let baseUrl = '';
  let bytes: ObjectBytes;

  const server = http.createServer((req, res) => {
    (async () => {
      const url = new URL(req.url ?? '/', 'http://replay.invalid');
      const target = `${url.pathname}${url.search}`;
      const method = req.method ?? 'GET';
      if (faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs));
      if (faults.reset.some((re) => re.test(target))) {
        if (record) requests.push({ method, path: target, status: 0 });
        req.socket.destroy();
        return;
      }
      let reply: Reply;
      const injected = faults.status.find((f) => f.left > 0 && f.re.test(target));
      if (injected) {
        injected.left--;
        reply = jsonReply(injected.status, { error: { code: injected.status, message: 'injected fault' } });
      } else if (method !== 'GET' && method !== 'HEAD') {
        reply = { ...textReply(405, 'method not allowed\n'), headers: { allow: 'GET, HEAD', 'content-type': 'text/plain' } };
      } else {
        try {
          const hidden = faults.hidden;
          reply = await route({ req, url, now, baseUrl, world, bytes, options, hidden: (name) => hidden.length > 0 && hidden.some((re) => re.test(name)) });
        } catch (e) {
          reply = jsonReply(500, { error: (e as Error).message });
        }
      }
      let body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
      // gziphandler's rule: only bodies of at least 1400 bytes are worth it
      if (reply.gzip && body.length >= 1400 && acceptsGzip(req.headers['accept-encoding'])) {
        body = zlib.gzipSync(body);
        reply.headers = { ...reply.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' };
      }
      if (faults.truncate.some((re) => re.test(target))) body = body.subarray(0, Math.floor(body.length / 2));
      res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
      res.end(method === 'HEAD' ? undefined : body);
      if (record) requests.push({ method, path: target, status: reply.status, ...(reply.headers?.['content-encoding'] ? { encoding: reply.headers['content-encoding'] } : {}) });
    })().catch(() => {
      // the client went away mid-reply; nothing to answer
      res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  baseUrl = `http://${host}:${addr.port}`;
  bytes = new ObjectBytes(baseUrl);
  return {
    url: baseUrl,
    setNow(d: Date) {
      now = Math.floor(d.getTime() / 1000);
    },
    setFaults(f: ReplayFaults) {
      faults = compileFaults(f);
    },
    setDeckWindowHours(hours: number) {
      options.deckWindowHours = hours;
    },
    requests,
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
