// The CLI writes all of its output whatever it writes to: a pipe read slowly (exiting at once had cut
// an answer at the pipe's 64 KiB) and a file.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
