import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/**
 * Who a request comes from, for fair shares (fair-share.ts): a "client" is
 * - with OAuth, the verified token's subject (`sub`, else `client_id` or `azp`): one user or
 *   application, wherever it connects from;
 * - otherwise its network address: the peer's, or, when the peer is a trusted proxy
 *   (SVC_DOCS_TRUSTED_PROXIES), the nearest address in X-Forwarded-For that is not one. An IPv6
 *   address counts by its /64, the block one subscriber is given, so a client cannot take new
 *   addresses from its own block to get new shares.
 * X-Forwarded-For is ignored unless the peer is trusted: anyone can send it.
 */

export type ProxyTrust = (address: string, hop: number) => boolean;

/** Compiles a trusted-proxy list (addresses, CIDR blocks, or loopback/linklocal/uniquelocal); throws TypeError naming a bad entry. */
export function proxyTrust(trusted: readonly string[]): ProxyTrust {
  return proxyaddr.compile([...trusted]);
}

/** The 4 leading 16-bit groups of an IPv6 address (zone dropped, `::` expanded). */
function prefix64(address: string): string {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':');
}

/** The address as a client key: IPv4 as is (also when IPv4-mapped), IPv6 by its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  return `${prefix64(address)}::/64`;
}

/** The client key of a request: `sub:<subject>` for a verified OAuth subject, else its (forwarded) address. */
export function clientKey(req: IncomingMessage, trust: ProxyTrust, subject: string | undefined): string {
  if (subject !== undefined) return `sub:${subject}`;
  // proxy-addr reads the peer from the socket and walks X-Forwarded-For only through trusted hops.
  const address = req.socket.remoteAddress === undefined ? 'unknown' : proxyaddr(req, trust);
  return addressKey(address);
}
