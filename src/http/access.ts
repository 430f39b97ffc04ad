import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Who may talk to the server: Host and Origin allow-lists against DNS rebinding, and the optional
 * bearer token (a static one here; OAuth access tokens: mcp/oauth/verify.ts). Pure checks; guards.ts
 * turns a refusal into a status code.
 */

/** The host name of a Host header (port dropped, IPv6 in brackets, lower case), or undefined if malformed. */
export function hostNameOf(hostHeader: string | undefined): string | undefined {
  const url = hostHeader ? URL.parse(`http://${hostHeader}`) : null;
  // A Host header is host[:port] only; anything that parses into more is not one.
  if (!url || url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  return url.hostname.toLowerCase();
}

/** Whether an address to listen on is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return ['127.0.0.1', 'localhost', '::1'].includes(host) || host.startsWith('127.');
}

export function hostAllowed(hostHeader: string | undefined, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.includes('*')) return true;
  const name = hostNameOf(hostHeader);
  return name !== undefined && allowedHosts.includes(name);
}

/**
 * Browsers send Origin on cross-origin requests; other clients (IDEs, CLIs) send none and are not
 * at risk of rebinding. An entry with a scheme matches the exact origin, a bare name any origin
 * with that host name.
 */
export function originAllowed(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.includes('*')) return true;
  const url = URL.parse(origin);
  if (!url || url.origin === 'null') return false;
  return allowedOrigins.some((entry) =>
    entry.includes('://') ? entry === url.origin : entry === url.hostname.toLowerCase(),
  );
}

export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Whether an Authorization header carries the expected bearer token. Digests have a fixed length,
 * so the comparison takes the same time whatever the caller sent.
 */
export function bearerMatches(authorization: string | undefined, expected: Buffer): boolean {
  const token = bearerTokenOf(authorization);
  const given = tokenDigest(token ?? '');
  return timingSafeEqual(given, expected) && token !== undefined;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined for any other header. */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1];
}
