import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type AppOptions, createApp } from '../../../src/serve/app.js';
import { parseServerOptions, type ServerOptionsInput } from '../../../src/settings/server-options.js';
import { openEngine, type LoadedEngine } from '../../../src/search/engine.js';
import { sampleIndex } from '../../helpers/index-fixture.js';
import {
  connectClient,
  connectV2,
  initializeBody,
  MCP_HEADERS,
  MODERN_VERSION,
  modernRequest,
  raw,
  type RawResponse,
  sessionHeaders,
  textOf,
} from '../../helpers/mcp-client.js';
import { type FakeIssuer, startFakeIssuer } from './issuer.js';

/**
 * OAuth resource-server mode against a fake authorization server on an ephemeral port: the
 * metadata documents, valid tokens in both protocol eras, every kind of bad token refused with
 * the right status and challenge, the JWKS endpoint down (503, not 401), and no token in any log
 * line or error body.
 */

interface Docs {
  base: string;
  url: string;
  lines: string[];
  close(): Promise<void>;
}

let engine: LoadedEngine;
let issuer: FakeIssuer;
let docs: Docs;
const allLines: string[] = [];

/** The HTTP server listens first, so the resource URL (the tokens' audience) can name its real port. */
async function listening(): Promise<{ server: Server; base: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function serveDocs(
  server: Server,
  base: string,
  settings: ServerOptionsInput,
  keyTimings?: AppOptions['oauthKeyTimings'],
): Docs {
  const lines: string[] = [];
  const { app, sessions, stateless } = createApp({
    ...parseServerOptions({ oauthResource: `${base}/docs`, ...settings }),
    oauthKeyTimings: keyTimings,
    engine: () => engine,
    log: (line) => {
      lines.push(line);
      allLines.push(line);
    },
  });
  server.on('request', app);
  return {
    base,
    url: `${base}/docs`,
    lines,
    close: async () => {
      await Promise.all([sessions.closeAll(), stateless.close()]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  engine = await openEngine(sampleIndex());
  const { server, base } = await listening();
  issuer = await startFakeIssuer({ audience: `${base}/docs` });
  docs = serveDocs(server, base, { oauthIssuer: issuer.issuer, oauthJwksUrl: issuer.jwksUrl });
});
afterAll(async () => {
  await docs?.close();
  await issuer?.close();
  await engine?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const metadataUrl = (path: '/docs' | '/mcp') => `${docs.base}/.well-known/oauth-protected-resource${path}`;
const challenge = (path: '/docs' | '/mcp', error?: string) =>
  `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${metadataUrl(path)}", scope="docs:read"`;

/** The same check sits in front of both eras: a 2026-07-28 request and a 2025 initialize. */
async function bothEras(url: string, headers: Record<string, string>): Promise<RawResponse[]> {
  return [
    await raw(url, modernRequest('tools/list', {}, { headers })),
    await raw(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: initializeBody() }),
  ];
}

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

describe('fair shares by token subject', () => {
  it("counts a token's subject as one client, wherever it connects from, apart from other subjects", async () => {
    const { server, base } = await listening();
    const shared = serveDocs(server, base, {
      oauthIssuer: issuer.issuer,
      oauthJwksUrl: issuer.jwksUrl,
      maxSessions: 10,
      maxSessionsPerClient: 2,
      trustedProxies: ['loopback'],
    });
    try {
      const as = async (sub: string, from: string) =>
        raw(shared.url, {
          method: 'POST',
          headers: {
            ...MCP_HEADERS,
            ...bearer(await issuer.mint({ sub, aud: `${base}/docs` })),
            'x-forwarded-for': from,
          },
          body: initializeBody(),
        });
      const statuses = [
        (await as('user-1', '203.0.113.5')).status,
        (await as('user-1', '198.51.100.7')).status,
        (await as('user-1', '192.0.2.1')).status,
        (await as('user-2', '203.0.113.5')).status,
      ];
      expect(statuses).toEqual([200, 200, 429, 200]);
    } finally {
      await shared.close();
    }
  });
});

describe('the signing keys', () => {
  it('down: a well-formed token gets 503 with a clear log line (not 401); a malformed one still 401; back up: 200', async () => {
    const { server, base } = await listening();
    const fresh = serveDocs(server, base, { oauthIssuer: issuer.issuer, oauthJwksUrl: issuer.jwksUrl });
    issuer.setDown(true);
    try {
      const token = await issuer.mint({ aud: `${base}/docs` });
      const down = await raw(fresh.url, modernRequest('tools/list', {}, { headers: bearer(token) }));
      expect(down.status).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.headers['www-authenticate']).toBeUndefined();
      const logged = fresh.lines.find((l) => l.includes('"oauth-keys-unavailable"'));
      expect(JSON.parse(logged!)).toMatchObject({
        level: 'error',
        error: expect.stringContaining(`cannot fetch the OAuth signing keys from ${issuer.jwksUrl}`),
      });
      expect((await raw(fresh.url, modernRequest('tools/list', {}, { headers: bearer('not-a-jwt') }))).status).toBe(
        401,
      );
      issuer.setDown(false);
      expect((await raw(fresh.url, modernRequest('tools/list', {}, { headers: bearer(token) }))).status).toBe(200);
    } finally {
      issuer.setDown(false);
      await fresh.close();
    }
  });

  it('down once the keys are due for a refresh: the last keys stand in for the grace period (logged), then 503', async () => {
    const { server, base } = await listening();
    const timings = { cacheMaxAgeMs: 50, graceMs: 1500, retryMs: 20 };
    const fresh = serveDocs(server, base, { oauthIssuer: issuer.issuer, oauthJwksUrl: issuer.jwksUrl }, timings);
    try {
      const token = await issuer.mint({ aud: `${base}/docs` });
      const call = () => raw(fresh.url, modernRequest('tools/list', {}, { headers: bearer(token) }));
      expect((await call()).status).toBe(200);
      issuer.setDown(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Past the cache age, the issuer down: still served, and the operator is told.
      expect((await call()).status).toBe(200);
      expect(fresh.lines.some((l) => l.includes('"oauth-keys-stale"'))).toBe(true);
      // Past the grace period: no keys to trust any more.
      await new Promise((resolve) => setTimeout(resolve, timings.graceMs));
      expect((await call()).status).toBe(503);
      issuer.setDown(false);
      expect((await call()).status).toBe(200);
    } finally {
      issuer.setDown(false);
      await fresh.close();
    }
  });

  it('a key set over 512 KB or 100 keys is not used: 503, its size named in the log', async () => {
    const original = [...issuer.jwks.keys];
    const spare = issuer.jwks.keys[1]!;
    const cases: [() => void, RegExp][] = [
      [
        () => issuer.jwks.keys.push(...Array.from({ length: 150 }, (_, i) => ({ ...spare, kid: `k${i}` }))),
        /holds 152 keys, over 100/,
      ],
      [() => issuer.jwks.keys.push({ ...spare, kid: 'big', x5c: ['A'.repeat(600_000)] }), /is over 524288 bytes/],
    ];
    for (const [grow, why] of cases) {
      const { server, base } = await listening();
      const fresh = serveDocs(server, base, { oauthIssuer: issuer.issuer, oauthJwksUrl: issuer.jwksUrl });
      grow();
      try {
        const token = await issuer.mint({ aud: `${base}/docs` });
        expect((await raw(fresh.url, modernRequest('tools/list', {}, { headers: bearer(token) }))).status).toBe(503);
        const logged = fresh.lines.find((l) => l.includes('"oauth-keys-unavailable"'));
        expect(logged).toMatch(why);
      } finally {
        issuer.jwks.keys.splice(0, issuer.jwks.keys.length, ...original);
        await fresh.close();
      }
    }
  });

  it('from a JWKS file: served without fetching; a foreign key, and HMAC even with a symmetric key the set holds, refused', async () => {
    const { server, base } = await listening();
    const dir = await mkdtemp(join(tmpdir(), 'svc-docs-jwks-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'jwks.json');
    // A misconfigured issuer that also publishes a symmetric key: anyone who reads the set could sign
    // with it. Both the pinned algorithms and jose's key sets (which never hand out HMAC keys) refuse it.
    const secret = randomBytes(32);
    await writeFile(
      file,
      JSON.stringify({ keys: [...issuer.jwks.keys, { kty: 'oct', kid: 'shared', k: secret.toString('base64url') }] }),
    );
    const hmac = await new SignJWT({
      iss: issuer.issuer,
      aud: `${base}/docs`,
      scope: 'docs:read',
      exp: Math.floor(Date.now() / 1000) + 600,
    })
      .setProtectedHeader({ alg: 'HS256', kid: 'shared' })
      .sign(secret);
    issuer.minted.add(hmac);
    const local = serveDocs(server, base, { oauthIssuer: issuer.issuer, oauthJwksFile: file });
    const fetches = issuer.jwksFetches();
    try {
      expect(
        (
          await raw(
            local.url,
            modernRequest('tools/list', {}, { headers: bearer(await issuer.mint({ aud: `${base}/docs` })) }),
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await raw(
            local.url,
            modernRequest('tools/list', {}, { headers: bearer(await issuer.foreignKey({ aud: `${base}/docs` })) }),
          )
        ).status,
      ).toBe(401);
      const refused = await raw(local.url, modernRequest('tools/list', {}, { headers: bearer(hmac) }));
      expect(refused.status).toBe(401);
      expect(refused.text).toMatch(/asymmetric algorithm/);
      expect(issuer.jwksFetches()).toBe(fetches);
    } finally {
      await local.close();
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
    const everything = allLines.join('\n');
    for (const token of issuer.minted) {
      const signature = token.split('.')[2]!;
      expect(everything).not.toContain(token);
      if (signature.length > 0) expect(everything).not.toContain(signature);
    }
    expect(everything).not.toContain('not-a-jwt');
  });
});
