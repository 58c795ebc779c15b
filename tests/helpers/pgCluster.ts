// A PostgreSQL server of a test's own (scripts/pg-test-server.sh on a free port and its own folder),
// for the fault tests that stop and start it: never the shared server of BUILDCOP_TEST_PG_URL.
// Where Debian's postgresql is not installed, those tests say that they did not run.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, it } from 'vitest';
import { freePort } from './freePort';

const SCRIPT = path.resolve(__dirname, '../../scripts/pg-test-server.sh');
const run = promisify(execFile);

export const postgresInstalled = fs.existsSync('/usr/lib/postgresql') && fs.readdirSync('/usr/lib/postgresql').some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/postgres`));

export interface OwnPostgres {
  /** the server's admin URL (database postgres) */
  url: string;
  /** a new empty database on it, by URL */
  createDatabase(): Promise<string>;
  /** fast: a shutdown that ends every session; immediate: as a crash of the server would */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** stops it and removes its folder */
  destroy(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  const env = { ...process.env, PGPORT: String(port), PGDATA: `/tmp/buildcop-faultpg-${port}-${crypto.randomBytes(3).toString('hex')}` };
  const script = (...args: string[]) => run(SCRIPT, args, { env, timeout: 120_000 }).then((r) => r.stdout.trim());
  const url = await script();
  return {
    url,
    async createDatabase() {
      const name = `buildcop_fault_${crypto.randomBytes(5).toString('hex')}`;
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
      const u = new URL(url);
      u.pathname = `/${name}`;
      return u.toString();
    },
    stop: async (mode = 'fast') => void (await script('stop', mode)),
    start: async () => void (await script()),
    async destroy() {
      await script('stop', 'immediate');
      fs.rmSync(env.PGDATA, { recursive: true, force: true });
    },
  };
}

/** describe() for tests that need a PostgreSQL server of their own; "did not run" where none is installed. */
export function describeWithOwnPostgres(name: string, fn: () => void): void {
  if (postgresInstalled) describe(name, fn);
  else {
    describe(name, () => {
      it('did not run: no PostgreSQL server is installed (apt-get install postgresql) to stop and start', () => {
        console.warn(`[postgres] "${name}" did not run: no PostgreSQL server is installed`);
      });
    });
  }
}
