// Sign-in attempts per client (lib/server/clientAddress.ts): the admin token through the sign-in form
// or JSON, and `Authorization: Bearer` on writes. Each client has 10 attempts at once, and one more
// every 6 seconds (10 a minute); an attempt that succeeds is given back, so a script that holds the
// right token is never limited. An attempt is taken before the token is compared: 50 guesses in
// flight at once get no more than 10 through.
const BURST = 10;
const REFILL_MS = 6000;
/** clients remembered at most (the oldest are forgotten first) */
const MAX_CLIENTS = 10_000;

type Bucket = { attempts: number; at: number };
// one per process, shared by every route bundle holding a copy of this module
const buckets: Map<string, Bucket> = ((globalThis as { [k: symbol]: unknown })[Symbol.for('buildcop.signInAttempts')] ??= new Map()) as Map<string, Bucket>;

const level = (b: Bucket, now: number) => Math.min(BURST, b.attempts + (now - b.at) / REFILL_MS);

/** Takes one attempt of `client`'s: 0 when it may try, else the seconds until it may. */
export function takeSignInAttempt(client: string, now = Date.now()): number {
  const b = buckets.get(client);
  const left = b ? level(b, now) : BURST;
  if (left < 1) return Math.ceil(((1 - left) * REFILL_MS) / 1000);
  buckets.delete(client); // re-inserted last: the map's order is the forgetting order
  buckets.set(client, { attempts: left - 1, at: now });
  if (buckets.size > MAX_CLIENTS) buckets.delete(buckets.keys().next().value!);
  return 0;
}

/** Gives back the attempt of a client that held the right token. */
export function signInSucceeded(client: string, now = Date.now()): void {
  const b = buckets.get(client);
  if (b) buckets.set(client, { attempts: Math.min(BURST, level(b, now) + 1), at: now });
}

export function tooManyAttempts(waitSeconds: number): string {
  return `too many sign-in attempts from this client: try again in ${waitSeconds} s`;
}
