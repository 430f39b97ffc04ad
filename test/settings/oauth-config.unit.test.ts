import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { metadataDocument, metadataPaths } from '../../src/mcp/oauth/metadata.js';
import { metadataUrlOf, oauthConfigOf } from '../../src/settings/oauth-config.js';
import { JwksFileError, readJwksFile } from '../../src/mcp/oauth/jwks.js';
import { ACCEPTED_ALGORITHMS, scopesOf } from '../../src/mcp/oauth/verify.js';
import { parseServerOptions, ServerOptionsError } from '../../src/settings/server-options.js';
import { serverOptionsFromEnv } from '../helpers/server-settings.js';

/** The OAuth settings: what goes together, what is refused, and what follows from them. */

const ISSUER = 'https://login.example.com/realms/docs';
const full = {
  SVC_DOCS_OAUTH_ISSUER: ISSUER,
  SVC_DOCS_OAUTH_JWKS_URL: `${ISSUER}/protocol/openid-connect/certs`,
  SVC_DOCS_OAUTH_RESOURCE: 'https://docs.internal/docs',
};

describe('OAuth settings', () => {
  it('reads the variables, with docs:read as the default scope', () => {
    const options = serverOptionsFromEnv(full);
    expect(options).toMatchObject({
      oauthIssuer: ISSUER,
      oauthJwksUrl: full.SVC_DOCS_OAUTH_JWKS_URL,
      oauthResource: 'https://docs.internal/docs',
    });
    expect(oauthConfigOf(options)).toEqual({
      issuer: ISSUER,
      jwks: { url: full.SVC_DOCS_OAUTH_JWKS_URL },
      resources: ['https://docs.internal/docs', 'https://docs.internal/mcp'],
      scope: 'docs:read',
    });
    expect(oauthConfigOf(serverOptionsFromEnv({ ...full, SVC_DOCS_OAUTH_SCOPE: 'kb:search' }))?.scope).toBe(
      'kb:search',
    );
  });

  it('is off without an issuer', () => {
    expect(oauthConfigOf(serverOptionsFromEnv({}))).toBeUndefined();
  });

  it.each([
    [
      { ...full, SVC_DOCS_OAUTH_RESOURCE: undefined },
      /oauthResource \(SVC_DOCS_OAUTH_RESOURCE\): is required with an OAuth issuer/,
    ],
    [
      { ...full, SVC_DOCS_OAUTH_JWKS_URL: undefined },
      /exactly one way: SVC_DOCS_OAUTH_JWKS_URL or SVC_DOCS_OAUTH_JWKS_FILE/,
    ],
    [{ ...full, SVC_DOCS_OAUTH_JWKS_FILE: '/etc/jwks.json' }, /exactly one way/],
    [
      { SVC_DOCS_OAUTH_RESOURCE: 'https://docs.internal/docs' },
      /oauthResource \(SVC_DOCS_OAUTH_RESOURCE\): is set but the OAuth issuer is not/,
    ],
    [
      { ...full, SVC_DOCS_OAUTH_ISSUER: 'http://login.example.com' },
      /oauthIssuer \(SVC_DOCS_OAUTH_ISSUER\): "http:\/\/login.example.com" must use https/,
    ],
    [{ ...full, SVC_DOCS_OAUTH_RESOURCE: 'docs.internal' }, /is not a URL/],
    [{ ...full, SVC_DOCS_OAUTH_RESOURCE: 'https://docs.internal/docs?x=1' }, /must not carry a query string/],
    [
      { ...full, SVC_DOCS_OAUTH_SCOPE: 'docs:read docs:write' },
      /oauthScope \(SVC_DOCS_OAUTH_SCOPE\): expected one scope/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => serverOptionsFromEnv(env)).toThrow(ServerOptionsError);
    expect(() => serverOptionsFromEnv(env)).toThrow(message);
  });

  it('accepts plain http on loopback only (local issuers in tests)', () => {
    expect(() =>
      parseServerOptions({
        oauthIssuer: 'http://127.0.0.1:9000',
        oauthJwksUrl: 'http://localhost:9000/jwks',
        oauthResource: 'http://[::1]:8080/docs',
      }),
    ).not.toThrow();
  });
});

describe('what follows from the settings', () => {
  const config = oauthConfigOf(serverOptionsFromEnv(full))!;

  it('puts the metadata path between origin and resource path (RFC 9728 section 3.1)', () => {
    expect(metadataUrlOf('https://docs.internal/docs')).toBe(
      'https://docs.internal/.well-known/oauth-protected-resource/docs',
    );
    expect(metadataUrlOf('https://docs.internal/')).toBe('https://docs.internal/.well-known/oauth-protected-resource');
    expect(metadataUrlOf('https://h:8443/team/docs/')).toBe(
      'https://h:8443/.well-known/oauth-protected-resource/team/docs',
    );
  });

  it('serves the root, /docs, /mcp and the resource paths of a prefixed server', () => {
    const prefixed = oauthConfigOf(serverOptionsFromEnv({ ...full, SVC_DOCS_OAUTH_RESOURCE: 'https://h/team/docs' }))!;
    expect(Object.fromEntries(metadataPaths(prefixed, '/docs', '/mcp'))).toEqual({
      '/.well-known/oauth-protected-resource': 'https://h/team/docs',
      '/.well-known/oauth-protected-resource/docs': 'https://h/team/docs',
      '/.well-known/oauth-protected-resource/mcp': 'https://h/team/mcp',
      '/.well-known/oauth-protected-resource/team/docs': 'https://h/team/docs',
      '/.well-known/oauth-protected-resource/team/mcp': 'https://h/team/mcp',
    });
    expect(metadataDocument(config, 'https://docs.internal/docs')).toMatchObject({
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
    });
  });

  it('reads scopes from `scope` or `scp`', () => {
    expect(scopesOf({ scope: 'a  docs:read b' })).toEqual(['a', 'docs:read', 'b']);
    expect(scopesOf({ scp: ['docs:read', 3] })).toEqual(['docs:read']);
    expect(scopesOf({ scp: 'docs:read' })).toEqual(['docs:read']);
    expect(scopesOf({})).toEqual([]);
  });

  it('pins asymmetric algorithms only', () => {
    expect(ACCEPTED_ALGORITHMS).not.toContain('none');
    expect(ACCEPTED_ALGORITHMS.filter((alg) => /^HS/i.test(alg))).toEqual([]);
  });

  it('names a JWKS file that is missing or not a key set, never its content', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-docs-jwks-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'bad.json'), '{"secret-looking": "content"}');
    expect(() => readJwksFile(join(dir, 'missing.json'))).toThrow(
      new JwksFileError(
        `SVC_DOCS_OAUTH_JWKS_FILE: cannot read the key set ${join(dir, 'missing.json')} (ENOENT): save the issuer's JWKS document (its jwks_uri) there`,
      ),
    );
    expect(() => readJwksFile(join(dir, 'bad.json'))).toThrow(/is not a JWKS/);
    // Bounded (issue 35): a key set of megabytes or hundreds of keys is not one.
    const key = { kty: 'EC', crv: 'P-256', x: 'a', y: 'b' };
    await writeFile(join(dir, 'many.json'), JSON.stringify({ keys: Array.from({ length: 101 }, () => key) }));
    expect(() => readJwksFile(join(dir, 'many.json'))).toThrow(/many\.json: the key set holds 101 keys, over 100/);
    await writeFile(join(dir, 'big.json'), JSON.stringify({ keys: [{ ...key, x5c: ['A'.repeat(600_000)] }] }));
    expect(() => readJwksFile(join(dir, 'big.json'))).toThrow(/big\.json \(the key set is over 524288 bytes/);
  });
});
