import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  TokenManager,
  queryWallets,
  reportTriggerEvent,
  startFakePlatform,
  type FakePlatform,
  type FetchLike,
} from '../src/index.js';
import { captureLogs, deadUrl, rejectionOf } from './helpers.js';

const CLIENT_SECRET = 'client-secret-7f3a9c1e5b';
const API_KEY = 'api-key-0d4e8b2f6a';

let fake: FakePlatform;
beforeAll(async () => {
  fake = await startFakePlatform({ clientSecret: CLIENT_SECRET, apiKey: API_KEY, webhookAlgorithm: 'ES256' });
});
afterAll(() => fake.close());

/** A server that echoes the request back in an error response, as some proxies and buggy APIs do. */
const echoing = (status: number): FetchLike => async (_input, init) =>
  new Response(`rejected request: ${String(init.body)} headers: ${JSON.stringify(init.headers)}`, { status });

/** Everything a log collector or error tracker could see about an error. */
function exposure(error: unknown): string {
  return [error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : '', inspect(error, { depth: 10 }), JSON.stringify(error)].join('\n');
}

describe('secrets never reach errors or logs', () => {
  it('the client secret and API key appear in no error, log line or inspected object', async () => {
    const { logger, entries } = captureLogs();
    const consoleLines: string[] = [];
    const consoleSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      consoleLines.push(args.map(String).join(' '));
    });
    const exposed: string[] = [];
    const instanceId = fake.addInstallation();
    try {
      // Sanity: the echoing server really does send the secret back, so redaction is what keeps it out.
      const echoed = await (await echoing(400)('https://x', { body: JSON.stringify({ client_secret: CLIENT_SECRET }) })).text();
      expect(echoed).toContain(CLIENT_SECRET);

      const dead = await deadUrl();
      const base = { baseUrl: fake.url, clientId: fake.appId, clientSecret: CLIENT_SECRET, retryBaseDelayMs: 1, maxAttempts: 2 };
      const scenarios: Array<() => Promise<unknown>> = [
        () => new TokenManager({ ...base, fetch: echoing(400), logger }).getToken(instanceId),
        () => new TokenManager({ ...base, fetch: echoing(503), logger }).getToken(instanceId),
        // Default logger (console.error) on the retry path.
        () => new TokenManager({ ...base, fetch: echoing(500) }).getToken(instanceId),
        () => new TokenManager({ ...base, baseUrl: dead, logger }).getToken(instanceId),
        () => new TokenManager({ ...base, clientSecret: `${CLIENT_SECRET}-wrong`, logger }).getToken(instanceId),
        () => queryWallets({ baseUrl: fake.url, tokens: new TokenManager({ ...base, fetch: echoing(401), logger }), instanceId }),
        () => reportTriggerEvent({ baseUrl: fake.url, accountId: fake.accountId, apiKey: API_KEY, triggerKey: 't', payload: { email: 'a@example.com' }, fetch: echoing(400) }),
        () => reportTriggerEvent({ baseUrl: fake.url, accountId: 'wrong-account', apiKey: API_KEY, triggerKey: 't', payload: {} }),
        () => reportTriggerEvent({ baseUrl: dead, accountId: fake.accountId, apiKey: API_KEY, triggerKey: 't', payload: {} }),
      ];
      for (const scenario of scenarios) exposed.push(exposure(await rejectionOf(scenario())));

      fake.setTokenDelay(60_000);
      exposed.push(exposure(await rejectionOf(new TokenManager({ ...base, timeoutMs: 50, logger }).getToken(instanceId))));
      fake.setTokenDelay(0);

      const working = new TokenManager({ ...base, logger });
      await working.getToken(instanceId);
      exposed.push(inspect(working, { depth: 10, showHidden: true }), JSON.stringify(working), String(working));
    } finally {
      consoleSpy.mockRestore();
    }

    exposed.push(...entries.map((entry) => JSON.stringify(entry)), ...consoleLines);
    expect(entries.length).toBeGreaterThan(0);
    expect(consoleLines.length).toBeGreaterThan(0);
    const everything = exposed.join('\n');
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(CLIENT_SECRET);
    expect(everything).not.toContain(API_KEY);
  });
});
