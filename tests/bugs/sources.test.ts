// The tracker clients against the replay server's recorded Bugzilla, Jira and GitHub data:
// pagination, comments, close times, pull requests left out, clear errors; and bug references.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBugRef } from '../../lib/bugs/manage';
import { bugzillaProduct, newBugLinks } from '../../lib/bugs/fileBug';
import { fetchBugzilla } from '../../lib/sources/bugzilla';
import { fetchGithub } from '../../lib/sources/github';
import { HttpClient } from '../../lib/sources/http';
import { fetchJira, incrementalJql } from '../../lib/sources/jira';
import { parseTrackerTime, TrackerError } from '../../lib/sources/trackerBug';
import type { ReplayServer } from '../../lib/replay/server';
import { replay, sampleWorld } from '../helpers/world';

interface WorldBug { tracker: string; id: string; created: number; lastChange: number }

describe('tracker clients on the replayed world', () => {
  let server: ReplayServer;
  let client: HttpClient;
  let manifest: { endUnix: number; bugs: WorldBug[]; files: { bugzilla: string; jira: string } };
  let dir: string;

  beforeAll(async () => {
    ({ dir } = await sampleWorld());
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'world.json'), 'utf8'));
    server = await replay(dir);
    client = new HttpClient({ allowedHosts: new Set([new URL(server.url).host]), retries: 2, retryBaseMs: 5 });
  });
  afterAll(async () => {
    (client as { close?: () => void })?.close?.();
    await server?.close();
  });

  const ids = (tracker: string) => manifest.bugs.filter((b) => b.tracker === tracker).map((b) => b.id).sort();

  it('Bugzilla: every bug with its comments, description = comment 0, close time of closed bugs', async () => {
    const res = await fetchBugzilla(client, { url: server.url });
    expect(res.complete).toBe(true);
    expect(res.bugs.map((b) => b.bugId).sort()).toEqual(ids('bugzilla'));
    const raw = (JSON.parse(fs.readFileSync(path.join(dir, manifest.files.bugzilla), 'utf8')) as { bugs: { id: number; comments: { text: string }[]; statuses: { at: number; status: string }[] }[] }).bugs;
    for (const b of res.bugs) {
      const w = raw.find((x) => String(x.id) === b.bugId)!;
      expect([b.description, ...b.comments]).toEqual(w.comments.map((c) => c.text));
      expect(b.url).toBe(`${server.url}/show_bug.cgi?id=${b.bugId}`);
      const last = w.statuses[w.statuses.length - 1];
      expect(b.closedAt).toBe(/CLOSED|VERIFIED/.test(last.status) ? last.at : null);
    }
    expect(res.maxChange).toBe(Math.max(...manifest.bugs.filter((b) => b.tracker === 'bugzilla').map((b) => b.lastChange)));
  });

  it('Bugzilla: unchanged known bugs are not fetched again', async () => {
    const all = await fetchBugzilla(client, { url: server.url });
    const known = new Map(all.bugs.map((b) => [b.bugId, { lastChange: b.lastChange, closedAt: b.closedAt }]));
    const before = server.requests.length;
    const again = await fetchBugzilla(client, { url: server.url, known });
    expect(again.bugs).toEqual([]);
    expect(again.unchanged).toBe(all.bugs.length);
    expect(server.requests.slice(before).map((r) => r.path.split('?')[0])).toEqual(['/rest/bug']);
  });

  it('Jira: pages through the search (the replay serves 2 per page) with descriptions and comments', async () => {
    const before = server.requests.length;
    const res = await fetchJira(client, { url: server.url, jql: 'project = OCPBUGS ORDER BY key' });
    expect(res.bugs.map((b) => b.bugId).sort()).toEqual(ids('jira'));
    expect(server.requests.slice(before).filter((r) => r.path.startsWith('/rest/api/2/search')).length).toBe(Math.ceil(ids('jira').length / 2));
    const raw = (JSON.parse(fs.readFileSync(path.join(dir, manifest.files.jira), 'utf8')) as { issues: { key: string; description: string; comments: { text: string }[] }[] }).issues;
    for (const b of res.bugs) {
      const w = raw.find((x) => x.key === b.bugId)!;
      expect(b.description).toBe(w.description);
      expect(b.comments).toEqual(w.comments.map((c) => c.text));
      expect(b.url).toBe(`${server.url}/browse/${b.bugId}`);
    }
    expect(res.bugs.find((b) => b.bugId === 'OCPBUGS-1204')!.closedAt).not.toBeNull();
  });

  it('Jira: the cursor goes into the JQL as updated >= "yyyy/MM/dd HH:mm", before any ORDER BY', () => {
    const t = Date.UTC(2026, 10, 21, 9, 5, 59) / 1000;
    expect(incrementalJql('project = OCPBUGS ORDER BY key', t)).toBe('(project = OCPBUGS) AND updated >= "2026/11/21 09:05" ORDER BY updated ASC');
    expect(incrementalJql('', null)).toBe('ORDER BY updated ASC');
  });

  it('GitHub: follows Link pages, leaves pull requests out, reads comments', async () => {
    const res = await fetchGithub(client, { url: server.url, repo: 'kubernetes/kubernetes' });
    expect(res.bugs.map((b) => b.bugId).sort()).toEqual(ids('github').filter((id) => id !== 'kubernetes/kubernetes#60122'));
    const dns = res.bugs.find((b) => b.bugId === 'kubernetes/kubernetes#58711')!;
    expect(dns.url).toBe('https://github.com/kubernetes/kubernetes/issues/58711');
    expect(dns.comments.length).toBe(1);
    expect(res.bugs.find((b) => b.bugId === 'kubernetes/kubernetes#59320')!.status).toBe('closed');
  });

  it('garbage and errors come back as clear TrackerErrors; 503s are retried', async () => {
    server.setFaults({ truncate: ['^/rest/api/2/search'] });
    await expect(fetchJira(client, { url: server.url })).rejects.toThrow(/jira: search: .*not JSON/);
    server.setFaults({ status: [{ match: '^/repos/', status: 404, times: 1 }] });
    await expect(fetchGithub(client, { url: server.url, repo: 'kubernetes/kubernetes' })).rejects.toBeInstanceOf(TrackerError);
    server.setFaults({ status: [{ match: '^/rest/bug\\?', status: 503, times: 2 }] });
    const before = server.requests.length;
    const res = await fetchBugzilla(client, { url: server.url });
    expect(res.bugs.length).toBe(ids('bugzilla').length);
    expect(server.requests.slice(before).filter((r) => r.status === 503).length).toBe(2);
    server.setFaults({ status: [{ match: '^/rest/bug\\?', status: 503, times: 10 }] });
    await expect(fetchBugzilla(client, { url: server.url })).rejects.toThrow(/bugzilla: search: .*503/);
    server.setFaults({});
    await expect(fetchGithub(client, { url: server.url, repo: 'not a repo' })).rejects.toThrow(/owner\/name/);
  });

  it('Bugzilla: a closed bug whose history cannot be read keeps the close time already known', async () => {
    const known = new Map([['1763003', { lastChange: 1, closedAt: 1234567890 }]]);
    const res = await fetchBugzilla(client, { url: server.url, ids: ['1763003'], known });
    expect(res.bugs[0].closedAt).toBe(1234567890);
  });

  it('refuses hosts that are not configured', async () => {
    await expect(fetchBugzilla(client, { url: 'client://bugzilla.example.invalid' })).rejects.toThrow(/refusing to contact/);
  });
});

describe('Bugzilla close time from the status history', () => {
  it('is when the bug last went from open to closed or verified, not its last change', async () => {
    const t = (iso: string) => Date.parse(iso) / 1000;
    const routes: Record<string, unknown> = {
      '/rest/bug': { bugs: [{ id: 42, summary: 's', status: 'CLOSED', resolution: 'ERRATA', component: ['Node'], last_change_time: '2026-11-20T00:00:00Z' }] },
      '/rest/bug/42/comment': { bugs: { 42: { comments: [{ text: 'first' }, { text: 'secret', is_private: true }, { text: 'still failing after the fix' }] } } },
      '/rest/bug/42/history': {
        bugs: [{ id: 42, history: [
          { when: '2026-11-01T00:00:00Z', changes: [{ field_name: 'status', removed: 'NEW', added: 'ON_QA' }] },
          { when: '2026-11-05T00:00:00Z', changes: [{ field_name: 'status', removed: 'ON_QA', added: 'VERIFIED' }] },
          { when: '2026-11-06T00:00:00Z', changes: [{ field_name: 'status', removed: 'VERIFIED', added: 'CLOSED' }] },
          { when: '2026-11-20T00:00:00Z', changes: [{ field_name: 'cc', removed: '', added: 'someone' }] },
        ] }],
      },
    };
    const srv = http.createServer((q, r) => {
      const body = routes[new URL(q.url ?? '/', 'http://x').pathname];
      r.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      r.end(JSON.stringify(body ?? { error: true, message: 'nope' }));
    });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const client = new HttpClient({ allowedHosts: new Set([new URL(url).host]), retries: 0 });
    try {
      const res = await fetchBugzilla(client, { url });
      expect(res.bugs[0]).toMatchObject({ bugId: '42', closedAt: t('2026-11-05T00:00:00Z'), lastChange: t('2026-11-20T00:00:00Z'), description: 'first', comments: ['still failing after the fix'], component: 'Node' });
    } finally {
      (client as { close?: () => void }).close?.();
      await new Promise((r) => srv.close(r));
    }
  });
});

describe('Bugzilla comments', () => {
  it('a bug that fails its batch (gone or hidden since the search) is left for next time; the others are stored', async () => {
    const ids = [41, 42, 43];
    const asked: string[] = [];
    const srv = http.createServer((q, r) => {
      const u = new URL(q.url ?? '/', 'http://x');
      let status = 200;
      let body: unknown;
      if (u.pathname === '/rest/bug') body = { bugs: ids.map((id) => ({ id, summary: `bug ${id}`, status: 'NEW', last_change_time: '2026-11-20T00:00:00Z' })) };
      else {
        const wanted = [...new Set([u.pathname.split('/')[3], ...u.searchParams.getAll('ids')])]; // /rest/bug/<first>/comment?ids=<others>
        asked.push(wanted.join(','));
        // as Bugzilla does: one bug the caller may not see refuses the whole request
        if (wanted.includes('42')) [status, body] = [401, { error: true, code: 102, message: 'You are not authorized to access bug #42.' }];
        else body = { bugs: Object.fromEntries(wanted.map((id) => [id, { comments: [{ text: `description of ${id}` }] }])) };
      }
      r.writeHead(status, { 'content-type': 'application/json' });
      r.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const client = new HttpClient({ allowedHosts: new Set([new URL(url).host]), retries: 0 });
    try {
      const res = await fetchBugzilla(client, { url });
      expect(res.bugs.map((b) => [b.bugId, b.description])).toEqual([['41', 'description of 41'], ['43', 'description of 43']]);
      expect(asked).toEqual(['41,42,43', '41', '42', '43']);
      expect(res.complete).toBe(false); // the cursor stays: bug 42 is asked for again next time
      expect(res.warnings).toEqual([expect.stringMatching(/^bugzilla: comments: HTTP 401: You are not authorized to access bug #42\. .*\(bug 42 is fetched again next time\)$/)]);
    } finally {
      (client as { close?: () => void }).close?.();
      await new Promise((r) => srv.close(r));
    }
  });
});

describe('bug references', () => {
  it('reads URLs and ids of each tracker', () => {
    expect(parseBugRef('https://bugzilla.redhat.com/show_bug.cgi?id=1708311')).toMatchObject({ tracker: 'bugzilla', bugId: '1708311' });
    expect(parseBugRef('1708311')).toEqual({ tracker: 'bugzilla', bugId: '1708311' });
    expect(parseBugRef('https://issues.redhat.com/browse/OCPBUGS-44757')).toMatchObject({ tracker: 'jira', bugId: 'OCPBUGS-44757' });
    expect(parseBugRef('OCPBUGS-44757')).toEqual({ tracker: 'jira', bugId: 'OCPBUGS-44757' });
    expect(parseBugRef('https://github.com/kubernetes/kubernetes/issues/58711')).toMatchObject({ tracker: 'github', bugId: 'kubernetes/kubernetes#58711' });
    expect(parseBugRef('kubernetes/kubernetes#58711')).toEqual({ tracker: 'github', bugId: 'kubernetes/kubernetes#58711' });
  });

  it('rejects what it cannot place, and a tracker that contradicts the reference', () => {
    for (const bad of ['', 'https://example.com/whatever', 'javascript:alert(1)', 'not a bug', '12 34']) expect(() => parseBugRef(bad)).toThrow();
    expect(() => parseBugRef('OCPBUGS-1', 'bugzilla')).toThrow(/not bugzilla|of bugzilla/);
    expect(() => parseBugRef('1', 'youtrack')).toThrow(/unknown tracker/);
  });

  it('reads Jira and RFC 3339 times', () => {
    expect(parseTrackerTime('2026-11-22T10:00:00.000+0000')).toBe(Date.UTC(2026, 10, 22, 10) / 1000);
    expect(parseTrackerTime('2026-11-22T10:00:00Z')).toBe(Date.UTC(2026, 10, 22, 10) / 1000);
    expect(parseTrackerTime('yesterday')).toBeNull();
  });
});

describe('file a bug', () => {
  const ctx = { testName: '[sig-x] thing should work [Suite:k8s]', classification: 'regression', evidenceSummary: 'failing since payload X', permalink: 'https://buildcop.example/tests/0123456789abcdef?at=2026-11-23T00:00:00Z' };
  it('prefills each configured tracker\'s new-bug form with the name, verdict, evidence and permanent link', () => {
    const links = newBugLinks(
      { bugzilla: { url: 'https://bugzilla.example/', query: 'OPEN product="OpenShift Container Platform"' }, jira: { url: 'https://jira.example' }, github: { url: 'https://api.github.com', repos: ['kubernetes/kubernetes'] } },
      ctx,
    );
    const [bz, jira, gh] = links.map((l) => new URL(l.url));
    expect(bz.pathname).toBe('/enter_bug.cgi');
    expect(bz.searchParams.get('product')).toBe('OpenShift Container Platform');
    expect(bz.searchParams.get('short_desc')).toBe(ctx.testName);
    for (const v of [ctx.testName, 'regression', ctx.evidenceSummary, ctx.permalink]) expect(bz.searchParams.get('comment')).toContain(v);
    expect(jira.pathname).toBe('/secure/CreateIssueDetails!init.jspa');
    expect(jira.searchParams.get('summary')).toBe(ctx.testName);
    expect(jira.searchParams.get('description')).toContain(ctx.permalink);
    expect(`${gh.origin}${gh.pathname}`).toBe('https://github.com/kubernetes/kubernetes/issues/new');
    expect(gh.searchParams.get('title')).toBe(ctx.testName);
    expect(gh.searchParams.get('body')).toContain(ctx.evidenceSummary);
    expect(newBugLinks(undefined, ctx)).toEqual([]);
    expect(bugzillaProduct('ALL')).toBeUndefined();
  });
});
