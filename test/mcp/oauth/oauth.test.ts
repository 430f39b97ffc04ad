import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import {
  connectClient,
  connectV2,
  initializeBody,
  MCP_HEADERS,
  MODERN_VERSION,
  modernRequest,
  raw,
  sessionHeaders,
  textOf,
} from '../../helpers/mcp-client.js';
import {
  allLines,
  bearer,
  bothEras,
  challenge,
  docs,
  expectNoTokenLogged,
  issuer,
  listening,
  serveDocs,
  useOAuthServer,
} from './oauth-server.js';

/**
 * OAuth resource-server mode against a fake authorization server on an ephemeral port: the
 * metadata documents, valid tokens in both protocol eras, every kind of bad token refused with
 * the right status and challenge, and no token in any log line or error body (oauth-keys.test.ts:
 * fair shares, the signing keys down or oversized, a JWKS file).
 */

useOAuthServer();

describe('Protected Resource Metadata (RFC 9728)', () => {
  it('serves the documents without a token: root and /docs for the resource URL, /mcp for its alias', async () => {
    const expected = (resource: string) => ({
      resource,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['docs:read'],
      bearer_methods_supported: ['header'],
      resource_name: 'svc-docs',
    });
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', `${docs.base}/docs`],
      ['/.well-known/oauth-protected-resource/docs', `${docs.base}/docs`],
      ['/.well-known/oauth-protected-resource/mcp', `${docs.base}/mcp`],
    ] as const) {
      const res = await raw(`${docs.base}${path}`, { method: 'GET' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.text), path).toEqual(expected(resource));
    }
  });

  it('refuses the documents to a foreign Host (DNS rebinding), like /docs', async () => {
    const res = await raw(`${docs.base}/.well-known/oauth-protected-resource/docs`, {
      method: 'GET',
      headers: { host: 'evil.example' },
    });
    expect(res.status).toBe(403);
  });

  it('has no metadata without OAuth settings', async () => {
    const { server, base } = await listening();
    const plain = serveDocs(server, base, { oauthResource: undefined, authToken: 'static-token-0123456789abcdef' });
    try {
      expect((await raw(`${base}/.well-known/oauth-protected-resource`, { method: 'GET' })).status).toBe(404);
      const refused = await raw(plain.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody() });
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="svc-docs"');
    } finally {
      await plain.close();
    }
  });
});

describe('a request without a token', () => {
  it('gets 401 naming the metadata and the scope, in both eras, on /docs, /mcp and /readyz', async () => {
    for (const res of await bothEras(docs.url, {})) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(challenge('/docs'));
    }
    const alias = await raw(`${docs.base}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: initializeBody() });
    expect(alias.status).toBe(401);
    expect(alias.headers['www-authenticate']).toBe(challenge('/mcp'));
    const ready = await raw(`${docs.base}/readyz`, { method: 'GET' });
    expect(ready.status).toBe(401);
    expect(ready.headers['www-authenticate']).toBe(challenge('/docs'));
  });

  it('points at a document a client can fetch, whose resource is the URL it dialled', async () => {
    const res = await raw(docs.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody() });
    const pointer = /resource_metadata="([^"]+)"/.exec(String(res.headers['www-authenticate']))?.[1];
    const document = await raw(pointer!, { method: 'GET' });
    expect(JSON.parse(document.text)).toMatchObject({ resource: docs.url });
  });
});

describe('a valid token', () => {
  it('is served by the v2 client pinned to 2026-07-28', async () => {
    const { client, close } = await connectV2(docs.url, { pin: MODERN_VERSION }, bearer(await issuer.mint()));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'skip duplicate event id' },
      })) as CallToolResult;
      expect(textOf(result)).toContain('Path: webhooks.md');
    } finally {
      await close();
    }
  });

  it('is served by the v1 client in a 2025 session (ES256 key this time)', async () => {
    const { client, transport, close } = await connectClient(docs.url, bearer(await issuer.mint({}, { alg: 'ES256' })));
    try {
      expect(transport.sessionId).toBeDefined();
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'skip duplicate event id' },
      })) as CallToolResult;
      expect(textOf(result as CallToolResult)).toContain('Path: webhooks.md');
      await transport.terminateSession();
    } finally {
      await close();
    }
  });

  it('opens /readyz, and /mcp with a token for the alias resource', async () => {
    expect((await raw(`${docs.base}/readyz`, { method: 'GET', headers: bearer(await issuer.mint()) })).status).toBe(
      200,
    );
    const alias = await raw(
      `${docs.base}/mcp`,
      modernRequest('tools/list', {}, { headers: bearer(await issuer.mint({ aud: `${docs.base}/mcp` })) }),
    );
    expect(alias.status).toBe(200);
  });

  it('grants the scope through `scope` with others beside it, or through an `scp` array', async () => {
    for (const claims of [{ scope: 'openid docs:read profile' }, { scope: undefined, scp: ['docs:read'] }]) {
      const res = await raw(docs.url, modernRequest('tools/list', {}, { headers: bearer(await issuer.mint(claims)) }));
      expect(res.status, JSON.stringify(claims)).toBe(200);
    }
  });
});

describe('a bad token', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, () => Promise<string> | string, RegExp][] = [
    ['expired', () => issuer.mint({ exp: now() - 3600, iat: now() - 7200 }), /has expired/],
    ['not yet valid', () => issuer.mint({ nbf: now() + 3600 }), /not valid yet/],
    ['a foreign issuer', () => issuer.mint({ iss: 'https://login.other.example' }), /another authorization server/],
    ['a wrong audience', () => issuer.mint({ aud: 'https://other.example/docs' }), /another resource/],
    ['no exp claim', () => issuer.mint({ exp: undefined }), /lacks a required claim/],
    ['alg none', () => issuer.unsigned(), /asymmetric algorithm/],
    ['HS256 keyed with the public key', () => issuer.hmacWithPublicKey(), /asymmetric algorithm/],
    ['a key not in the JWKS', () => issuer.foreignKey(), /not in the issuer's key set/],
    ['a foreign key under the real kid', () => issuer.foreignKey({}, true), /signature does not verify/],
    ['malformed', () => 'not-a-jwt', /not a signed JWT/],
    ['three garbage segments', () => 'aaa.bbb.ccc', /not a signed JWT/],
  ];

  for (const [name, make, reason] of cases) {
    it(`is refused with 401 invalid_token in both eras: ${name}`, async () => {
      const token = await make();
      for (const res of await bothEras(docs.url, bearer(token))) {
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe(challenge('/docs', 'invalid_token'));
        expect(res.text).toMatch(reason);
        expect(res.text).not.toContain(token);
      }
    });
  }

  it('refuses a header that is not a bearer token as invalid_token', async () => {
    const res = await raw(docs.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: 'Basic dXNlcjpwYXNz' },
      body: initializeBody(),
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(challenge('/docs', 'invalid_token'));
  });

  it('without the scope gets 403 insufficient_scope, in both eras', async () => {
    for (const res of await bothEras(docs.url, bearer(await issuer.mint({ scope: 'docs:write' })))) {
      expect(res.status).toBe(403);
      expect(res.headers['www-authenticate']).toBe(challenge('/docs', 'insufficient_scope'));
      expect(res.text).toMatch(/lacks the required scope/);
    }
  });

  it('is logged by reason, never by content', () => {
    const reasons = docs.lines
      .filter((l) => l.includes('"token-refused"'))
      .map((l) => (JSON.parse(l) as { reason: string }).reason);
    expect(new Set(reasons)).toEqual(
      new Set([
        'expired',
        'not-yet-valid',
        'wrong-issuer',
        'wrong-audience',
        'missing-claim',
        'algorithm-not-allowed',
        'unknown-key',
        'bad-signature',
        'malformed',
        'insufficient-scope',
      ]),
    );
  });
});

describe('with the static token too', () => {
  it('accepts the static token or an access token; a 401 names the metadata', async () => {
    const { server, base } = await listening();
    const both = serveDocs(server, base, {
      authToken: 'static-token-0123456789abcdef',
      oauthIssuer: issuer.issuer,
      oauthJwksUrl: issuer.jwksUrl,
      oauthResource: `${base}/docs`,
    });
    try {
      expect(
        (await raw(both.url, modernRequest('tools/list', {}, { headers: bearer('static-token-0123456789abcdef') })))
          .status,
      ).toBe(200);
      expect(
        (
          await raw(
            both.url,
            modernRequest('tools/list', {}, { headers: bearer(await issuer.mint({ aud: `${base}/docs` })) }),
          )
        ).status,
      ).toBe(200);
      const refused = await raw(both.url, modernRequest('tools/list'));
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe(
        `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/docs", scope="docs:read"`,
      );
    } finally {
      await both.close();
    }
  });
});

describe('logs', () => {
  it('never carry a token: no minted token, nor its signature, in any line', async () => {
    // Misuse: a valid token as a session id and in the URL path, where the request log would show it.
    const token = await issuer.mint();
    const asSession = await raw(docs.url, {
      method: 'POST',
      headers: { ...sessionHeaders(token), ...bearer(token) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(asSession.status).toBe(404);
    expect((await raw(`${docs.base}/${token}`, { method: 'GET', headers: bearer(token) })).status).toBe(404);
    await new Promise((resolve) => setImmediate(resolve));
    // The runs above logged every request and every refusal.
    expect(allLines.filter((l) => l.includes('"method"')).length).toBeGreaterThan(30);
    expect(issuer.minted.size).toBeGreaterThan(15);
    expectNoTokenLogged();
  });
});
