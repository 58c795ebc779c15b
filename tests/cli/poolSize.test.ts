// A CLI command gives one answer and exits: it opens at most a few PostgreSQL connections (each costs
// the server an authentication, a process and its partitions' catalog caches), where the server and
// the ingester keep a pool of eight (lib/store/poolSize.ts).
import { afterEach, expect, it, vi } from 'vitest';
import { main } from '../../lib/cli/main';
import { closeDatabase, openDatabase } from '../../lib/store/db';
import { ANSWER_POOL_SIZE, postgresPoolSize, SERVER_POOL_SIZE, setPostgresPoolSize } from '../../lib/store/poolSize';
import { describeOnPostgres, freshDatabase } from '../helpers/databases';
import { END_ISO, freshWorldDatabase } from '../helpers/world';
import pg from 'pg';

/** The server's connections that name themselves `app` (application_name in the URL). */
async function backendsOf(url: string, app: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = $1', [app])).rows[0].n);
  } finally {
    await c.end();
  }
}

const named = (url: string, app: string) => {
  const u = new URL(url);
  u.searchParams.set('application_name', app);
  return u.toString();
};

afterEach(() => setPostgresPoolSize(SERVER_POOL_SIZE));

describeOnPostgres('PostgreSQL connections of a CLI answer', () => {
  it('a pool holds no more connections than set, however many queries are in flight', async () => {
    const t = await freshDatabase('postgres');
    setPostgresPoolSize(2);
    const db = await openDatabase(named(t.url, 'buildcop-pool-of-two'));
    try {
      const pids = await Promise.all(Array.from({ length: 8 }, () => db.rows('SELECT pg_backend_pid(), pg_sleep(0.05)')));
      expect(new Set(pids.map((rows) => rows[0][0])).size).toBe(2);
    } finally {
      await closeDatabase(db);
      await t.drop();
    }
  });

  it('a computed hot list from the CLI opens at most ANSWER_POOL_SIZE connections; ingest keeps the server pool', async () => {
    const world = await freshWorldDatabase('postgres');
    // the same database under a name of its own: a pool apart from the one the world was ingested with
    const url = named(world.url, 'buildcop-cli-answer');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['hotlist', '--window', '14d', '--at', END_ISO, '--json', '--db', url])).toBe(0);
      const printed = JSON.parse(write.mock.calls.map(([chunk]) => String(chunk)).join(''));
      expect(printed.items.length).toBeGreaterThan(0);
      expect(postgresPoolSize()).toBe(ANSWER_POOL_SIZE);
      const held = await backendsOf(world.url, 'buildcop-cli-answer');
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(ANSWER_POOL_SIZE);
      // a command that writes much is refused here (no configuration), after choosing its pool
      expect(await main(['ingest', '--db', url, '--config', '/nonexistent/buildcop.config.json'])).not.toBe(0);
      expect(postgresPoolSize()).toBe(SERVER_POOL_SIZE);
    } finally {
      write.mockRestore();
      await closeDatabase(await openDatabase(url));
      await world.drop();
    }
  }, 120_000);
});
