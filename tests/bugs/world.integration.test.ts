// Bugs of the sample world through a real ingest pass, on SQLite and PostgreSQL: link precision and
// recall against the world's truth, the "recurred after fix" flag, links made and removed by hand
// surviving re-ingest, and a tracker failing without failing the pass.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { linkBug, listBugs, unlinkBug } from '../../lib/bugs/manage';
import { hotlist, parseHotlistQuery } from '../../lib/answers/hotlist';
import { parseTestQuery, testDetail } from '../../lib/answers/testDetail';
import { allowedHosts } from '../../lib/config';
import { ingestPass } from '../../lib/ingest/pass';
import { createProgress } from '../../lib/ingest/progress';
import type { ReplayServer } from '../../lib/replay/server';
import { HttpClient } from '../../lib/sources/http';
import type { Database } from '../../lib/store/db';
import { closeDatabase, describeEachDatabase, freshDatabase, open, type TestDatabase } from '../helpers/databases';
import { configFor, END_ISO, replay, sampleWorld, type Truth } from '../helpers/world';

const quiet = createProgress(process.stderr, true);

type Link = { tracker: string; id: string; test: string; reason: string };
const linkKey = (l: Link) => `${l.tracker} ${l.id} ${l.reason} ${l.test}`;

async function automaticLinks(db: Database): Promise<Link[]> {
  const { bugs } = await listBugs(db);
  return bugs.flatMap((b) => b.links.filter((l) => l.reason !== 'manual').map((l) => ({ tracker: b.tracker, id: b.id, test: l.test, reason: l.reason })));
}

describeEachDatabase('bugs of the sample world', (kind) => {
  let world: { dir: string; truth: Truth };
  let server: ReplayServer;
  let target: TestDatabase;
  let db: Database;
  let http: HttpClient;
  const pass = () => ingestPass({ config: configFor(world.dir, server.url), db, progress: quiet, http });

  beforeAll(async () => {
    world = await sampleWorld();
    server = await replay(world.dir);
    target = await freshDatabase(kind);
    db = await open(target);
    http = new HttpClient({ allowedHosts: allowedHosts(configFor(world.dir, server.url)), retries: 2, retryBaseMs: 5 });
    const summary = await pass();
    expect(summary.warnings).toEqual([]);
  }, 240_000);
  afterAll(async () => {
    (http as { close?: () => void } | undefined)?.close?.();
    await server?.close();
    if (db) await closeDatabase(db);
    await target?.drop();
  });

  it('finds every link the world says must exist, with its reason, and no other (precision and recall 1)', async () => {
    const { mustLink, mustNotLink } = world.truth.bugs as { mustLink: Link[]; mustNotLink: { tracker: string; id: string }[] };
    const found = await automaticLinks(db);
    const expected = new Set(mustLink.map(linkKey));
    const got = new Set(found.map(linkKey));
    const correct = [...got].filter((k) => expected.has(k)).length;
    console.log(`[${kind}] bug links: ${correct}/${got.size} correct (precision ${(correct / got.size).toFixed(3)}), ${correct}/${expected.size} found (recall ${(correct / expected.size).toFixed(3)})`);
    expect([...got].sort()).toEqual([...expected].sort());
    const { bugs } = await listBugs(db);
    for (const n of mustNotLink) {
      const b = bugs.find((x) => x.tracker === n.tracker && x.id === n.id);
      if (n.tracker === 'github' && (n as { reason?: string }).reason === 'pull-request') expect(b, 'pull requests are not bugs').toBeUndefined();
      else expect(b?.tests, `${n.tracker} ${n.id}`).toEqual([]);
    }
    // the contract shape of `buildcop bugs --json` / GET /api/bugs
    const linked = bugs.find((b) => b.id === mustLink[0].id)!;
    expect(Object.keys(linked).sort()).toEqual(['id', 'links', 'status', 'summary', 'tests', 'tracker', 'url']);
    expect(linked.tests).toContain(mustLink[0].test);
  });

  it('flags "recurred after fix" on the hot list and the test page, and only there', async () => {
    const { recurred } = world.truth.bugs as { recurred: { tracker: string; id: string; test: string; closedAtIso: string; failuresAfterClose: number } };
    expect(recurred.failuresAfterClose).toBeGreaterThan(0);
    const list = await hotlist(db, parseHotlistQuery({ window: '7d', at: END_ISO, limit: '10000' }), { ignoreTests: [] });
    const flagged = list.items.flatMap((i) => i.bugs.filter((b) => b.recurred).map((b) => `${i.test} ${b.tracker} ${b.id}`));
    expect(flagged).toEqual([`${recurred.test} ${recurred.tracker} ${recurred.id}`]);
    const item = list.items.find((i) => i.test === recurred.test)!;
    expect(Date.parse(item.bugs[0].closedAt!)).toBe(Date.parse(recurred.closedAtIso));
    expect(list.withoutBug).toBe(list.items.filter((i) => i.bugs.length === 0).length);
    const detail = await testDetail(db, recurred.test, parseTestQuery({ at: END_ISO }));
    expect(detail.bugs.map((b) => [b.id, b.recurred])).toEqual([[recurred.id, true]]);
  });

  it('keeps links and unlinks made by hand through re-ingest and bug refreshes', async () => {
    const { mustLink } = world.truth.bugs as { mustLink: Link[] };
    const list = await hotlist(db, parseHotlistQuery({ window: '7d', at: END_ISO, limit: '10000', noBug: 'true' }), { ignoreTests: [] });
    const bare = list.items[0].test;
    const auto = mustLink.find((l) => l.reason === 'name-in-comment' && l.tracker === 'bugzilla')!;
    const sigRow = (await db.get<{ hash: string }>(
      `SELECT s.hash FROM signature s JOIN test_outcome o ON o.signature_id = s.id JOIN test t ON t.id = o.test_id WHERE t.name = ? GROUP BY s.hash ORDER BY COUNT(*) DESC`,
      [mustLink.find((l) => l.reason === 'name-in-description' && l.tracker === 'jira')!.test],
    ))!;

    await linkBug(db, { test: bare, bug: `${server.url}/show_bug.cgi?id=1763006` });
    await unlinkBug(db, { test: auto.test, bug: auto.id, tracker: 'bugzilla' });
    await linkBug(db, { test: bare, bug: 'OCPBUGS-1205', signature: sigRow.hash });

    const check = async () => {
      const { bugs } = await listBugs(db);
      const bz6 = bugs.find((b) => b.id === '1763006')!;
      expect(bz6.links).toEqual([{ test: bare, reason: 'manual' }]);
      expect(bugs.find((b) => b.id === auto.id)!.tests).not.toContain(auto.test);
      const j5 = bugs.find((b) => b.id === 'OCPBUGS-1205')!;
      expect(j5.links.length).toBeGreaterThan(0);
      expect(j5.links.every((l) => l.reason === 'manual' && l.signature === sigRow.hash)).toBe(true);
      const detail = await testDetail(db, bare, parseTestQuery({ at: END_ISO }));
      expect(detail.bugs.map((b) => [b.id, b.reason])).toContainEqual(['1763006', 'manual']);
    };
    await check();
    const again = await pass();
    expect(again.runsNew).toBe(0);
    await check();
    // the automatic links not touched by hand are all still there
    const left = new Set((await automaticLinks(db)).map(linkKey));
    for (const l of mustLink) if (l !== auto) expect(left.has(linkKey(l)), linkKey(l)).toBe(true);

    // undo: the signature link goes (and stays gone), the hand link on a test comes back when made again
    await unlinkBug(db, { test: bare, bug: 'OCPBUGS-1205', signature: sigRow.hash });
    await linkBug(db, { test: auto.test, bug: auto.id });
    await pass();
    const { bugs } = await listBugs(db);
    expect(bugs.find((b) => b.id === 'OCPBUGS-1205')!.links).toEqual([]);
    expect(bugs.find((b) => b.id === auto.id)!.links).toEqual([{ test: auto.test, reason: 'manual' }]);
    await expect(unlinkBug(db, { test: bare, bug: 'OCPBUGS-1204' })).rejects.toMatchObject({ status: 404 });
    await expect(linkBug(db, { test: 'no such test', bug: '1' })).rejects.toMatchObject({ status: 404 });
  }, 240_000);

  it('a tracker answering 503 or garbage is retried and reported; the pass and the other trackers go on', async () => {
    const before = await listBugs(db);
    const cursors = await db.all('SELECT key, value FROM kv WHERE key LIKE ? ORDER BY key', ['bugs.cursor.%']);
    server.setFaults({ status: [{ match: '^/rest/bug', status: 503, times: 100 }], truncate: ['^/rest/api/2/search'] });
    const requests = server.requests.length;
    let summary;
    try {
      summary = await pass();
    } finally {
      server.setFaults({});
    }
    const seen = server.requests.slice(requests);
    expect(seen.filter((r) => r.path.startsWith('/rest/bug?')).length).toBe(3); // first try + 2 retries
    expect(summary.warnings.some((w) => /bugs: bugzilla: .*503/.test(w))).toBe(true);
    expect(summary.warnings.some((w) => /bugs: jira: .*not JSON/.test(w))).toBe(true);
    expect(seen.some((r) => r.path.startsWith('/repos/kubernetes/kubernetes/issues?') && r.status === 200)).toBe(true);
    expect(await listBugs(db)).toEqual(before);
    expect(await db.all('SELECT key, value FROM kv WHERE key LIKE ? ORDER BY key', ['bugs.cursor.%'])).toEqual(cursors);
  }, 120_000);
});
