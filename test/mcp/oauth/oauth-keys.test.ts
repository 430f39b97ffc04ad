import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it, onTestFinished } from 'vitest';
import { initializeBody, MCP_HEADERS, modernRequest, raw } from '../../helpers/mcp-client.js';
import { bearer, expectNoTokenLogged, issuer, listening, serveDocs, useOAuthServer } from './oauth-server.js';

/**
 * OAuth resource-server mode, continued (oauth.test.ts has the metadata and the tokens): fair
 * shares by token subject, the JWKS endpoint down (503, not 401) or oversized, a JWKS file, and no
 * token in any log line or error body.
 */

useOAuthServer();

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
  it('carry none of the tokens minted for these tests, nor their signatures', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(issuer.minted.size).toBeGreaterThan(3);
    expectNoTokenLogged();
  });
});
