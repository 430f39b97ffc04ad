import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ASSUMED_TOKEN_VALIDITY_MS,
  PlatformError,
  TokenManager,
  queryWallets,
  startFakePlatform,
  type FakePlatform,
  type FetchLike,
  type TokenManagerOptions,
} from '../src/index.js';
import { captureLogs, deadUrl, rejectionOf } from './helpers.js';

let fake: FakePlatform;
let instanceId: string;

beforeEach(async () => {
  // ES256: the fastest key pair to generate, and these tests send no webhooks.
  fake = await startFakePlatform({ webhookAlgorithm: 'ES256' });
  instanceId = fake.addInstallation();
});
afterEach(() => fake.close());

function manager(overrides: Partial<TokenManagerOptions> = {}): TokenManager {
  return new TokenManager({
    baseUrl: fake.url,
    clientId: fake.appId,
    clientSecret: fake.clientSecret,
    retryBaseDelayMs: 1,
    logger: captureLogs().logger,
    ...overrides,
  });
}

describe('TokenManager', () => {
  it('sends the documented client_credentials body and caches the token per instance', async () => {
    const bodies: unknown[] = [];
    const recording: FetchLike = async (input, init) => {
      bodies.push(JSON.parse(String(init.body)));
      expect(new Headers(init.headers).get('content-type')).toBe('application/json');
      return fetch(input, init);
    };
    const tokens = manager({ fetch: recording });
    const first = await tokens.getToken(instanceId);
    const second = await tokens.getToken(instanceId);
    expect(second).toBe(first);
    expect(bodies).toEqual([
      {
        grant_type: 'client_credentials',
        client_id: fake.appId,
        client_secret: fake.clientSecret,
        instance_id: instanceId,
      },
    ]);

    const other = fake.addInstallation();
    const otherToken = await tokens.getToken(other);
    expect(otherToken).not.toBe(first);
    expect(fake.tokenRequests.map((r) => r.instanceId)).toEqual([instanceId, other]);
  });

  it('makes one token request for 100 concurrent callers of one instance', async () => {
    fake.setTokenDelay(20);
    const tokens = manager();
    const results = await Promise.all(Array.from({ length: 100 }, () => tokens.getToken(instanceId)));
    expect(fake.tokenRequests).toHaveLength(1);
    expect(new Set(results).size).toBe(1);
  });

  it('refreshes ahead of the assumed ~4 h validity when the response has no expires_in', async () => {
    let now = 1_000_000;
    const tokens = manager({ now: () => now, refreshMarginMs: 5 * 60_000 });
    const first = await tokens.getToken(instanceId);
    now += ASSUMED_TOKEN_VALIDITY_MS - 6 * 60_000; // just outside the margin: still cached
    expect(await tokens.getToken(instanceId)).toBe(first);
    expect(fake.tokenRequests).toHaveLength(1);
    now += 2 * 60_000; // inside the margin: refreshed before expiry
    expect(await tokens.getToken(instanceId)).not.toBe(first);
    expect(fake.tokenRequests).toHaveLength(2);
  });

  it('uses expires_in when the platform sends it', async () => {
    await fake.close();
    fake = await startFakePlatform({ sendExpiresIn: true, tokenTtlSec: 60, webhookAlgorithm: 'ES256' });
    instanceId = fake.addInstallation();
    let now = 0;
    const tokens = manager({ baseUrl: fake.url, clientSecret: fake.clientSecret, now: () => now });
    const first = await tokens.getToken(instanceId);
    now = 50_000; // margin is a tenth of 60 s: refresh from 54 s
    expect(await tokens.getToken(instanceId)).toBe(first);
    now = 55_000;
    expect(await tokens.getToken(instanceId)).not.toBe(first);
    expect(fake.tokenRequests).toHaveLength(2);
  });

  it('keeps serving the cached token when an early refresh fails while it is still valid', async () => {
    let now = 1_000_000;
    const { logger, entries } = captureLogs();
    const tokens = manager({ now: () => now, refreshMarginMs: 5 * 60_000, maxAttempts: 2, logger });
    const first = await tokens.getToken(instanceId);
    now += ASSUMED_TOKEN_VALIDITY_MS - 2 * 60_000; // inside the refresh margin, valid for 2 more minutes
    fake.failTokenRequests(10, 503);
    expect(await tokens.getToken(instanceId)).toBe(first);
    expect(entries.some((e) => e.level === 'warn' && /still valid/.test(e.message))).toBe(true);
    // Once the token has expired, the failure is the caller's.
    now += 3 * 60_000;
    fake.failTokenRequests(10, 503);
    expect(await rejectionOf(tokens.getToken(instanceId))).toMatchObject({ code: 'http_error', status: 503 });
  });

  it.each([
    ['"0" as a string', '0'],
    ['0', 0],
    ['a negative number', -5],
    ['garbage', 'soon'],
  ])('an expires_in of %s is ignored: the token is cached for the assumed validity', async (_label, expiresIn) => {
    let now = 0;
    const answer: FetchLike = async () => Response.json({ access_token: `tok-${now}`, expires_in: expiresIn });
    const tokens = manager({ now: () => now, fetch: answer });
    const first = await tokens.getToken(instanceId);
    now = 60 * 60_000;
    expect(await tokens.getToken(instanceId)).toBe(first);
  });

  it('honours expires_in sent as a numeric string', async () => {
    let now = 0;
    const answer: FetchLike = async () => Response.json({ access_token: `tok-${now}`, expires_in: '600' });
    const tokens = manager({ now: () => now, fetch: answer });
    const first = await tokens.getToken(instanceId);
    now = 500_000;
    expect(await tokens.getToken(instanceId)).toBe(first);
    now = 545_000; // margin is a tenth of 600 s
    expect(await tokens.getToken(instanceId)).not.toBe(first);
  });

  it('retries 5xx with backoff and succeeds', async () => {
    fake.failTokenRequests(2, 503);
    const { logger, entries } = captureLogs();
    const tokens = manager({ maxAttempts: 4, logger });
    await expect(tokens.getToken(instanceId)).resolves.toMatch(/^tok-/);
    expect(fake.tokenRequests).toHaveLength(3);
    expect(entries.filter((e) => e.level === 'warn')).toHaveLength(2);
  });

  it('gives up after maxAttempts when the token endpoint keeps failing', async () => {
    fake.failTokenRequests(100, 502);
    const error = await rejectionOf(manager({ maxAttempts: 3 }).getToken(instanceId));
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ code: 'http_error', status: 502 });
    expect(fake.tokenRequests).toHaveLength(3);
  });

  it('does not retry a 4xx (bad credentials)', async () => {
    const error = await rejectionOf(manager({ clientSecret: 'wrong-secret', maxAttempts: 5 }).getToken(instanceId));
    expect(error).toMatchObject({ code: 'http_error', status: 401 });
    expect((error as Error).message).toMatch(/check clientId, clientSecret/);
    expect(fake.tokenRequests).toHaveLength(1);
  });

  it('gives up with network_error after bounded attempts when the endpoint is down', async () => {
    const url = await deadUrl();
    let calls = 0;
    const counting: FetchLike = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const error = await rejectionOf(manager({ baseUrl: url, fetch: counting, maxAttempts: 3 }).getToken(instanceId));
    expect(error).toMatchObject({ code: 'network_error' });
    expect(calls).toBe(3);
  });

  it('times out a slow token endpoint and gives up after bounded attempts', async () => {
    fake.setTokenDelay(60_000);
    const error = await rejectionOf(manager({ timeoutMs: 100, maxAttempts: 2 }).getToken(instanceId));
    expect(error).toMatchObject({ code: 'timeout' });
    expect(fake.tokenRequests).toHaveLength(2);
  });

  it('shares one failure among concurrent waiters, and the next call tries again', async () => {
    fake.failTokenRequests(1, 500);
    const tokens = manager({ maxAttempts: 1 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => tokens.getToken(instanceId)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(fake.tokenRequests).toHaveLength(1);
    await expect(tokens.getToken(instanceId)).resolves.toMatch(/^tok-/);
    expect(fake.tokenRequests).toHaveLength(2);
  });

  it('rejects an insecure base URL', () => {
    expect(() => new TokenManager({ baseUrl: 'http://api.example.com', clientId: 'a', clientSecret: 's' })).toThrow(
      /must use https/,
    );
  });
});

describe('queryWallets and 401', () => {
  it('sends the bearer token and content type', async () => {
    const seen: Headers[] = [];
    const recording: FetchLike = async (input, init) => {
      if (input.endsWith('/wallets/query')) seen.push(new Headers(init.headers));
      return fetch(input, init);
    };
    const tokens = manager();
    const token = await tokens.getToken(instanceId);
    await queryWallets({ baseUrl: fake.url, tokens, instanceId, query: { limit: 5 }, fetch: recording });
    expect(seen[0]?.get('authorization')).toBe(`Bearer ${token}`);
    expect(seen[0]?.get('content-type')).toBe('application/json');
    expect(fake.walletQueries).toEqual([{ instanceId, query: { limit: 5 } }]);
  });

  it('on 401 refreshes once and retries once', async () => {
    const tokens = manager();
    const first = await tokens.getToken(instanceId);
    fake.expireTokens();
    await expect(queryWallets({ baseUrl: fake.url, tokens, instanceId })).resolves.toEqual({ wallets: [] });
    expect(fake.tokenRequests).toHaveLength(2);
    expect(await tokens.getToken(instanceId)).not.toBe(first);
  });

  it('many concurrent calls that hit 401 share one refresh', async () => {
    const tokens = manager();
    await tokens.getToken(instanceId);
    fake.expireTokens();
    await Promise.all(Array.from({ length: 20 }, () => queryWallets({ baseUrl: fake.url, tokens, instanceId })));
    expect(fake.tokenRequests).toHaveLength(2);
    expect(fake.walletQueries).toHaveLength(20);
  });

  it('a second 401 after the refresh is an unauthorized error, with no further refresh', async () => {
    let refreshes = 0;
    const tokens = {
      getToken: async () => 'not-a-real-token',
      forceRefresh: async () => {
        refreshes++;
        return 'still-not-real';
      },
    };
    const error = await rejectionOf(queryWallets({ baseUrl: fake.url, tokens, instanceId }));
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(refreshes).toBe(1);
  });
});
