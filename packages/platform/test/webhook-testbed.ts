/**
 * The shared set-up of the webhook handler tests: a fake platform signing with RS256, a temporary
 * folder per test, SQLite stores in it, and handlers on real HTTP servers, all closed after each test.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import {
  createWebhookHandler,
  openSqliteWebhookStore,
  startFakePlatform,
  type FakePlatform,
  type SqliteWebhookStore,
  type WebhookDelivery,
  type WebhookHandlerOptions,
  type WebhookStore,
} from '../src/index.js';
import { captureLogs, serve, tempDir } from './helpers.js';

export function webhookTestbed() {
  let fake: FakePlatform | undefined;
  let dir: { dir: string; cleanup: () => void } | undefined;
  const cleanups: Array<() => unknown> = [];
  beforeAll(async () => {
    fake = await startFakePlatform({ webhookAlgorithm: 'RS256' });
  });
  afterAll(() => fake?.close());
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    dir?.cleanup();
  });

  const bed = {
    get fake(): FakePlatform {
      if (fake === undefined) throw new Error('the fake platform starts in beforeAll');
      return fake;
    },
    /** This test's temporary folder. */
    get dir(): string {
      if (dir === undefined) throw new Error('the temporary folder is made in beforeEach');
      return dir.dir;
    },
    /** Run after the test, last registered first. */
    cleanups,
    openStore(name = 'hooks.db'): SqliteWebhookStore {
      const store = openSqliteWebhookStore(join(bed.dir, name));
      cleanups.push(() => store.close());
      return store;
    },
    /** A handler on a real HTTP server, recording what onEvent saw. */
    async endpoint(overrides: Partial<WebhookHandlerOptions> & { store?: WebhookStore } = {}) {
      const seen: WebhookDelivery[] = [];
      const logs = captureLogs();
      const handler = createWebhookHandler({
        key: bed.fake.publicKeyPem,
        algorithms: [bed.fake.webhookAlgorithm],
        store: overrides.store ?? bed.openStore(),
        onEvent: (delivery) => {
          seen.push(delivery);
        },
        retryBaseDelayMs: 1,
        logger: logs.logger,
        ...overrides,
      });
      const server = await serve(handler);
      cleanups.push(async () => {
        await handler.drain();
        await server.close();
      });
      return { url: `${server.url}/webhooks`, handler, seen, logs };
    },
  };
  return bed;
}
