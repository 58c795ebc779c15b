// Alerts against real HTTP receivers on loopback: each event arrives once, a 500 is tried again, a
// receiver that never answers holds a pass no longer than its deadline, nothing is sent twice after a
// restart, and `buildcop ingest` tells the receivers of the sample world's blocked gate and rejected
// stream after its pass.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { currentCauses } from '../../lib/alerts/causes';
import { alertAfterPass } from '../../lib/alerts/afterPass';
import { deliverEvents, MAX_ATTEMPTS, postJson, receiverId, recordEvents, type Receiver } from '../../lib/alerts/deliver';
import type { AlertDraft } from '../../lib/alerts/events';
import { hotlist } from '../../lib/answers/hotlist';
import { promotionStatus } from '../../lib/answers/promotion';
import { validateConfig } from '../../lib/config';
import { closeDatabase, openDatabase, type Database } from '../../lib/store/db';
import { describeEachDatabase, freshDatabase, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, TEST_WORLD_END, worldDatabaseUrl, writeConfig } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
const run = promisify(execFile);

interface Receiving {
  url: string;
  /** the JSON bodies received, in order */
  bodies: { text: string }[];
  /** requests of any outcome */
  requests: number;
  close(): Promise<void>;
}

/** A webhook on loopback; `answer` picks each response's status from the request's number (0, 1, ...). */
async function receiver(answer: (n: number, body: string) => number = () => 200): Promise<Receiving> {
  const r: Receiving = { url: '', bodies: [], requests: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const status = answer(r.requests++, body);
      if (status >= 200 && status < 300) r.bodies.push(JSON.parse(body) as { text: string });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/services/T000/B000/secret`;
  r.close = () => new Promise((resolve) => server.close(() => resolve()));
  return r;
}

/** Accepts connections and never answers: a receiver that hangs. */
async function deadReceiver(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`,
    connections: () => connections,
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

const ALL = ['gate-blocked', 'stream-rejected', 'new-regression', 'new-cause'];
const drafts: AlertDraft[] = [
  { kind: 'gate-blocked', key: 'gate-blocked|machine-os-content 4.1|promote-4.1@2026-11-21T21:41:14Z', text: 'Promotion blocked: machine-os-content 4.1 is blocked by promote-4.1.' },
  { kind: 'stream-rejected', key: 'stream-rejected|4.2.0-0.nightly|after 4.2.0-0.nightly-2026-11-20-141800', text: 'Release stream 4.2.0-0.nightly is rejecting payloads: 5 payloads rejected in a row.' },
  { kind: 'new-regression', key: 'new-regression|e062995a6d34c2e2', text: 'New regression: [sig-network] Services should be able to create a functioning NodePort service' },
];

describeEachDatabase('alert delivery', (kind) => {
  let target: TestDatabase;
  let db: Database;
  const open: { close(): Promise<void> }[] = [];
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    target = await freshDatabase(kind);
    db = await openDatabase(target.url);
  });
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });
  afterAll(async () => {
    if (db) await closeDatabase(db);
    await target?.drop();
  });

  it('sends each event once, in Slack\'s {"text": ...} shape, and only the kinds a receiver wants', async () => {
    const all = await receiver();
    const gates = await receiver();
    open.push(all, gates);
    const receivers: Receiver[] = [{ url: all.url, on: ALL }, { url: gates.url, on: ['gate-blocked'] }];
    expect(await recordEvents(db, receivers, drafts, now())).toBe(4);
    const first = await deliverEvents(db, receivers, { now: now() });
    expect(first).toMatchObject({ sent: 4, failed: 0, waiting: 0 });
    expect(all.bodies).toEqual(drafts.map((d) => ({ text: d.text })));
    expect(gates.bodies).toEqual([{ text: drafts[0].text }]);
    // the same events again (the next pass): recorded already, sent already
    expect(await recordEvents(db, receivers, drafts, now())).toBe(0);
    expect(await deliverEvents(db, receivers, { now: now() })).toMatchObject({ sent: 0, failed: 0 });
    expect(all.requests + gates.requests).toBe(4);
    // the database names receivers by a digest, never by their secret URL
    const stored = await db.all<{ receiver: string }>('SELECT DISTINCT receiver FROM alert_event');
    expect(stored.map((s) => s.receiver).sort()).toEqual([receiverId(all.url), receiverId(gates.url)].sort());
    expect(JSON.stringify(await db.all('SELECT * FROM alert_event'))).not.toContain('secret');
  });

  it('tries a 500 again within the pass, and a receiver that keeps failing at a later pass', async () => {
    const flaky = await receiver((n) => (n === 0 ? 500 : 200));
    open.push(flaky);
    const r = [{ url: flaky.url, on: ALL }];
    await recordEvents(db, r, drafts.slice(0, 1), now());
    expect(await deliverEvents(db, r, { now: now() })).toMatchObject({ sent: 1, failed: 0 });
    expect(flaky.requests).toBe(2);
    expect(flaky.bodies).toEqual([{ text: drafts[0].text }]);

    let answer = 503;
    const down = await receiver(() => answer);
    open.push(down);
    const d = [{ url: down.url, on: ALL }];
    await recordEvents(db, d, drafts.slice(0, 1), now());
    const failed = await deliverEvents(db, d, { now: now() });
    expect(failed).toMatchObject({ sent: 0, failed: 1 });
    expect(failed.errors[0]).toMatch(/HTTP 503 \(tried again later\)/);
    const row = (await db.get<{ attempts: number; next_try: number; sent_at: number | null }>('SELECT attempts, next_try, sent_at FROM alert_event WHERE receiver = ?', [receiverId(down.url)]))!;
    expect(row.sent_at).toBeNull();
    expect(row.attempts).toBe(3);
    expect(down.requests).toBe(3);
    expect(Number(row.next_try)).toBeGreaterThan(now());
    // not before its backoff; after it, taken once the receiver is back
    expect(await deliverEvents(db, d, { now: now() })).toMatchObject({ sent: 0, failed: 0 });
    expect(down.requests).toBe(3);
    answer = 200;
    expect(await deliverEvents(db, d, { now: Number(row.next_try) })).toMatchObject({ sent: 1 });
    expect(down.bodies).toEqual([{ text: drafts[0].text }]);
    expect(down.requests).toBe(4);
  });

  it('gives a refused event up at once: a 4xx is not tried again', async () => {
    const gone = await receiver(() => 404);
    open.push(gone);
    const r = [{ url: gone.url, on: ALL }];
    await recordEvents(db, r, drafts.slice(1, 2), now());
    const s = await deliverEvents(db, r, { now: now() });
    expect(s.errors[0]).toMatch(/HTTP 404 \(given up\)/);
    expect(gone.requests).toBe(1);
    expect((await db.get<{ attempts: number }>('SELECT attempts FROM alert_event WHERE receiver = ?', [receiverId(gone.url)]))!.attempts).toBe(MAX_ATTEMPTS);
    expect(await deliverEvents(db, r, { now: now() + 86_400 })).toMatchObject({ sent: 0, failed: 0 });
  });

  it('never holds the pass past its deadline when a receiver hangs, and still serves the others', async () => {
    const dead = await deadReceiver();
    const live = await receiver();
    open.push(dead, live);
    const r = [{ url: dead.url, on: ALL }, { url: live.url, on: ALL }];
    await recordEvents(db, r, drafts, now());
    const deadlineMs = 1500;
    const t0 = performance.now();
    const s = await deliverEvents(db, r, { now: now(), deadlineMs });
    const took = performance.now() - t0;
    expect(took).toBeLessThan(deadlineMs + 1000);
    expect(dead.connections()).toBeGreaterThan(0);
    expect(live.bodies).toHaveLength(drafts.length);
    expect(s.errors.some((e) => /no answer within/.test(e))).toBe(true);
    const rows = await db.all<{ sent_at: number | null }>('SELECT sent_at FROM alert_event WHERE receiver = ?', [receiverId(dead.url)]);
    expect(rows.every((x) => x.sent_at === null)).toBe(true);
  });

  it('sends nothing twice after a restart', async () => {
    const hook = await receiver();
    open.push(hook);
    const r = [{ url: hook.url, on: ALL }];
    await recordEvents(db, r, drafts, now());
    await deliverEvents(db, r, { now: now() });
    expect(hook.bodies).toHaveLength(3);
    await closeDatabase(db);
    db = await openDatabase(target.url);
    expect(await recordEvents(db, r, drafts, now())).toBe(0);
    expect(await deliverEvents(db, r, { now: now() })).toMatchObject({ sent: 0 });
    expect(hook.requests).toBe(3);
  });

  it('contacts no host but the configured receivers\'', async () => {
    const other = await receiver();
    open.push(other);
    await expect(postJson(other.url, '{}', new Set(['hooks.slack.com']), 1000)).rejects.toThrow(/is not a configured alert receiver/);
    expect(other.requests).toBe(0);
  });
});

describe('alerts after an ingest pass on the sample world', () => {
  const at = Math.floor(TEST_WORLD_END.getTime() / 1000);
  let dbUrl: string;

  beforeAll(async () => {
    dbUrl = await worldDatabaseUrl();
  }, 600_000);

  it('tells a receiver of the blocked gate, the rejected stream and each regression, once', async () => {
    const hook = await receiver();
    const world = await sampleWorld();
    const config = validateConfig({ ...configFor(world.dir, 'http://127.0.0.1:1'), alerts: [{ url: hook.url, on: ALL }] });
    const db = await openDatabase(dbUrl);
    try {
      const status = await promotionStatus(db, config, { at, verdicts: false });
      const regressions = (await hotlist(db, { window: '7d', at, classification: 'regression', limit: 200 })).items;
      expect(status.blockedGates.length + status.rejectedStreams.length).toBeGreaterThan(1);
      expect(regressions.length).toBeGreaterThan(0);
      const newCauses = await currentCauses(db, at);
      expect(newCauses.length).toBeGreaterThan(0);
      const s = await alertAfterPass({ config, db, at, origin: 'https://buildcop.example' });
      expect(s).toMatchObject({ recorded: status.blockedGates.length + status.rejectedStreams.length + regressions.length + newCauses.length, failed: 0 });
      const texts = hook.bodies.map((b) => b.text);
      for (const g of status.blockedGates) expect(texts.filter((t) => t.startsWith(`Promotion blocked: ${g} is blocked by`))).toHaveLength(1);
      for (const name of status.rejectedStreams) expect(texts.filter((t) => t.startsWith(`Release stream ${name} is rejecting payloads: `))).toHaveLength(1);
      for (const t of regressions) expect(texts).toContain(`New regression: ${t.test.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}: ${String(t.evidence.summary)}\nhttps://buildcop.example/tests/${t.id}?at=${TEST_WORLD_END.toISOString().replace('.000Z', 'Z')}`);
      for (const c of newCauses) expect(texts.filter((t) => t.startsWith('New cause: ') && t.endsWith(`https://buildcop.example/signatures/${c.id}?at=${TEST_WORLD_END.toISOString().replace('.000Z', 'Z')}`))).toHaveLength(1);
      expect(await alertAfterPass({ config, db, at })).toMatchObject({ recorded: 0, sent: 0 });
      expect(hook.requests).toBe(s.sent);
    } finally {
      await closeDatabase(db);
      await hook.close();
    }
  });

  it('`buildcop ingest` sends them after its pass, and a second pass sends nothing', async () => {
    const hook = await receiver();
    const world = await sampleWorld();
    const server = await replay(world.dir);
    const file = writeConfig(validateConfig({ ...configFor(world.dir, server.url), alerts: [{ url: hook.url, on: ['gate-blocked', 'stream-rejected'] }] }));
    const dbFile = dbUrl.slice('file:'.length);
    try {
      const ingest = () => run(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--once', '--quiet', '--config', file, '--db', `file:${dbFile}`], { cwd: ROOT, timeout: 300_000 });
      const first = await ingest();
      expect(first.stdout).toMatch(/^alerts: [1-9]\d* new events, [1-9]\d* sent, 0 failed/m);
      const texts = hook.bodies.map((b) => b.text);
      expect(texts.some((t) => t.startsWith('Promotion blocked: '))).toBe(true);
      expect(texts.some((t) => t.startsWith('Release stream 4.2.0-0.nightly is rejecting payloads: '))).toBe(true);
      const second = await ingest();
      expect(second.stdout).toMatch(/^alerts: 0 new events, 0 sent, 0 failed, 0 waiting$/m);
      expect(hook.requests).toBe(texts.length);
    } finally {
      await server.close();
      await hook.close();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }, 600_000);
});
