import { describe, expect, it } from 'vitest';
import { bearerMatches, hostAllowed, hostNameOf, originAllowed, tokenDigest } from '../../src/http/access.js';

const LOCAL = ['localhost', '127.0.0.1', '[::1]'];

describe('Host allow-list', () => {
  it('accepts localhost names on any port and nothing else', () => {
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:1', '[::1]:9000', 'LOCALHOST'])
      expect(hostAllowed(host, LOCAL)).toBe(true);
    for (const host of [
      'evil.example.com',
      'evil.example.com:8080',
      '127.0.0.1.evil.com',
      'localhost.evil.com',
      '',
      undefined,
    ]) {
      expect(hostAllowed(host, LOCAL)).toBe(false);
    }
  });
  it('rejects Host values that are not host[:port]', () => {
    expect(hostNameOf('localhost/path')).toBeUndefined();
    expect(hostNameOf('user@localhost')).toBeUndefined();
    expect(hostAllowed('evil.com@localhost', LOCAL)).toBe(false);
  });
  it('accepts anything with *', () => {
    expect(hostAllowed('docs.example.com', ['*'])).toBe(true);
  });
});

describe('Origin allow-list', () => {
  it('lets requests without Origin through (not a browser)', () => {
    expect(originAllowed(undefined, LOCAL)).toBe(true);
  });
  it('matches bare names on host name, full origins exactly', () => {
    expect(originAllowed('http://localhost:6274', LOCAL)).toBe(true);
    expect(originAllowed('https://127.0.0.1', LOCAL)).toBe(true);
    expect(originAllowed('http://evil.example.com', LOCAL)).toBe(false);
    expect(originAllowed('null', LOCAL)).toBe(false);
    expect(originAllowed('not a url', LOCAL)).toBe(false);
    const exact = ['https://portal.example.com'];
    expect(originAllowed('https://portal.example.com', exact)).toBe(true);
    expect(originAllowed('http://portal.example.com', exact)).toBe(false);
    expect(originAllowed('https://portal.example.com:8443', exact)).toBe(false);
  });
});

describe('bearer token', () => {
  const expected = tokenDigest('s3cret-token-0123456789');
  it('accepts exactly the token, with the Bearer scheme in any case', () => {
    expect(bearerMatches('Bearer s3cret-token-0123456789', expected)).toBe(true);
    expect(bearerMatches('bearer s3cret-token-0123456789', expected)).toBe(true);
  });
  it('refuses anything else', () => {
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer s3cret-token-012345678',
      'Bearer s3cret-token-01234567890',
      'Basic s3cret-token-0123456789',
      's3cret-token-0123456789',
    ]) {
      expect(bearerMatches(header, expected)).toBe(false);
    }
  });
});
