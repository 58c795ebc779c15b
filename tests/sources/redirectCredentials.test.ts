// Credentials and redirects, on real HTTP and HTTPS servers over loopback: a source's credentials
// (the GitHub token's Authorization, or any header that carries one) go to the origin they were
// configured for, and follow a redirect only within it: never to another host or port, never from
// https to http. GitHub answers a renamed repository's URLs with a 301 to /repositories/<id>/...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchGithub } from '../../lib/sources/github';
import { HttpClient } from '../../lib/sources/http';

const TOKEN = 'ghp_redirect_test_token_0123456789abcdef';
const CREDENTIALS = { authorization: `Bearer ${TOKEN}`, cookie: 'session=secret', 'x-api-key': 'secret-key' };

interface Seen { server: string; path: string; headers: http.IncomingHttpHeaders }
const seen: Seen[] = [];
const servers: (http.Server | https.Server)[] = [];

/** An issue as GitHub's API gives one (no comments: one request per issue). */
const issue = (n: number) => ({ number: n, title: `issue ${n}`, state: 'open', body: '', comments: 0, labels: [], html_url: `https://github.com/kubernetes/kubernetes/issues/${n}`, updated_at: '2026-11-20T10:00:00Z' });

function listen(name: string, server: http.Server | https.Server, redirectTo: () => string): Promise<string> {
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ server: name, path: req.url!, headers: req.headers });
    const m = /\/issues\/(\d+)$/.exec(req.url!);
    if (req.url!.startsWith('/repos/')) return void res.writeHead(301, { location: `${redirectTo()}/repositories/20580498/issues/${m?.[1] ?? 0}` }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(issue(Number(m?.[1] ?? 0))));
  });
  servers.push(server);
  const proto = server instanceof https.Server ? 'https' : 'http';
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`${proto}://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** A self-signed certificate for 127.0.0.1, or null where openssl is missing. */
function selfSigned(): { key: Buffer; cert: Buffer } | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return { key: fs.readFileSync(`${dir}/key.pem`), cert: fs.readFileSync(`${dir}/cert.pem`) };
  } catch {
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let github: string; // answers /repos/... with a redirect to `elsewhere`
let sameOrigin: string; // answers /repos/... with a redirect to itself
let elsewhere: string;
let secure: string | undefined; // https, redirecting to http `elsewhere`
const tls = selfSigned();

beforeAll(async () => {
  elsewhere = await listen('elsewhere', http.createServer(), () => elsewhere);
  github = await listen('github', http.createServer(), () => elsewhere);
  sameOrigin = await listen('same-origin', http.createServer(), () => sameOrigin);
  if (tls) {
    secure = await listen('secure', https.createServer(tls), () => elsewhere);
    // the test's own certificate: the client's checks stay as they are, this process trusts it
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  }
});
afterAll(async () => {
  delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  for (const s of servers) await new Promise((r) => s.close(r));
});

const client = (...bases: string[]) => new HttpClient({ allowedHosts: new Set(bases.map((b) => new URL(b).host)), retries: 0 });
const on = (server: string) => seen.filter((s) => s.server === server);

describe('credentials on a redirect', () => {
  it("the GitHub token is not sent to the host a redirect leads to, and the issue still comes back", async () => {
    seen.length = 0;
    const c = client(github, elsewhere);
    try {
      const res = await fetchGithub(c, { url: github, repo: 'kubernetes/kubernetes', token: TOKEN, numbers: [58711] });
      expect(res.bugs.map((b) => b.bugId)).toEqual(['kubernetes/kubernetes#58711']);
    } finally {
      c.close();
    }
    expect(on('github').map((s) => s.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(on('elsewhere')).toHaveLength(1);
    expect(on('elsewhere')[0].headers.authorization).toBeUndefined();
    expect(on('elsewhere')[0].headers.accept).toBe('application/vnd.github+json'); // the rest of the request is as it was
  });

  it('every header that carries a credential is dropped for another origin, and kept within the same one', async () => {
    seen.length = 0;
    const c = client(github, elsewhere, sameOrigin);
    try {
      await c.get(`${github}/repos/x/y/issues/1`, { headers: CREDENTIALS });
      await c.get(`${sameOrigin}/repos/x/y/issues/2`, { headers: CREDENTIALS });
    } finally {
      c.close();
    }
    for (const name of Object.keys(CREDENTIALS)) {
      expect(on('github')[0].headers[name], name).toBeDefined();
      expect(on('elsewhere')[0].headers[name], name).toBeUndefined();
      expect(on('same-origin').map((s) => s.headers[name]), name).toEqual([CREDENTIALS[name as keyof typeof CREDENTIALS], CREDENTIALS[name as keyof typeof CREDENTIALS]]);
    }
  });

  if (tls) {
    it('nor from https to http', async () => {
      seen.length = 0;
      const c = client(secure!, elsewhere);
      try {
        const res = await fetchGithub(c, { url: secure!, repo: 'kubernetes/kubernetes', token: TOKEN, numbers: [59320] });
        expect(res.bugs.map((b) => b.bugId)).toEqual(['kubernetes/kubernetes#59320']);
      } finally {
        c.close();
      }
      expect(on('secure').map((s) => s.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
      expect(on('elsewhere')[0].headers.authorization).toBeUndefined();
    });
  } else {
    it('did not run from https to http: no openssl to make a certificate with', () => {
      console.warn('[redirects] the https-to-http case did not run: openssl is not installed');
    });
  }
});
