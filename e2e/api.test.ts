// The JSON API against its CLI twins: the same JSON for the same parameters, 400 for invalid
// parameters, 404 for unknown ids; the OpenAPI document; security headers.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { testId } from '../lib/ids';
import { sampleWorld, type Truth } from '../tests/helpers/world';
import { END_ISO, ROOT } from './support/server';

const baseUrl = inject('baseUrl');
const dbUrl = inject('dbUrl');
const configFile = inject('configFile');
const run = promisify(execFile);
let truth: Truth;

beforeAll(async () => {
  truth = (await sampleWorld()).truth;
});

async function api(route: string): Promise<{ status: number; body: any; headers: Headers }> {
  const r = await fetch(`${baseUrl}${route}`);
  return { status: r.status, body: await r.json(), headers: r.headers };
}

async function cli(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), ...args, '--db', dbUrl, '--json'], {
    cwd: ROOT,
    env: { ...process.env, BUILDCOP_CONFIG: configFile, DATABASE_URL: dbUrl },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e: { stdout?: string; stderr?: string; code?: number }) => {
    // health exits 1 unless ok; its JSON is still the answer
    if (e.stdout) return { stdout: e.stdout };
    throw new Error(`buildcop ${args.join(' ')} failed (${e.code}): ${e.stderr}`);
  });
  return JSON.parse(stdout);
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('each route returns what its CLI twin prints', () => {
  const top = () => truth.scenarios.top.test as string;
  const topJob = () => [...truth.perTest[top()].window.jobs].sort()[0];

  it('/api/hotlist = buildcop hotlist', async () => {
    const a = await api(`/api/hotlist?${q({ at: END_ISO, window: '7d', limit: '40' })}`);
    expect(a.status).toBe(200);
    expect(a.body.items[0].test).toBe(top());
    expect(a.body).toEqual(await cli('hotlist', '--at', END_ISO, '--window', '7d', '--limit', '40'));
  });

  it('/api/hotlist with filters = buildcop hotlist with the same filters', async () => {
    const a = await api(`/api/hotlist?${q({ at: END_ISO, window: '14d', release: '4.2', classification: 'flaky', noBug: 'true' })}`);
    expect(a.status).toBe(200);
    expect(a.body.items.length).toBeGreaterThan(0);
    expect(a.body).toEqual(await cli('hotlist', '--at', END_ISO, '--window', '14d', '--release', '4.2', '--classification', 'flaky', '--no-bug'));
  });

  it('/api/tests/{id} = buildcop test ID', async () => {
    const id = testId(top());
    const a = await api(`/api/tests/${id}?${q({ at: END_ISO })}`);
    expect(a.status).toBe(200);
    expect(a.body.test).toBe(top());
    expect(a.body).toEqual(await cli('test', id, '--at', END_ISO));
  });

  it('/api/causes = buildcop causes, and /api/signatures/{id} = buildcop signature ID', async () => {
    const a = await api(`/api/causes?${q({ at: END_ISO, window: '3d', limit: '5' })}`);
    expect(a.status).toBe(200);
    expect(a.body.causes[0].id).toMatch(/^[0-9a-f]+$/);
    expect(a.body).toEqual(await cli('causes', '--at', END_ISO, '--window', '3d', '--limit', '5'));
    const id = a.body.causes[0].id;
    const s = await api(`/api/signatures/${id}?${q({ at: END_ISO })}`);
    expect(s.status).toBe(200);
    expect(s.body).toEqual(await cli('signature', id, '--at', END_ISO));
    expect((await api('/api/signatures/00000000ffffffff')).status).toBe(404);
    expect((await api(`/api/causes?${q({ limit: '0' })}`)).status).toBe(400);
  });

  it('/api/jobs = buildcop jobs', async () => {
    const a = await api(`/api/jobs?${q({ at: END_ISO, window: '3d' })}`);
    expect(a.status).toBe(200);
    expect(a.body.jobs.length).toBeGreaterThan(0);
    expect(a.body).toEqual(await cli('jobs', '--at', END_ISO, '--window', '3d'));
  });

  it('/api/jobs/{name} = buildcop job NAME', async () => {
    const a = await api(`/api/jobs/${encodeURIComponent(topJob())}?${q({ at: END_ISO })}`);
    expect(a.status).toBe(200);
    expect(a.body.topTests.map((t: { test: string }) => t.test)).toContain(top());
    expect(a.body).toEqual(await cli('job', topJob(), '--at', END_ISO));
  });

  it('/api/runs/{job}/{buildId} = buildcop run JOB BUILD_ID', async () => {
    const detail = await api(`/api/tests/${testId(top())}?${q({ at: END_ISO })}`);
    const { job, buildId } = detail.body.runs[0];
    const a = await api(`/api/runs/${encodeURIComponent(job)}/${encodeURIComponent(buildId)}`);
    expect(a.status).toBe(200);
    expect(a.body.failedTests.map((t: { test: string }) => t.test)).toContain(top());
    expect(a.body).toEqual(await cli('run', job, buildId));
  });

  it('/api/search = buildcop search', async () => {
    const a = await api(`/api/search?${q({ q: 'connection refused', at: END_ISO, limit: '5' })}`);
    expect(a.status).toBe(200);
    expect(a.body.matchingRuns).toBeGreaterThan(0);
    expect(a.body).toEqual(await cli('search', 'connection refused', '--at', END_ISO, '--limit', '5'));
  });

  it('/api/stats = buildcop stats', async () => {
    const a = await api('/api/stats');
    expect(a.status).toBe(200);
    expect(a.body.runs).toBe(truth.runs.finished);
    expect(a.body).toEqual(await cli('stats'));
  });

  it('/api/ingest = buildcop ingest-log', async () => {
    const a = await api('/api/ingest?limit=3');
    expect(a.status).toBe(200);
    expect(a.body.passes[0].status).toBe('ok');
    expect(a.body.pending).toMatchObject({ total: truth.runs.pending, running: truth.runs.pending });
    expect(a.body).toEqual(await cli('ingest-log', '--limit', '3'));
  });

  it('/api/health = buildcop health', async () => {
    const a = await api('/api/health');
    const c = await cli('health');
    expect(a.status).toBe(200);
    expect(a.body.status).toBe('ok');
    // the age is computed at the moment of each call
    expect(Math.abs(a.body.ageSeconds - c.ageSeconds)).toBeLessThanOrEqual(30);
    expect({ ...a.body, ageSeconds: 0 }).toEqual({ ...c, ageSeconds: 0 });
  });
});

describe('invalid parameters get a 400 with a message', () => {
  const cases = [
    '/api/hotlist?window=5y',
    '/api/hotlist?at=yesterday',
    '/api/hotlist?limit=0',
    '/api/hotlist?job=(',
    '/api/hotlist?classification=bogus',
    `/api/tests/${'0'.repeat(16)}?window=5y`,
    '/api/jobs?window=5y',
    '/api/jobs?at=yesterday',
    '/api/search?q=(',
    '/api/search?q=x&limit=0',
    '/api/ingest?limit=many',
    '/api/search',
    // malformed percent-encoding in the path (Next's router alone would answer 500)
    '/api/jobs/%E0%A4%A',
    '/api/runs/%GG/1',
    '/api/tests/%',
  ];
  it.each(cases)('%s', async (route) => {
    const a = await api(route);
    expect(a.status).toBe(400);
    expect(typeof a.body.error).toBe('string');
    expect(a.body.error.length).toBeGreaterThan(5);
  });
});

describe('unknown ids get a 404', () => {
  it.each(['/api/tests/0000000000000000', '/api/jobs/no-such-job', '/api/runs/no-such-job/1'])('%s', async (route) => {
    const a = await api(route);
    expect(a.status).toBe(404);
    expect(a.body.error).toMatch(/no (test|job|run)/);
  });
});

describe('pages at an address with malformed percent-encoding', () => {
  it.each(['/jobs/%E0%A4%A', '/tests/%GG', '/runs/job/%'])('%s answers 400 saying so', async (route) => {
    const r = await fetch(`${baseUrl}${route}`);
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/not well formed/);
  });
  it('a well-formed encoded address is unaffected', async () => {
    const r = await fetch(`${baseUrl}/jobs/${encodeURIComponent('no such job')}`);
    expect(r.status).toBe(404);
  });
});

describe('an address holding a name of 100,000 characters (Prow sets no bound on job names)', () => {
  // Node's own bound on a request's line and headers (16 KB) would answer 431 before the app saw it
  const name = `periodic-${'x'.repeat(99_990)}`;
  it('reaches the page, which says there is no such job', async () => {
    const r = await fetch(`${baseUrl}/jobs/${encodeURIComponent(name)}`);
    expect(r.status).toBe(404);
    expect(await r.text()).toMatch(/not found|no such|No job/i);
  });
  it('reaches the API, which answers 404 with a message', async () => {
    const a = await api(`/api/jobs/${encodeURIComponent(name)}`);
    expect(a.status).toBe(404);
    expect(a.body.error).toMatch(/no job/);
  });
});

describe('the OpenAPI document', () => {
  it('describes every route, including the bug and promotion routes', async () => {
    const a = await api('/api/openapi.json');
    expect(a.status).toBe(200);
    expect(a.body.openapi).toBe('3.1.0');
    const paths = Object.keys(a.body.paths);
    for (const p of ['/api/hotlist', '/api/tests/{id}', '/api/jobs', '/api/jobs/{name}', '/api/runs/{job}/{buildId}', '/api/search', '/api/stats', '/api/health', '/api/ingest', '/api/bugs', '/api/tests/{id}/bugs', '/api/promotion']) {
      expect(paths).toContain(p);
    }
    expect(Object.keys(a.body.paths['/api/tests/{id}/bugs'])).toEqual(expect.arrayContaining(['post', 'delete']));
    // every $ref resolves
    const refs = [...JSON.stringify(a.body).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]);
    for (const r of new Set(refs)) expect(a.body.components.schemas[r], r).toBeDefined();
  });
});

describe('security headers', () => {
  it('pages carry a nonce CSP that their scripts use, and the usual headers', async () => {
    const r = await fetch(`${baseUrl}/?at=${encodeURIComponent(END_ISO)}`);
    const csp = r.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const html = await r.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('referrer-policy')).toBeTruthy();
    expect(r.headers.get('permissions-policy')).toBeTruthy();
    const second = await fetch(`${baseUrl}/jobs`);
    expect(second.headers.get('content-security-policy')).not.toContain(nonce!);
  });

  it('the API forbids everything to browsers', async () => {
    const r = await fetch(`${baseUrl}/api/stats`);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
