// Exactly one active `ingest --interval` per PostgreSQL database, with real processes: the first takes
// the ingester lock and passes; a second waits as a standby, says so naming the active one, and runs
// no pass; when the active one is killed with SIGKILL the standby takes over and passes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReplayServer } from '../../lib/replay/server';
import { closeDatabase, openDatabase } from '../../lib/store/db';
import { describeOnPostgres, freshDatabase, type TestDatabase } from '../helpers/databases';
import { configFor, replay, sampleWorld, writeConfig } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');

interface Ingester {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  /** pass summaries printed so far */
  passes: () => number;
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describeOnPostgres('one active ingester', () => {
  let server: ReplayServer;
  let target: TestDatabase;
  let configFile: string;
  const children: ChildProcess[] = [];

  const start = (): Ingester => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'ingest', '--interval', '1s', '--quiet', '--config', configFile, '--db', target.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    return { child, out: () => out, err: () => err, passes: () => out.split('\n').filter((l) => /^ingest: \d/.test(l)).length };
  };

  beforeAll(async () => {
    const { dir } = await sampleWorld();
    server = await replay(dir);
    target = await freshDatabase('postgres');
    await closeDatabase(await openDatabase(target.url)); // migrated before the processes start
    configFile = writeConfig(configFor(dir, server.url));
  }, 120_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await server?.close();
    await target?.drop();
  });

  it('a second ingest --interval waits as a standby and takes over when the active one is killed', async () => {
    const active = start();
    await until('the first ingester to pass', () => active.passes() >= 1);
    expect(active.err()).toMatch(/^ingest: active ingester \(holding the ingester lock\)$/m);

    const standby = start();
    await until('the second to say it stands by', () => /standby/.test(standby.err()));
    expect(standby.err()).toMatch(new RegExp(`^ingest: standby: the active ingester is buildcop ingest on \\S+ pid ${active.child.pid} \\(PostgreSQL backend \\d+.*\\); waiting to take over$`, 'm'));
    const passesThen = active.passes();
    await until('the active one to pass twice more', () => active.passes() >= passesThen + 2);
    expect(standby.passes()).toBe(0);
    expect(standby.out()).toBe('');

    active.child.kill('SIGKILL');
    await new Promise((r) => active.child.once('exit', r));
    const activePasses = active.passes();
    await until('the standby to take over and pass', () => standby.passes() >= 1, 60_000);
    expect(standby.err()).toMatch(/^ingest: active: took over as the active ingester \(the previous one is gone\)$/m);

    // every finished pass in the database is one the two printed: never two at once
    const db = await openDatabase(target.url);
    try {
      await until('the standby to pass once more', () => standby.passes() >= 2, 60_000);
      standby.child.kill('SIGTERM');
      await new Promise((r) => standby.child.once('exit', r));
      const finished = Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ingest_pass WHERE finished_at IS NOT NULL'))!.n);
      expect(finished).toBe(activePasses + standby.passes());
    } finally {
      await closeDatabase(db);
    }
  }, 300_000);
});
