// Incremental bug refresh against the time-aware replay server: the second refresh asks each tracker
// only for what changed since the first (Bugzilla last_change_time, Jira `updated >=`, GitHub since),
// fetches comments only for those bugs, and ends with what a full refresh would have stored.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allowedHosts, type Config } from '../../lib/config';
import { refreshBugs } from '../../lib/ingest/bugs';
import type { ReplayServer } from '../../lib/replay/server';
import { HttpClient } from '../../lib/sources/http';
import type { Database } from '../../lib/store/db';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld } from '../helpers/world';

interface WorldBug { tracker: string; id: string; created: number; lastChange: number }

const bugRows = (db: Database) =>
  db.all('SELECT tracker, bug_id, url, summary, status, resolution, description, comments, component, last_change, closed_at FROM bug ORDER BY tracker, bug_id');

describeEachDatabase('incremental bug refresh', (kind) => {
  let server: ReplayServer;
  let config: Config;
  let http: HttpClient;
  let manifest: { endUnix: number; bugs: WorldBug[] };
  const dbs: { t: TestDatabase; db: Database }[] = [];
  const fresh = async () => {
    const t = await freshDatabase(kind);
    const db = await open(t);
    dbs.push({ t, db });
    return db;
  };

  beforeAll(async () => {
    const { dir } = await sampleWorld();
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'world.json'), 'utf8'));
    server = await replay(dir);
    config = configFor(dir, server.url);
    http = new HttpClient({ allowedHosts: allowedHosts(config), retries: 1, retryBaseMs: 5 });
  });
  afterAll(async () => {
    (http as { close?: () => void } | undefined)?.close?.();
    await server?.close();
    for (const { t, db } of dbs) {
      await closeDatabase(db);
      await t.drop();
    }
  });

  it('fetches only the bugs changed since the last refresh, and stores what a full refresh stores', async () => {
    const end = manifest.endUnix;
    const t1 = end - 36 * 3600;
    const db = await fresh();
    server.setNow(new Date(t1 * 1000));
    const first = await refreshBugs({ config, db, http, now: end });
    expect(first.warnings).toEqual([]);
    const visible = manifest.bugs.filter((b) => b.created <= t1 && b.id !== 'kubernetes/kubernetes#60122');
    expect((await db.all<{ bug_id: string }>('SELECT bug_id FROM bug')).map((r) => r.bug_id).sort()).toEqual(visible.map((b) => b.id).sort());

    server.setNow(new Date(end * 1000));
    const mark = server.requests.length;
    const second = await refreshBugs({ config, db, http, now: end });
    expect(second.warnings).toEqual([]);
    const seen = server.requests.slice(mark).map((r) => decodeURIComponent(r.path.replace(/\+/g, ' ')));
    const changed = (tracker: string) => manifest.bugs.filter((b) => b.tracker === tracker && b.lastChange > t1 && b.id !== 'kubernetes/kubernetes#60122').map((b) => b.id).sort();

    // every search carries the cursor
    const searches = seen.filter((p) => /^\/rest\/bug\?|^\/rest\/api\/2\/search\?|^\/repos\/[^/]+\/[^/]+\/issues\?/.test(p));
    expect(searches.length).toBeGreaterThan(0);
    for (const p of searches) expect(p, p).toMatch(/last_change_time=|updated >= "|since=/);

    // comments only for the changed bugs
    const bzComments = seen.filter((p) => /^\/rest\/bug\/\d+\/comment/.test(p)).flatMap((p) => {
      const u = new URL(p, 'http://x');
      return [u.pathname.split('/')[3], ...u.searchParams.getAll('ids')];
    });
    expect(bzComments.sort()).toEqual(changed('bugzilla'));
    const ghComments = seen.filter((p) => /^\/repos\/.*\/issues\/\d+\/comments/.test(p)).map((p) => `kubernetes/kubernetes#${p.split('/')[5]}`);
    expect(ghComments.sort()).toEqual(changed('github'));
    expect(changed('jira').length).toBeGreaterThan(0);
    expect(second.summary).toContain(`jira ${changed('jira').length} changed`);

    // the incremental result is the full one
    const full = await fresh();
    await refreshBugs({ config, db: full, http, now: end });
    expect(await bugRows(db)).toEqual(await bugRows(full));

    // nothing changed: no comments fetched at all
    const mark2 = server.requests.length;
    const third = await refreshBugs({ config, db, http, now: end });
    expect(server.requests.slice(mark2).filter((r) => /\/comments?$/.test(r.path.split('?')[0]))).toEqual([]);
    expect(third.summary).toMatch(/bugzilla 0 changed.*jira 0 changed.*github kubernetes\/kubernetes 0 changed/);
  });

  it('starts over when the query changes, and reports a tracker that is down without losing its cursor', async () => {
    const end = manifest.endUnix;
    const db = await fresh();
    server.setNow(new Date(end * 1000));
    await refreshBugs({ config, db, http, now: end });
    const cursor = await db.get<{ value: string }>("SELECT value FROM kv WHERE key = 'bugs.cursor.jira'");
    expect(cursor).toBeDefined();

    server.setFaults({ status: [{ match: '^/rest/api/2/search', status: 503, times: 10 }] });
    const down = await refreshBugs({ config, db, http, now: end });
    server.setFaults({});
    expect(down.warnings.join('\n')).toMatch(/bugs: jira: search: .*503/);
    expect(down.summary).toContain('jira failed');
    expect(await db.get("SELECT value FROM kv WHERE key = 'bugs.cursor.jira'")).toEqual(cursor);

    const mark = server.requests.length;
    await refreshBugs({ config: { ...config, jira: { url: config.jira!.url, jql: 'project = OCPBUGS AND component = Storage' } }, db, http, now: end });
    const jql = server.requests.slice(mark).map((r) => decodeURIComponent(r.path.replace(/\+/g, ' '))).filter((p) => p.startsWith('/rest/api/2/search'));
    // the old cursor was for another JQL: the new one starts from the initial look-back
    expect(jql[0]).toContain(`updated >= "${new Date((end - 90 * 86400) * 1000).toISOString().slice(0, 16).replace('T', ' ').replace(/-/g, '/')}"`);
  });

  it('fetches bugs linked by hand again by id once an hour, whatever the query returns, and no others', async () => {
    const end = manifest.endUnix;
    const db = await fresh();
    server.setNow(new Date(end * 1000));
    await refreshBugs({ config, db, http, now: end });
    const pk = async (id: string) => (await db.get<{ id: number }>('SELECT id FROM bug WHERE bug_id = ?', [id]))!.id;
    // linked by hand, and another not; both last fetched two hours ago, with what they said then
    await db.run('INSERT INTO bug_link (bug_pk, test_hash, signature_hash, reason, manual, removed, created_at) VALUES (?, ?, ?, ?, 1, 0, ?)', [await pk('1763006'), 'abc', '', 'manual', end]);
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7200;
    await db.run("UPDATE bug SET fetched_at = ?, summary = 'as it was two hours ago' WHERE bug_id IN ('1763006', '1763005')", [twoHoursAgo]);

    const mark = server.requests.length;
    const r = await refreshBugs({ config, db, http, now: end });
    expect(r.warnings).toEqual([]);
    const byId = server.requests.slice(mark).map((q) => decodeURIComponent(q.path)).filter((p) => /^\/rest\/bug\?.*\bid=/.test(p));
    expect(byId).toHaveLength(1);
    expect(byId[0]).toMatch(/\bid=1763006(&|$)/);
    const rows = await db.all<{ bug_id: string; summary: string }>("SELECT bug_id, summary FROM bug WHERE bug_id IN ('1763005', '1763006') ORDER BY bug_id");
    expect(rows[0]).toEqual({ bug_id: '1763005', summary: 'as it was two hours ago' });
    expect(rows[1].summary).not.toBe('as it was two hours ago');

    // fetched just now: not again on the next refresh
    const mark2 = server.requests.length;
    await refreshBugs({ config, db, http, now: end });
    expect(server.requests.slice(mark2).filter((q) => /^\/rest\/bug\?.*\bid=/.test(decodeURIComponent(q.path)))).toEqual([]);
  });
});
