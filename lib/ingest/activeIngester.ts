// Exactly one active ingester per PostgreSQL database: `ingest --interval` holds a session advisory
// lock on a connection of its own for as long as it runs passes. A second one waits for that lock as
// a standby (and says so, naming the active one); when the active one dies, even by kill -9, its
// connection closes, PostgreSQL releases the lock, and the standby takes over at once. When the
// active one loses its lock connection (a server restart), it stops passing until it holds the lock
// again: a standby may have taken over meanwhile. SQLite needs none of this: one machine, one file,
// and its own write lock.
import os from 'node:os';
import type { Client } from 'pg';

/** The lock's key (the migrations use 727274, the day partitions 727275); advisory locks are per database. */
export const INGESTER_LOCK = 727276;
const RETRY_MS = 2000;

export interface IngesterLock {
  /**
   * Resolves once this process holds the lock: at once while it does; otherwise it waits, as a
   * standby, until the active ingester is gone (and through the database being down).
   */
  hold(): Promise<void>;
  release(): Promise<void>;
}

/** Who holds the lock now, as its connection names itself; undefined when nobody does. */
async function holder(c: Client): Promise<string | undefined> {
  const r = await c.query(
    `SELECT a.application_name, a.pid, a.client_addr FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1`,
    [INGESTER_LOCK],
  );
  const a = r.rows[0];
  return a ? `${a.application_name || 'an unnamed client'} (PostgreSQL backend ${a.pid}${a.client_addr ? ` from ${a.client_addr}` : ''})` : undefined;
}

/** The lock for the database at `url`; `say` gets one line per change (standby, active, lost). */
export function ingesterLock(url: string, say: (line: string) => void): IngesterLock {
  const name = `buildcop ingest on ${os.hostname()} pid ${process.pid}`;
  let client: Client | undefined;
  let held = false;
  let waited = false;
  let lastError = '';

  const drop = () => {
    const c = client;
    client = undefined;
    if (held) say('ingest: lost the active ingester lock (its connection closed); no pass until it is held again');
    held = false;
    void c?.end().catch(() => undefined);
  };

  async function tryOnce(): Promise<boolean> {
    if (!client) {
      const { default: pg } = await import('pg');
      const c = new pg.Client({ connectionString: url, application_name: name.slice(0, 63), keepAlive: true, connectionTimeoutMillis: 10_000 });
      c.on('error', () => c === client && drop());
      c.on('end', () => c === client && drop());
      await c.connect();
      client = c;
    }
    const c = client;
    if ((await c.query('SELECT pg_try_advisory_lock($1) AS ok', [INGESTER_LOCK])).rows[0].ok) return true;
    if (!waited) say(`ingest: standby: the active ingester is ${(await holder(c)) ?? 'another process'}; waiting to take over`);
    waited = true;
    // blocks until the holder's session ends (kill -9 included: its connection closes)
    await c.query('SELECT pg_advisory_lock($1)', [INGESTER_LOCK]);
    return true;
  }

  return {
    async hold() {
      while (!held) {
        try {
          held = await tryOnce();
          say(waited ? 'ingest: active: took over as the active ingester (the previous one is gone)' : 'ingest: active ingester (holding the ingester lock)');
          waited = false;
          lastError = '';
        } catch (e) {
          drop();
          const message = (e as Error).message;
          if (message !== lastError) say(`ingest: cannot take the ingester lock: ${message}; trying again every ${RETRY_MS / 1000} s`);
          lastError = message;
          await new Promise((r) => setTimeout(r, RETRY_MS));
        }
      }
    },
    async release() {
      const c = client;
      client = undefined;
      held = false;
      await c?.end().catch(() => undefined);
    },
  };
}
