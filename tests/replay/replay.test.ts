// The replay server against a real HTTP client: Deck, GCS, Bugzilla, Jira, GitHub and the release
// controller in their real URL and JSON shapes, time travel, and injected faults. Expectations come
// from the world's own data files (world.json, bugs.json, …), not from the server's answers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_WORLD_END, ensureWorld } from '../../lib/replay/ensureWorld';
import { startReplayServer, type ReplayServer } from '../../lib/replay/server';
import { acceptsGzip, parseFields, selectFields } from '../../lib/replay/http';
import { runFiles } from '../../lib/replay/world';
import type { WorldBugzillaBug, WorldGithubIssue, WorldJiraIssue, WorldManifest, WorldRun } from '../../lib/world/types';

/* eslint-disable @typescript-eslint/no-explicit-any */
let dir: string;
let manifest: WorldManifest;
let truth: any;
let server: ReplayServer;
const extra: ReplayServer[] = [];

beforeAll(async () => {
  dir = await ensureWorld({ end: TEST_WORLD_END });
  manifest = JSON.parse(fs.readFileSync(path.join(dir, 'world.json'), 'utf8'));
  truth = JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8'));
  server = await startReplayServer({ dir });
}, 240_000);

afterAll(async () => {
  await server?.close();
  for (const s of extra) await s.close();
});

async function another(opts: Omit<Parameters<typeof startReplayServer>[0], 'dir'>): Promise<ReplayServer> {
  const s = await startReplayServer({ dir, ...opts });
  extra.push(s);
  return s;
}

const E = () => manifest.endUnix;
const getJson = async (s: ReplayServer, p: string) => {
  const res = await fetch(s.url + p);
  expect(res.status, p).toBe(200);
  return res.json() as Promise<any>;
};

async function listAll(s: ReplayServer, prefix: string, delimiter = '', range: Record<string, string> = {}): Promise<{ items: any[]; prefixes: string[]; pages: number }> {
  const items: any[] = [];
  const prefixes: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const q = new URLSearchParams({ prefix, maxResults: '1000', ...range });
    if (delimiter) q.set('delimiter', delimiter);
    if (token) q.set('pageToken', token);
    const page = await getJson(s, `/storage/v1/b/origin-ci-test/o?${q}`);
    expect(page.kind).toBe('storage#objects');
    items.push(...(page.items ?? []));
    prefixes.push(...(page.prefixes ?? []));
    token = page.nextPageToken;
    pages++;
  } while (token);
  return { items, prefixes, pages };
}

const visibleFiles = (r: WorldRun, now: number) => runFiles(manifest, r).filter((f) => f.visibleAt <= now).map((f) => `${r.gcsPath}/${f.path}`).sort();

describe('Deck', () => {
  it('serves data.js with the current fields for runs of the last 72 hours, newest first', async () => {
    const res = await fetch(`${server.url}/data.js`);
    expect(res.headers.get('content-type')).toBe('application/json');
    const jobs = (await res.json()) as any[];
    const expected = manifest.runs.filter((r) => r.started > E() - 72 * 3600);
    expect(jobs.map((j) => j.build_id).sort()).toEqual(expected.map((r) => r.buildId).sort());
    const started = jobs.map((j) => Number(j.started));
    expect([...started].sort((a, b) => b - a)).toEqual(started);
    for (const j of jobs) {
      const run = expected.find((r) => r.buildId === j.build_id)!;
      expect(j.job).toBe(run.job);
      expect(j.url).toBe(`${server.url}${run.urlPath}`);
      if (run.finished > E()) expect(j).toMatchObject({ state: 'pending', finished: '', duration: '' });
      else expect(j).toMatchObject({ state: run.state, finished: new Date(run.finished * 1000).toISOString().replace('.000Z', 'Z') });
      if (run.refs) expect(j.refs.pulls[0].number).toBe(run.refs.pulls[0].number);
    }
  });

  it('serves the 2019 field set and the var form', async () => {
    const old = await another({ deckFormat: '2019' });
    const text = await (await fetch(`${old.url}/data.js?var=allBuilds`)).text();
    expect(text.startsWith('var allBuilds = [')).toBe(true);
    expect(text.endsWith('];')).toBe(true);
    const jobs = JSON.parse(text.slice('var allBuilds = '.length, -1)) as any[];
    const pre = jobs.find((j) => j.type === 'presubmit')!;
    const run = manifest.runs.find((r) => r.buildId === pre.build_id)!;
    expect(pre).toMatchObject({ repo: `openshift/${run.refs!.repo}`, number: run.refs!.pulls[0].number, pull_sha: run.refs!.pulls[0].sha, author: run.refs!.pulls[0].author, base_sha: run.refs!.base_sha });
    expect(typeof pre.refs).toBe('string');
    expect(pre.refs).toBe(`master:${run.refs!.base_sha},${run.refs!.pulls[0].number}:${run.refs!.pulls[0].sha}`);
    expect(pre).not.toHaveProperty('refs_key');
  });

  it('answers 404 for data.js when asked, and serves prowjobs.js', async () => {
    const s = await another({ noDataJs: true });
    expect((await fetch(`${s.url}/data.js`)).status).toBe(404);
    const { items } = await getJson(s, '/prowjobs.js?omit=annotations,labels,decoration_config,pod_spec');
    expect(items.length).toBe(manifest.runs.filter((r) => r.started > E() - 72 * 3600).length);
    const pj = items.find((i: any) => i.spec.type === 'presubmit');
    const run = manifest.runs.find((r) => r.buildId === pj.status.build_id)!;
    expect(pj).toMatchObject({ kind: 'ProwJob', spec: { job: run.job, refs: { org: 'openshift', repo: run.refs!.repo } }, status: { url: `${s.url}${run.urlPath}` } });
    expect(pj.metadata.labels).toBeUndefined();
    expect(pj.spec.pod_spec).toEqual({ containers: [{ name: '', resources: {} }] });
  });
});

describe('GCS', () => {
  it('pages through a run folder until exactly its files are listed', async () => {
    const run = manifest.runs.find((r) => r.type === 'presubmit' && r.state === 'failure')!;
    const before = server.requests.length;
    const { items, pages } = await listAll(server, `${run.gcsPath}/`);
    expect(pages).toBeGreaterThan(1);
    expect(server.requests.length - before).toBe(pages);
    expect(items.map((i) => i.name).sort()).toEqual(visibleFiles(run, E()));
    for (const i of items) {
      expect(Object.keys(i)).toEqual(expect.arrayContaining(['kind', 'name', 'bucket', 'size', 'md5Hash', 'generation', 'updated', 'contentType']));
      expect(typeof i.size).toBe('string');
    }
  });

  it('answers with only the fields asked for, as the JSON API does, and 400 for a malformed selection', async () => {
    const run = manifest.runs.find((r) => r.type === 'presubmit' && r.state === 'failure')!;
    const q = new URLSearchParams({ prefix: `${run.gcsPath}/`, maxResults: '2', fields: 'items(name,size),nextPageToken' });
    const page = await getJson(server, `/storage/v1/b/origin-ci-test/o?${q}`);
    expect(Object.keys(page).sort()).toEqual(['items', 'nextPageToken']);
    for (const i of page.items) expect(Object.keys(i)).toEqual(['name', 'size']);
    q.set('fields', 'items(name');
    expect((await fetch(`${server.url}/storage/v1/b/origin-ci-test/o?${q}`)).status).toBe(400);
  });

  it('reads nested and slashed field selections', () => {
    const value = { a: { b: [{ c: 1, x: 2 }], y: 3 }, d: 4, e: 5 };
    expect(selectFields(value, parseFields('a/b(c),d')!)).toEqual({ a: { b: [{ c: 1 }] }, d: 4 });
    for (const bad of ['', 'a,', 'a(b', 'a)b', 'a//b']) expect(parseFields(bad)).toBeUndefined();
  });

  it('lists build folders of a job with the delimiter', async () => {
    const job = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';
    const { prefixes, items } = await listAll(server, `logs/${job}/`, '/');
    expect(items).toEqual([]);
    expect(prefixes.sort()).toEqual(manifest.runs.filter((r) => r.job === job).map((r) => `logs/${job}/${r.buildId}/`).sort());
  });

  it('lists from startOffset (included) to endOffset (excluded), in folders or objects, page by page', async () => {
    const job = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws';
    const builds = manifest.runs.filter((r) => r.job === job).map((r) => r.buildId).sort();
    const [from, to] = [builds[10], builds[20]];
    // an offset inside a folder's name (ids are compared as names): the folders from it on
    const { prefixes, pages } = await listAll(server, `logs/${job}/`, '/', { startOffset: `logs/${job}/${from}`, endOffset: `logs/${job}/${to}` });
    expect(prefixes).toEqual(builds.slice(10, 20).map((b) => `logs/${job}/${b}/`));
    expect(pages).toBe(4); // 3 a page on this server, each page's token resuming after its last folder
    const presubmit = 'pull-ci-openshift-installer-master-e2e-aws';
    const aliases = manifest.extraObjects.map((o) => o.name).filter((n) => n.startsWith(`pr-logs/directory/${presubmit}/`)).sort();
    const { items } = await listAll(server, `pr-logs/directory/${presubmit}/`, '/', { startOffset: aliases[5] });
    expect(items.map((i) => i.name)).toEqual(aliases.slice(5));
  });

  it('leaves out the objects a fault hides, from listings and downloads', async () => {
    const s = await another({ gcsPageSize: 1000 });
    const run = manifest.runs.find((r) => r.state === 'success')!;
    s.setFaults({ hideObjects: [`^${run.gcsPath}/started\\.json$`] });
    const { items } = await listAll(s, `${run.gcsPath}/`);
    expect(items.map((i) => i.name)).toEqual(visibleFiles(run, E()).filter((n) => !n.endsWith('/started.json')));
    expect((await fetch(`${s.url}/origin-ci-test/${run.gcsPath}/started.json`)).status).toBe(404);
    expect((await fetch(`${s.url}/origin-ci-test/${run.gcsPath}/finished.json`)).status).toBe(200);
  });

  it('serves object bytes that match the listing, with the server URL in prowjob.json', async () => {
    const run = manifest.runs.find((r) => r.state === 'success' && r.gathered)!;
    const { items } = await listAll(server, `${run.gcsPath}/`);
    // gathered files share their bytes (gcs-blobs/); the run's own files are under gcs/<bucket>/
    const blobs = new Map(runFiles(manifest, run).map((f) => [`${run.gcsPath}/${f.path}`, f.blob]));
    expect(items.some((i) => blobs.get(i.name))).toBe(true);
    for (const i of items) {
      const res = await fetch(`${server.url}/origin-ci-test/${i.name}`);
      expect(res.status).toBe(200);
      const data = Buffer.from(await res.arrayBuffer());
      expect(String(data.length)).toBe(i.size);
      expect(crypto.createHash('md5').update(data).digest('base64')).toBe(i.md5Hash);
      if (i.name.endsWith('prowjob.json')) expect(JSON.parse(data.toString()).status.url).toBe(`${server.url}${run.urlPath}`);
      else expect(data.equals(fs.readFileSync(path.join(dir, blobs.get(i.name) ?? path.join('gcs', 'origin-ci-test', i.name))))).toBe(true);
    }
    const media = await fetch(`${server.url}/storage/v1/b/origin-ci-test/o/${encodeURIComponent(`${run.gcsPath}/started.json`)}?alt=media`);
    expect(JSON.parse(await media.text()).timestamp).toBe(run.started);
    expect((await fetch(`${server.url}/origin-ci-test/${run.gcsPath}/no-such-file.txt`)).status).toBe(404);
  });

  it('serves a Spyglass stand-in page for run links', async () => {
    const run = manifest.runs[0];
    const res = await fetch(`${server.url}${run.urlPath}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain(run.buildId);
  });
});

/** A GET with exactly the given headers (fetch would ask for gzip and inflate on its own). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('gzip', () => {
  it('reads Accept-Encoding as HTTP does', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('gzips data.js and prowjobs.js for a client that asks, as Deck does', async () => {
    const plain = await rawGet(`${server.url}/data.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const p of ['/data.js', '/prowjobs.js']) {
      const gz = await rawGet(`${server.url}${p}`, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], p).toBe('gzip');
      expect(gz.headers.vary).toBe('Accept-Encoding');
      const body = zlib.gunzipSync(gz.body);
      if (p === '/data.js') expect(body.equals(plain.body)).toBe(true);
      expect(gz.body.length).toBeLessThan(body.length / 5);
    }
  });

  it('stores the compress_file_types objects gzip-encoded: listed compressed, sent as stored or inflated whole', async () => {
    const s = await another({ compressFileTypes: ['txt', 'json'] });
    const run = manifest.runs.find((r) => r.state === 'failure' && r.gathered)!;
    const { items } = await listAll(s, `${run.gcsPath}/`);
    const log = items.find((i) => i.name === `${run.gcsPath}/build-log.txt`);
    const junit = items.find((i) => /junit.*\.xml$/.test(i.name));
    expect(log.contentEncoding).toBe('gzip');
    expect(junit.contentEncoding).toBeUndefined();
    const original = fs.readFileSync(path.join(dir, 'gcs', 'origin-ci-test', log.name));

    const gz = await rawGet(`${s.url}/origin-ci-test/${log.name}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(String(gz.body.length)).toBe(log.size);
    expect(Number(log.size)).toBeLessThan(original.length);
    expect(crypto.createHash('md5').update(gz.body).digest('base64')).toBe(log.md5Hash);
    expect(zlib.gunzipSync(gz.body).equals(original)).toBe(true);

    // decompressive transcoding: inflated, and whole even when a range is asked for
    const plain = await rawGet(`${s.url}/origin-ci-test/${log.name}`, { range: 'bytes=0-9' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['x-goog-stored-content-encoding']).toBe('gzip');
    expect(plain.body.equals(original)).toBe(true);

    // the JSON API's media download and prowjob.json (rewritten with the server's URL) alike
    const pj = await rawGet(`${s.url}/storage/v1/b/origin-ci-test/o/${encodeURIComponent(`${run.gcsPath}/prowjob.json`)}?alt=media`, { 'accept-encoding': 'gzip' });
    expect(JSON.parse(zlib.gunzipSync(pj.body).toString()).status.url).toBe(`${s.url}${run.urlPath}`);
    const junitBytes = await rawGet(`${s.url}/origin-ci-test/${junit.name}`, { 'accept-encoding': 'gzip' });
    expect(junitBytes.headers['content-encoding']).toBeUndefined();
    expect(String(junitBytes.body.length)).toBe(junit.size);
  });
});

describe('time travel', () => {
  it('shows a run pending at end finished later, and its objects appear', async () => {
    const s = await another({});
    const p = truth.runs.pendingRuns[0];
    const run = manifest.runs.find((r) => r.buildId === p.buildId)!;
    const find = async () => ((await getJson(s, '/data.js')) as any[]).find((j) => j.build_id === run.buildId);
    expect((await find()).state).toBe('pending');
    expect((await listAll(s, `${run.gcsPath}/`)).items.map((i) => i.name)).toEqual([`${run.gcsPath}/started.json`]);
    expect((await fetch(`${s.url}/origin-ci-test/${run.gcsPath}/finished.json`)).status).toBe(404);
    s.setNow(new Date((run.finished + 60) * 1000));
    expect((await find()).state).toBe(run.state);
    expect((await listAll(s, `${run.gcsPath}/`)).items.map((i) => i.name).sort()).toEqual(visibleFiles(run, run.finished));
    expect((await fetch(`${s.url}/origin-ci-test/${run.gcsPath}/prowjob.json`)).status).toBe(200);
  });

  it('hides runs that had not started yet', async () => {
    const s = await another({ now: new Date((E() - 3 * 86400) * 1000) });
    const late = manifest.runs.filter((r) => r.started > E() - 3 * 86400);
    const jobs = (await getJson(s, '/data.js')) as any[];
    expect(jobs.some((j) => late.some((r) => r.buildId === j.build_id))).toBe(false);
    expect((await fetch(`${s.url}/origin-ci-test/${late[0].gcsPath}/started.json`)).status).toBe(404);
    expect((await listAll(s, `${late[0].gcsPath}/`)).items).toEqual([]);
  });
});

describe('faults', () => {
  it('answers 503 the given number of times, then succeeds', async () => {
    const s = await another({ faults: { status: [{ match: '^/data\\.js', status: 503, times: 2 }] } });
    expect((await fetch(`${s.url}/data.js`)).status).toBe(503);
    expect((await fetch(`${s.url}/data.js`)).status).toBe(503);
    expect((await fetch(`${s.url}/data.js`)).status).toBe(200);
    expect(s.requests.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('truncates objects and drops connections', async () => {
    const s = await another({});
    const run = manifest.runs.find((r) => r.state === 'failure' && r.files.some((f) => f.path.includes('junit_e2e')))!;
    const junit = run.files.find((f) => f.path.includes('junit_e2e'))!;
    s.setFaults({ truncate: ['junit_e2e_'], resetConnection: ['build-log\\.txt$'] });
    const res = await fetch(`${s.url}/origin-ci-test/${run.gcsPath}/${junit.path}`);
    expect((await res.arrayBuffer()).byteLength).toBe(Math.floor(junit.size / 2));
    await expect(fetch(`${s.url}/origin-ci-test/${run.gcsPath}/build-log.txt`)).rejects.toThrow();
    s.setFaults({});
    expect((await fetch(`${s.url}/origin-ci-test/${run.gcsPath}/build-log.txt`)).status).toBe(200);
  });
});

describe('bug trackers', () => {
  const read = <T>(rel: string): T => JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf8'));
  const lastChange = (x: { created: number; statuses: { at: number }[]; comments: { at: number }[] }, now: number) =>
    Math.max(...[x.created, ...x.statuses.map((s) => s.at), ...x.comments.map((c) => c.at)].filter((t) => t <= now));

  it('filters Bugzilla bugs by last_change_time and honours include_fields', async () => {
    const bugs = read<{ bugs: WorldBugzillaBug[] }>('bugzilla/bugs.json').bugs;
    const since = E() - 86400;
    const body = await getJson(server, `/rest/bug?quicksearch=OPEN&include_fields=id,summary,last_change_time&last_change_time=${new Date(since * 1000).toISOString()}`);
    expect(body.faults).toEqual([]);
    expect(body.bugs.map((b: any) => b.id)).toEqual(bugs.filter((b) => lastChange(b, E()) >= since).map((b) => b.id).sort());
    for (const b of body.bugs) expect(Object.keys(b).sort()).toEqual(['id', 'last_change_time', 'summary']);
    const all = await getJson(server, '/rest/bug');
    expect(all.bugs).toHaveLength(bugs.length);
    expect(all.bugs[0]).toMatchObject({ component: expect.any(Array), version: expect.any(Array), target_release: expect.any(Array) });
  });

  it('serves Bugzilla comments for several bugs', async () => {
    const bugs = read<{ bugs: WorldBugzillaBug[] }>('bugzilla/bugs.json').bugs;
    const [a, b] = [bugs[1], bugs[3]];
    const body = await getJson(server, `/rest/bug/${a.id}/comment?ids=${b.id}&include_fields=id,is_private,creator,creation_time,time,text`);
    for (const bug of [a, b]) expect(body.bugs[String(bug.id)].comments.map((c: any) => c.text)).toEqual(bug.comments.filter((c) => c.at <= E()).map((c) => c.text));
    expect((await fetch(`${server.url}/rest/bug/999/comment`)).status).toBe(404);
  });

  it('pages Jira search results and applies updated >= in every quoting', async () => {
    const issues = read<{ issues: WorldJiraIssue[] }>('jira/issues.json').issues;
    const keys: string[] = [];
    let startAt = 0;
    let total = 0;
    do {
      const page = await getJson(server, `/rest/api/2/search?jql=${encodeURIComponent('project = OCPBUGS')}&fields=summary,description,status,components,comment,updated&startAt=${startAt}&maxResults=50`);
      expect(page.issues.length).toBeLessThanOrEqual(2);
      total = page.total;
      keys.push(...page.issues.map((i: any) => i.key));
      for (const i of page.issues) expect(i.fields).toMatchObject({ status: { name: expect.any(String) }, comment: { comments: expect.any(Array) } });
      startAt += page.issues.length;
    } while (startAt < total);
    expect(keys.sort()).toEqual(issues.map((i) => i.key).sort());
    const since = E() - 2 * 86400;
    const d = new Date(since * 1000);
    const stamp = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    const expected = issues.filter((i) => lastChange(i, E()) >= since).map((i) => i.key).sort();
    for (const clause of [`updated >= "${stamp}"`, `updated>='${stamp}'`, `updated >= ${stamp.slice(0, 10)} ${stamp.slice(11)}`]) {
      const page = await getJson(server, `/rest/api/2/search?jql=${encodeURIComponent(`project = OCPBUGS AND ${clause}`)}&maxResults=50`);
      expect(page.total, clause).toBe(expected.length);
    }
  });

  it('follows GitHub Link pagination and filters by since', async () => {
    const issues = read<{ issues: WorldGithubIssue[] }>('github/kubernetes/kubernetes/issues.json').issues;
    const numbers: number[] = [];
    let next: string | undefined = `${server.url}/repos/kubernetes/kubernetes/issues?state=all&per_page=100`;
    let pages = 0;
    while (next) {
      const res: Response = await fetch(next);
      const page = (await res.json()) as any[];
      numbers.push(...page.map((i) => i.number));
      for (const i of page) expect('pull_request' in i).toBe(issues.find((x) => x.number === i.number)!.isPullRequest === true);
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(numbers.sort()).toEqual(issues.map((i) => i.number).sort());
    const since = E() - 86400;
    const recent = (await getJson(server, `/repos/kubernetes/kubernetes/issues?state=all&per_page=100&since=${new Date(since * 1000).toISOString()}`)) as any[];
    const expected = issues.filter((i) => Math.max(i.created, ...i.comments.map((c) => c.at), i.closed ?? 0) >= since).map((i) => i.number);
    expect(recent.map((i) => i.number).sort()).toEqual(expected.sort());
    const withComments = issues.find((i) => i.comments.length)!;
    const comments = await getJson(server, `/repos/kubernetes/kubernetes/issues/${withComments.number}/comments`);
    expect(comments.map((c: any) => c.body)).toEqual(withComments.comments.map((c) => c.text));
  });
});

describe('release controller', () => {
  it('lists tags newest first and explains a rejected payload with a real run', async () => {
    for (const stream of manifest.releaseStreams) {
      const body = await getJson(server, `/api/v1/releasestream/${stream.name}/tags`);
      expect(body.name).toBe(stream.name);
      const names = body.tags.map((t: any) => t.name);
      expect(names).toEqual(stream.tags.filter((t) => t.created <= E()).map((t) => t.name).sort().reverse());
      for (const t of body.tags) expect(Object.keys(t)).toEqual(['name', 'phase', 'pullSpec', 'downloadURL']);
      const expected = truth.releaseStreams[stream.name];
      expect(body.tags[0]).toMatchObject({ name: expected.latest, phase: expected.phase });
    }
    const latest = (await getJson(server, '/api/v1/releasestream/4.2.0-0.nightly/tags')).tags[0];
    const info = await getJson(server, `/api/v1/releasestream/4.2.0-0.nightly/release/${latest.name}`);
    expect(info.phase).toBe('Rejected');
    const aws = info.results.blockingJobs.aws;
    expect(aws.state).toBe('Failed');
    const run = manifest.runs.find((r) => `${server.url}${r.urlPath}` === aws.url)!;
    expect(run.state).toBe('failure');
    expect(Object.keys(info.results.informingJobs).length).toBeGreaterThan(0);
    expect((await fetch(aws.url)).status).toBe(200);
    const accepted = await getJson(server, '/api/v1/releasestream/4.1.0-0.nightly/latest');
    expect(accepted).toMatchObject({ name: truth.releaseStreams['4.1.0-0.nightly'].latest, phase: 'Accepted' });
    expect((await fetch(`${server.url}/api/v1/releasestream/9.9.0-0.nightly/tags`)).status).toBe(404);
  });
});

describe('plumbing', () => {
  it('answers HEAD like GET without a body, 404 for unknown paths, and logs requests', async () => {
    const head = await fetch(`${server.url}/data.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
    expect((await fetch(`${server.url}/no/such/route`)).status).toBe(404);
    expect(server.requests.at(-1)).toEqual({ method: 'GET', path: '/no/such/route', status: 404 });
  });
});
