// Requests as a client (or an attacker) may send them, which fetch() would not: any Host header, a
// body that comes slowly or never ends.
import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request over its own connection; `body` is sent whole. */
export function rawRequest(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A request whose body starts and then stalls: it holds its place until `release()`. */
export function stalledBody(base: string, path: string, declaredBytes: number): { answer: Promise<RawAnswer | Error>; release(): void } {
  const u = new URL(path, base);
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(declaredBytes) } });
  const answer = new Promise<RawAnswer | Error>((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', (e) => resolve(e));
  });
  req.write('{"token": "');
  return { answer, release: () => req.destroy() };
}
