// How many PostgreSQL connections each pool this process opens may hold (kept apart from db.ts, so
// that the CLI sets it before any command loads a driver). The server and the ingester answer or
// write much at once, for long: 8. A CLI command gives one answer and exits. Each connection it
// opens costs the server an authentication, a new process, and that process's catalog caches of
// every day partition (about 12 ms, then 7 ms more on its first read of the outcomes). More
// connections than the database's cores then only contend with each other and with the answer's
// own thread. At OpenShift's scale on this 2-core machine, a hot list computed by the CLI took
// 2.21 s with 2 connections against 2.51 s with 8 (medians of 8 calls); 1, 2 and 3 were alike.
export const SERVER_POOL_SIZE = 8;
export const ANSWER_POOL_SIZE = 3;

let size = SERVER_POOL_SIZE;

export const postgresPoolSize = (): number => size;

/** Pools opened from now on hold at most `n` connections (the CLI, for a command's one answer). */
export function setPostgresPoolSize(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new Error(`a pool needs a whole number of connections, got ${n}`);
  size = n;
}
