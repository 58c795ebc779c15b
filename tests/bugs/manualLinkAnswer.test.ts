// A bug linked by hand is fetched from its tracker at once; a tracker that answers with another bug
// than the one asked for (a Jira following a moved issue, a proxy that mixes answers up) gets a 400
// and nothing is stored. The trackers are the replay server's Bugzilla, Jira and GitHub, in their
// real URL shapes, behind a real HTTP server that asks for another bug than it was asked for.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as testBugsRoute from '../../app/api/tests/[id]/bugs/route';
import { testId } from '../../lib/ids';
import type { ReplayServer } from '../../lib/replay/server';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { replay, sampleWorld } from '../helpers/world';

const TOKEN = 'manual-link-answer-test-token-0123456789';
const TEST = '[sig-network] Services should be able to create a functioning NodePort service [Suite:openshift/conformance/parallel] [Suite:k8s]';
const ID = testId(TEST);

// asked → answered: bugs of the sample world, so the answers are whole, real-shaped bugs
const SWAPS = {
  bugzilla: ['1763001', '1763002'],
  jira: ['OCPBUGS-1201', 'OCPBUGS-1202'],
  github: ['kubernetes/kubernetes#58711', 'kubernetes/kubernetes#59320'],
} as const;

let replayServer: ReplayServer;
let liar: http.Server;
/** what the server in front of the trackers swaps in the requests it forwards (none: it forwards as asked) */
let swap: [string, string] | undefined;
let db: Database;
let dir: string;

/** Forwards every request to the replay server, with the asked bug's id replaced by the other's. */
function startLiar(target: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let url = req.url ?? '/';
    if (swap) {
      const [asked, answered] = swap.map((id) => (id.includes('#') ? `/issues/${id.split('#')[1]}` : id));
      url = url.replaceAll(asked, answered);
    }
    http.get(`${target}${url}`, { headers: { ...req.headers, host: new URL(target).host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    }).on('error', () => res.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const link = (bug: string) =>
  testBugsRoute.POST(
    new NextRequest(`http://buildcop.test/api/tests/${ID}/bugs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ bug }),
    }),
    { params: Promise.resolve({ id: ID }) },
  );

beforeAll(async () => {
  replayServer = await replay((await sampleWorld()).dir);
  liar = await startLiar(replayServer.url);
  const url = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-manual-'));
  const config = { prow: { url }, bugzilla: { url }, jira: { url }, github: { url, repos: ['kubernetes/kubernetes'] } };
  fs.writeFileSync(path.join(dir, 'buildcop.config.json'), JSON.stringify(config));
  process.env.BUILDCOP_CONFIG = path.join(dir, 'buildcop.config.json');
  process.env.DATABASE_URL = `file:${path.join(dir, 'manual.db')}`;
  process.env.BUILDCOP_ADMIN_TOKEN = TOKEN;
  db = await openDatabase(process.env.DATABASE_URL);
  await db.run('INSERT INTO test (hash, name, first_seen) VALUES (?, ?, 0)', [ID, TEST]);
}, 120_000);
afterAll(async () => {
  await closeDatabase(db);
  await new Promise((r) => liar?.close(r));
  await replayServer?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.BUILDCOP_ADMIN_TOKEN;
});
beforeEach(async () => {
  await db.run('DELETE FROM bug_link');
  await db.run('DELETE FROM bug');
});

describe('a manual link checks that the tracker answered the bug asked for', () => {
  it.each(Object.entries(SWAPS))('%s answering another bug: 400, nothing stored', async (tracker, [asked, answered]) => {
    swap = [asked, answered];
    const res = await link(asked);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain(`${tracker} answered ${answered}`);
    expect(body.error).toContain(`when asked for ${asked}`);
    expect(await db.all('SELECT bug_id FROM bug')).toEqual([]);
    expect(await db.all('SELECT 1 FROM bug_link')).toEqual([]);
  });

  it.each(Object.entries(SWAPS))('%s answering the bug asked for: linked, with its summary', async (tracker, [asked]) => {
    swap = undefined;
    const res = await link(asked);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { bug: { tracker: string; id: string; summary: string } };
    expect(body.bug).toMatchObject({ tracker, id: asked });
    expect(body.bug.summary.length).toBeGreaterThan(0);
    expect(await db.all('SELECT bug_id FROM bug')).toEqual([{ bug_id: asked }]);
  });
});
