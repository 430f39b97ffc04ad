import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PlatformError,
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
const echoing =
  (status: number): FetchLike =>
  async (_input, init) =>
    new Response(`rejected request: ${String(init.body)} headers: ${JSON.stringify(init.headers)}`, { status });

/** Everything a log collector or error tracker could see about an error. */
function exposure(error: unknown): string {
  return [
    error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : '',
    inspect(error, { depth: 10 }),
    JSON.stringify(error),
  ].join('\n');
}

/** A secret with the characters JSON and URLs escape, so its escaped forms differ from it. */
const AWKWARD_SECRET = 'sec"ret/with\\slash+plus space&amp=eq?q#h%25é';

/** The forms an echoing server or a proxy may send a secret back in. */
function encodings(secret: string): string[] {
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
  ];
}

describe('secrets never reach errors, in any encoding', () => {
  it('a secret echoed JSON-escaped or URL-encoded is redacted', async () => {
    const echoAll: FetchLike = async (_input, init) => {
      const body = `${String(init.body)} ${JSON.stringify(init.headers)}`;
      return new Response(
        `got ${body} i.e. ${encodeURIComponent(body)} and ${new URLSearchParams({ b: body }).toString()}`,
        { status: 400 },
      );
    };
    const instanceId = fake.addInstallation();
    const scenarios = [
      () =>
        new TokenManager({
          baseUrl: fake.url,
          clientId: fake.appId,
          clientSecret: AWKWARD_SECRET,
          fetch: echoAll,
          maxAttempts: 1,
          logger: () => undefined,
        }).getToken(instanceId),
      () =>
        reportTriggerEvent({
          baseUrl: fake.url,
          accountId: fake.accountId,
          apiKey: AWKWARD_SECRET,
          triggerKey: 't',
          payload: {},
          fetch: echoAll,
        }),
    ];
    for (const scenario of scenarios) {
      const seen = exposure(await rejectionOf(scenario()));
      expect(seen).toContain('[redacted]');
      for (const form of encodings(AWKWARD_SECRET)) expect(seen).not.toContain(form);
    }
  });

  it('credentials in the base URL appear in no error', async () => {
    const instanceId = fake.addInstallation();
    const dead = await deadUrl();
    const withCredentials = (url: string) => url.replace('://', '://admin:url-pass-5e1f@');
    const attempts: Array<() => unknown> = [
      () =>
        new TokenManager({
          baseUrl: withCredentials(fake.url),
          clientId: fake.appId,
          clientSecret: CLIENT_SECRET,
        }).getToken(instanceId),
      () =>
        new TokenManager({
          baseUrl: withCredentials(dead),
          clientId: fake.appId,
          clientSecret: CLIENT_SECRET,
        }).getToken(instanceId),
      () =>
        new TokenManager({
          baseUrl: withCredentials('http://api.example.com'),
          clientId: fake.appId,
          clientSecret: CLIENT_SECRET,
        }),
      () =>
        new TokenManager({
          baseUrl: 'not a url admin:url-pass-5e1f@host',
          clientId: fake.appId,
          clientSecret: CLIENT_SECRET,
        }),
      () =>
        reportTriggerEvent({
          baseUrl: withCredentials(fake.url),
          accountId: fake.accountId,
          apiKey: API_KEY,
          triggerKey: 't',
          payload: {},
        }),
    ];
    for (const attempt of attempts) {
      let error: unknown;
      try {
        await attempt();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(PlatformError);
      expect(exposure(error)).not.toContain('url-pass-5e1f');
    }
  });
});

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
      const echoed = await (
        await echoing(400)('https://x', { body: JSON.stringify({ client_secret: CLIENT_SECRET }) })
      ).text();
      expect(echoed).toContain(CLIENT_SECRET);

      const dead = await deadUrl();
      const base = {
        baseUrl: fake.url,
        clientId: fake.appId,
        clientSecret: CLIENT_SECRET,
        retryBaseDelayMs: 1,
        maxAttempts: 2,
      };
      const scenarios: Array<() => Promise<unknown>> = [
        () => new TokenManager({ ...base, fetch: echoing(400), logger }).getToken(instanceId),
        () => new TokenManager({ ...base, fetch: echoing(503), logger }).getToken(instanceId),
        // Default logger (console.error) on the retry path.
        () => new TokenManager({ ...base, fetch: echoing(500) }).getToken(instanceId),
        () => new TokenManager({ ...base, baseUrl: dead, logger }).getToken(instanceId),
        () => new TokenManager({ ...base, clientSecret: `${CLIENT_SECRET}-wrong`, logger }).getToken(instanceId),
        () =>
          queryWallets({
            baseUrl: fake.url,
            tokens: new TokenManager({ ...base, fetch: echoing(401), logger }),
            instanceId,
          }),
        () =>
          reportTriggerEvent({
            baseUrl: fake.url,
            accountId: fake.accountId,
            apiKey: API_KEY,
            triggerKey: 't',
            payload: { email: 'a@example.com' },
            fetch: echoing(400),
          }),
        () =>
          reportTriggerEvent({
            baseUrl: fake.url,
            accountId: 'wrong-account',
            apiKey: API_KEY,
            triggerKey: 't',
            payload: {},
          }),
        () =>
          reportTriggerEvent({
            baseUrl: dead,
            accountId: fake.accountId,
            apiKey: API_KEY,
            triggerKey: 't',
            payload: {},
          }),
      ];
      for (const scenario of scenarios) exposed.push(exposure(await rejectionOf(scenario())));

      fake.setTokenDelay(60_000);
      exposed.push(
        exposure(await rejectionOf(new TokenManager({ ...base, timeoutMs: 50, logger }).getToken(instanceId))),
      );
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
