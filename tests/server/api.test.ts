// The JSON API's error mapping, with real failures: a query's mistake is 400 or 404 with its message;
// a database that cannot be reached is 503 (worth a retry), whichever engine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handle } from '../../lib/server/api';
import { openDatabase } from '../../lib/store/db';

const answer = async (r: Response) => ({ status: r.status, body: await r.json(), retryAfter: r.headers.get('retry-after') });

describe('API errors', () => {
  it('a database that cannot be reached is 503 with the reason, on PostgreSQL and on SQLite', async () => {
    // nothing listens on port 1; a directory is no SQLite file
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buildcop-api-'));
    for (const url of ['postgresql://postgres@127.0.0.1:1/buildcop', `file:${dir}`]) {
      const a = await answer(await handle(() => openDatabase(url)));
      expect(a).toMatchObject({ status: 503, body: { error: 'database unavailable' }, retryAfter: '30' });
      expect(a.body.detail).toMatch(/ECONNREFUSED|unable to open database file/);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('errors that carry a status keep it and their message', async () => {
    const notFound = await handle(async () => { throw Object.assign(new Error('no test "x"'), { status: 404 }); });
    expect(await answer(notFound)).toMatchObject({ status: 404, body: { error: 'no test "x"' } });
  });
});
