// The CLI writes all of its output whatever it writes to: a pipe read slowly (exiting at once had cut
// an answer at the pipe's 64 KiB) and a file. A hot list it computes (another time, a filter: no
// standing answer) is the answer hotlist() gives in process.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hotlist, parseHotlistQuery } from '../../lib/answers/hotlist';
import { closeDatabase, openDatabase } from '../../lib/store/db';
import { freePort } from '../helpers/freePort';
import { TEST_WORLD_END, worldDatabaseUrl } from '../helpers/world';

const ROOT = path.resolve(__dirname, '../..');
const args = (db: string) => [path.join(ROOT, 'bin/buildcop.mjs'), 'hotlist', '--window', '14d', '--limit', '5000', '--at', TEST_WORLD_END.toISOString(), '--json', '--db', db];

describe('CLI output', () => {
  it('writes a large answer whole to a pipe its reader drains late, and to a file', async () => {
    const db = await worldDatabaseUrl();
    const child = spawn(process.execPath, args(db), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const closed = new Promise((r) => child.on('close', r));
    child.stdout.pause();
    await new Promise((r) => setTimeout(r, 3000)); // the child has written into a full pipe by now
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.resume();
    const code = await closed;
    expect(code).toBe(0);
    const piped = Buffer.concat(chunks).toString();
    expect(piped.length).toBeGreaterThan(65_536);
    const answer = JSON.parse(piped);
    expect(answer.items.length).toBe(answer.totalItems);

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-cli-')), 'out.json');
    const fd = fs.openSync(file, 'w');
    const r = spawnSync(process.execPath, args(db), { cwd: ROOT, stdio: ['ignore', fd, 'inherit'] });
    fs.closeSync(fd);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(piped);
  }, 120_000);

  it('computes the hot list hotlist() gives in process, whatever the filter and time', async () => {
    const db = await worldDatabaseUrl();
    const at = new Date(TEST_WORLD_END.getTime() - 29 * 3600_000 - 17 * 60_000).toISOString();
    const conn = await openDatabase(db);
    try {
      for (const params of [{ window: '7d', at }, { window: '24h', at, release: '4.2' }, { window: '14d', at: TEST_WORLD_END.toISOString(), platform: 'aws', limit: '7' }] as Record<string, string>[]) {
        const flags = Object.entries(params).flatMap(([k, v]) => [`--${k}`, v]);
        const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), 'hotlist', ...flags, '--json', '--db', db], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
        expect(r.status, r.stderr).toBe(0);
        const cli = JSON.parse(r.stdout);
        expect(cli.items.length, JSON.stringify(params)).toBeGreaterThan(0);
        expect(cli, JSON.stringify(params)).toEqual(JSON.parse(JSON.stringify(await hotlist(conn, parseHotlistQuery(params)))));
      }
    } finally {
      await closeDatabase(conn);
    }
  }, 120_000);

  it('says a PostgreSQL server it cannot reach is unreachable: a message and exit 1, no stack', async () => {
    const port = await freePort(); // nothing listens there now: the connection is refused
    for (const command of [['hotlist', '--window', '7d'], ['stats']]) {
      const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/buildcop.mjs'), ...command, '--db', `postgresql://nobody:x@127.0.0.1:${port}/none`], { cwd: ROOT, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^buildcop ${command[0]}: the database cannot be reached: .*ECONNREFUSED`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    }
  }, 60_000);
});
