import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { addressKey, clientKey, proxyTrust } from '../../src/http/client-identity.js';

/** Who a request comes from: pure functions of its peer address, its X-Forwarded-For and the trusted proxies. */

function request(peer: string, forwardedFor?: string): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return {
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers,
  } as unknown as IncomingMessage;
}

describe('client identity', () => {
  it('counts an IPv4 address as itself (also IPv4-mapped) and an IPv6 address by its /64', () => {
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('reads X-Forwarded-For only through trusted proxies, taking the nearest untrusted hop', () => {
    const none = proxyTrust([]);
    const proxies = proxyTrust(['10.0.0.0/8', 'loopback']);
    expect(clientKey(request('10.0.0.2', '203.0.113.5'), none, undefined)).toBe('10.0.0.2');
    expect(clientKey(request('10.0.0.2', '203.0.113.5'), proxies, undefined)).toBe('203.0.113.5');
    // A client that forges a hop in front of its own address gains nothing: the nearest untrusted one counts.
    expect(clientKey(request('10.0.0.2', '192.0.2.9, 203.0.113.5, 10.0.0.7'), proxies, undefined)).toBe('203.0.113.5');
    expect(clientKey(request('198.51.100.1', '203.0.113.5'), proxies, undefined)).toBe('198.51.100.1');
    expect(clientKey(request('10.0.0.2', '203.0.113.5'), proxies, 'user-1')).toBe('sub:user-1');
  });

  it('refuses a trusted-proxy entry that is not an address, a block or a known name', () => {
    expect(() => proxyTrust(['10.0.0.0/40'])).toThrow(TypeError);
    expect(() => proxyTrust(['proxy.internal'])).toThrow(TypeError);
  });
});
