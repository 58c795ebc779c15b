// The HTTP client every source uses, against a real local HTTP server: allowed hosts only,
// retries with backoff on 5xx and dropped connections, no retry on 404, size cap, redirects.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GcsClient } from '../../lib/sources/gcs';
import { HttpClient, HttpError, retryAfterMs } from '../../lib/sources/http';

let server: http.Server;
let base: string;
let host: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const n = (hits.get(req.url!) ?? 0) + 1;
    hits.set(req.url!, n);
    if (req.url === '/flaky' && n <= 2) return void res.writeHead(503).end('busy');
    if (req.url === '/flaky') return void res.end('ok');
    if (req.url === '/busy' && n === 1) return void res.writeHead(429, { 'retry-after': '1' }).end('slow down');
    if (req.url === '/busy') return void res.end('ok');
    if (req.url === '/missing') return void res.writeHead(404).end('no');
    if (req.url === '/big') return void res.end(Buffer.alloc(5000));
    if (req.url === '/cut' && n === 1) {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
      return void res.destroy();
    }
    if (req.url === '/cut') return void res.end('x'.repeat(100));
    if (req.url === '/away') return void res.writeHead(302, { location: 'http://elsewhere.example/x' }).end();
    if (req.url === '/here') return void res.writeHead(302, { location: '/flaky-free' }).end();
    if (req.url === '/flaky-free') return void res.end('moved');
    if (req.url === '/silent') return; // never answers
    if (req.url === '/drip') {
      // a byte every 20 ms: no wait is long, the whole never ends
      res.writeHead(200, { 'content-length': '100000' });
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('x')), 20);
      return void res.on('close', () => clearInterval(t));
    }
    // GCS listings with junk in them
    if (req.url!.startsWith('/storage/v1/b/junk/o?')) return void res.end('{"items": 0}');
    if (req.url!.startsWith('/storage/v1/b/mixed/o?')) return void res.end('{"items": [5, null, {"name": 7}, {"name": "run/build-log.txt", "size": "12", "md5Hash": "x"}]}');
    // a GCS-compatible server without matchGlob: refuses it, lists without it
    if (req.url!.startsWith('/storage/v1/b/noglob/o?')) {
      if (req.url!.includes('matchGlob=')) return void res.writeHead(400).end('{"error": {"code": 400, "message": "Invalid argument"}}');
      return void res.end('{"items": [{"name": "run/finished.json", "size": "2"}, {"name": "run/artifacts/pods/x.log", "size": "9"}]}');
    }
    // one that ignores matchGlob: answers every listing in full
    if (req.url!.startsWith('/storage/v1/b/globblind/o?')) {
      return void res.end('{"items": [{"name": "run/finished.json", "size": "2"}, {"name": "run/artifacts/pods/x.log", "size": "9"}]}');
    }
    // gzip as Deck's gziphandler and GCS's stored-gzip objects send it: only to a client that asks
    if (req.url === '/gz') {
      const text = 'data.js '.repeat(1000);
      if (!/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) return void res.end(text);
      return void res.writeHead(200, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' }).end(zlib.gzipSync(text));
    }
    if (req.url === '/gz-bomb') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(10_000_000)));
    if (req.url === '/gz-moved') return void res.writeHead(302, { location: '/gz', 'content-encoding': 'gzip' }).end();
    if (req.url === '/gz-gone') return void res.writeHead(404, { 'content-encoding': 'gzip' }).end('not gzip');
    if (req.url === '/br') return void res.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync('brotli anyway'));
    if (req.url === '/deflate') return void res.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateSync('deflate anyway'));
    if (req.url === '/zstd') return void res.writeHead(200, { 'content-encoding': 'zstd' }).end('(zstd bytes)');
    if (req.url === '/gz-not') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end('plain text, not gzip');
    if (req.url === '/gz-cut') {
      // no declared length, the stream ends early the first time
      const gz = zlib.gzipSync('x'.repeat(100_000) + 'end');
      res.writeHead(200, { 'content-encoding': 'gzip' });
      return void res.end(n === 1 ? gz.subarray(0, gz.length - 20) : gz);
    }
    if (req.url === '/headers') return void res.writeHead(200, [['Link', '<a>; rel="next"'], ['X-Goog-Generation', '17'], ['link', '<b>; rel="last"']]).end('h');
    if (req.url === '/streamed') {
      // no content-length: the cap applies while the body arrives
      res.writeHead(200);
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500));
      return void res.end();
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `http://${host}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (over = {}) => new HttpClient({ allowedHosts: new Set([host]), retries: 3, retryBaseMs: 5, ...over });

describe('HttpClient', () => {
  it('refuses hosts not named in the configuration, before any request', async () => {
    const c = client();
    await expect(c.get('http://example.com/data.js')).rejects.toThrow(/refusing to contact example\.com/);
    expect(c.stats.requests).toBe(0);
  });
  it('retries 5xx with backoff, then succeeds', async () => {
    const c = client();
    expect(await c.getText(`${base}/flaky`)).toBe('ok');
    expect(c.stats.retries).toBe(2);
  });
  it('waits as long as Retry-After asks before retrying, within the timeout', async () => {
    const c = client();
    const t0 = Date.now();
    expect(await c.getText(`${base}/busy`)).toBe('ok');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(c.stats.retries).toBe(1);
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBe(0);
  });
  it('does not retry a 404 and says what failed', async () => {
    const c = client();
    const e = (await c.get(`${base}/missing`).catch((x) => x)) as HttpError;
    expect(e).toBeInstanceOf(HttpError);
    expect(e.status).toBe(404);
    expect(e.message).toBe(`GET ${base}/missing: HTTP 404`);
    expect(c.stats.retries).toBe(0);
  });
  it('returns accepted statuses instead of throwing', async () => {
    expect((await client().get(`${base}/missing`, { accept: [404] })).status).toBe(404);
  });
  it('caps the size of a response, declared or not', async () => {
    await expect(client().get(`${base}/big`, { maxBytes: 1000 })).rejects.toThrow(/5000 bytes is over the 1000-byte cap/);
    await expect(client().get(`${base}/streamed`, { maxBytes: 1000 })).rejects.toThrow(/over the 1000-byte cap/);
    expect((await client().get(`${base}/streamed`)).body.length).toBe(5000);
  });
  it('reads headers case-insensitively, joining repeated ones', async () => {
    const { headers } = await client().get(`${base}/headers`);
    expect(headers.get('LINK')).toBe('<a>; rel="next", <b>; rel="last"');
    expect(headers.get('x-goog-generation')).toBe('17');
    expect(headers.get('etag')).toBeNull();
  });
  it('retries a download cut short', async () => {
    const c = client();
    expect((await c.getText(`${base}/cut`)).length).toBe(100);
    expect(c.stats.retries).toBe(1);
  });
  it('gives up after the last retry with the reason', async () => {
    await expect(client({ retries: 1 }).get(`${base}/always-500`)).rejects.toThrow(/HTTP 500 \(after 2 attempts\)/);
  });
  it('follows redirects only to allowed hosts', async () => {
    expect(await client().getText(`${base}/here`)).toBe('moved');
    await expect(client().get(`${base}/away`)).rejects.toThrow(/refusing to contact elsewhere\.example/);
  });
  it('gives up on a server that never answers, saying it timed out', async () => {
    await expect(client({ retries: 1, timeoutMs: 100, deadlineMs: 10_000 }).get(`${base}/silent`)).rejects.toThrow(/timed out after 100 ms \(after 2 attempts\)/);
  });
  it('gives up on an attempt past its deadline, even when the body keeps trickling in', async () => {
    const c = client({ retries: 1, timeoutMs: 1000, deadlineMs: 300 });
    await expect(c.get(`${base}/drip`)).rejects.toThrow(/\/drip: not complete after 300 ms \(\d+ bytes so far\) \(after 2 attempts\)$/);
    expect(c.stats.retries).toBe(1);
    c.close();
  });
  it('asks for gzip and inflates what comes gzip-encoded', async () => {
    const c = client();
    const res = await c.get(`${base}/gz`);
    expect(res.body.toString()).toBe('data.js '.repeat(1000));
    expect(res.wireBytes).toBeLessThan(200);
    expect(c.stats).toMatchObject({ bytes: 8000, wireBytes: res.wireBytes });
    // a caller may still ask for the plain body
    expect((await c.get(`${base}/gz`, { headers: { 'accept-encoding': 'identity' } })).wireBytes).toBe(8000);
  });
  it('caps a gzip-encoded body once inflated, without inflating past the cap', async () => {
    const c = client();
    const e = (await c.get(`${base}/gz-bomb`, { maxBytes: 1_000_000 }).catch((x) => x)) as HttpError;
    expect(e.status).toBe(413);
    expect(e.message).toMatch(/\/gz-bomb: over the 1000000-byte cap once inflated \(\d+ bytes gzip-encoded\)/);
    expect(c.stats.retries).toBe(0);
    expect((await c.get(`${base}/gz-bomb`)).body.length).toBe(10_000_000);
  });
  it('says a body that claims gzip and is not cannot be inflated, without retrying', async () => {
    const c = client();
    await expect(c.get(`${base}/gz-not`)).rejects.toThrow(/\/gz-not: the gzip-encoded body cannot be inflated: /);
    expect(c.stats.retries).toBe(0);
  });
  it('follows a redirect that claims gzip with no body, and reports the status of an error whose body is not gzip', async () => {
    expect((await client().getText(`${base}/gz-moved`)).startsWith('data.js ')).toBe(true);
    await expect(client().get(`${base}/gz-gone`)).rejects.toThrow(/\/gz-gone: HTTP 404$/);
  });
  it('reads deflate and brotli sent without being asked for, and says what it cannot read', async () => {
    expect(await client().getText(`${base}/br`)).toBe('brotli anyway');
    expect(await client().getText(`${base}/deflate`)).toBe('deflate anyway');
    await expect(client().get(`${base}/zstd`)).rejects.toThrow(/\/zstd: the body is in a content coding buildcop cannot read: "zstd"$/);
  });
  it('retries a gzip stream cut short', async () => {
    const c = client();
    expect((await c.getText(`${base}/gz-cut`)).endsWith('end')).toBe(true);
    expect(c.stats.retries).toBe(1);
  });
  it('rejects a body that is not JSON with a readable message', async () => {
    await expect(client().getJson(`${base}/flaky-free`)).rejects.toThrow(/is not valid JSON .*"moved"/);
  });
});

describe('GcsClient listing', () => {
  it('says which listing is malformed, and skips entries that are not objects', async () => {
    const gcs = new GcsClient(client(), base);
    await expect(gcs.list('junk', 'run/')).rejects.toThrow(/^GCS listing http:\S+\/storage\/v1\/b\/junk\/o\?\S+: "items" is not an array$/);
    expect(await gcs.list('mixed', 'run/')).toEqual([{ name: 'run/build-log.txt', size: 12, version: 'x/' }]);
  });

  it('lists in full from a server that refuses matchGlob, and stops asking it with one', async () => {
    const warnings: string[] = [];
    const gcs = new GcsClient(client(), base, (m) => warnings.push(m));
    const full = [{ name: 'run/finished.json', size: 2, version: '/' }, { name: 'run/artifacts/pods/x.log', size: 9, version: '/' }];
    const globbed = () => [...hits.keys()].filter((u) => u.startsWith('/storage/v1/b/noglob/o?') && u.includes('matchGlob=')).reduce((n, u) => n + hits.get(u)!, 0);
    expect(await gcs.list('noglob', 'run/', 'run/*.json')).toEqual(full);
    expect(globbed()).toBe(1); // a 400 is not retried
    expect(await gcs.list('noglob', 'run/', 'run/*.json')).toEqual(full);
    expect(globbed()).toBe(1);
    expect(gcs.globDisabled).toMatch(/^the server refused matchGlob \(.*HTTP 400.*\): folders are listed in full$/);
    expect(warnings).toEqual([`GCS ${base}: ${gcs.globDisabled}`]);
  });

  it('checks the first glob listing against a full one, and lists in full from a server that reads globs otherwise', async () => {
    const warnings: string[] = [];
    const gcs = new GcsClient(client(), base, (m) => warnings.push(m));
    expect(await gcs.list('globblind', 'run/', 'run/*.json')).toEqual([
      { name: 'run/finished.json', size: 2, version: '/' },
      { name: 'run/artifacts/pods/x.log', size: 9, version: '/' },
    ]);
    expect(gcs.globDisabled).toBe("the server's matchGlob listing of gs://globblind/run/ has 2 objects where GCS's reading of the glob has 1: folders are listed in full");
    expect(warnings).toHaveLength(1);
  });
});
