// Who a request comes from, for limits per client (sign-in attempts). The client is the address of
// the connection the request came on (`npm start` preloads scripts/peerAddress.mjs, which records
// it). Behind a reverse proxy every connection is the proxy's: name it in BUILDCOP_TRUSTED_PROXIES
// (comma-separated addresses) and the client is then the right-most address of X-Forwarded-For that
// is not one of those proxies (the left-most ones are whatever the client wrote). IPv6 clients count
// by their /64, which one host can usually choose addresses from. Without the preload (a bare
// `next start`), every request is the one client "unknown": the limit then holds for all together.
import net from 'node:net';

const PEER_HEADER = 'x-buildcop-peer';
const preloaded = () => (globalThis as { [k: symbol]: unknown })[Symbol.for('buildcop.peerHeader')] === true;

/** The 8 groups of an IPv6 address, or null. */
function ipv6Groups(a: string): number[] | null {
  if (!net.isIPv6(a)) return null;
  let s = a.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const [b0, b1, b2, b3] = v4[1].split('.').map(Number);
    s = `${s.slice(0, -v4[1].length)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.length === 8 ? groups.map((g) => parseInt(g, 16)) : null;
}

/** An address as one client: IPv4 (IPv4-mapped IPv6 too) whole, IPv6 by its /64. */
export function clientKey(address: string): string {
  const a = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return mapped[1];
  if (net.isIPv4(a)) return a;
  const g = ipv6Groups(a);
  return g ? `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64` : 'unknown';
}

/** The client a request comes from (see the top of this file). */
export function clientAddress(req: Request, trustedProxies = process.env.BUILDCOP_TRUSTED_PROXIES): string {
  const peer = preloaded() ? req.headers.get(PEER_HEADER) ?? '' : '';
  if (!peer) return 'unknown';
  const trusted = new Set((trustedProxies ?? '').split(',').map((s) => s.trim()).filter(Boolean).map(clientKey));
  if (!trusted.has(clientKey(peer))) return clientKey(peer);
  const hops = (req.headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.has(clientKey(hops[i]))) return clientKey(hops[i]);
  return clientKey(peer);
}
