// Who a request comes from, for the sign-in limit: the connection's address as the preload records
// it, the proxies' X-Forwarded-For only behind proxies the operator named, IPv6 by its /64.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientAddress, clientKey } from '../../lib/server/clientAddress';

const marker = Symbol.for('buildcop.peerHeader');
const req = (headers: Record<string, string>) => new Request('http://buildcop.test/api/auth', { headers });

describe('clientKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['[2001:db8::1]', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['not an address', 'unknown'],
  ])('%s is client %s', (address, key) => expect(clientKey(address)).toBe(key));
});

describe('clientAddress', () => {
  beforeEach(() => void ((globalThis as { [k: symbol]: unknown })[marker] = true));
  afterEach(() => void delete (globalThis as { [k: symbol]: unknown })[marker]);

  it("is the connection's address, whatever X-Forwarded-For the client wrote", () => {
    expect(clientAddress(req({ 'x-buildcop-peer': '192.0.2.7', 'x-forwarded-for': '198.51.100.1' }), '')).toBe('192.0.2.7');
  });
  it('behind a trusted proxy, the right-most address that is not a trusted proxy', () => {
    const r = req({ 'x-buildcop-peer': '10.0.0.2', 'x-forwarded-for': '203.0.113.5, 198.51.100.1, 10.0.0.3' });
    expect(clientAddress(r, '10.0.0.2, 10.0.0.3')).toBe('198.51.100.1');
  });
  it('without the preload the header is not believed: every request is one client', () => {
    delete (globalThis as { [k: symbol]: unknown })[marker];
    expect(clientAddress(req({ 'x-buildcop-peer': '192.0.2.7' }), '')).toBe('unknown');
  });
});
