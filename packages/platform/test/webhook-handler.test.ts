import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  openSqliteWebhookStore,
  startFakePlatform,
  verifyWebhook,
  type FakePlatform,
  type SqliteWebhookStore,
  type WebhookDelivery,
  type WebhookHandlerOptions,
  type WebhookStore,
} from '../src/index.js';
import { captureLogs, serve, tempDir } from './helpers.js';

let fake: FakePlatform;
beforeAll(async () => {
  fake = await startFakePlatform({ webhookAlgorithm: 'RS256' });
});
afterAll(() => fake.close());

let dir: { dir: string; cleanup: () => void };
const cleanups: Array<() => unknown> = [];
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  dir.cleanup();
});

function openStore(name = 'hooks.db'): SqliteWebhookStore {
  const store = openSqliteWebhookStore(join(dir.dir, name));
  cleanups.push(() => store.close());
  return store;
}

/** A handler on a real HTTP server, recording what onEvent saw. */
async function endpoint(overrides: Partial<WebhookHandlerOptions> & { store?: WebhookStore } = {}) {
  const seen: WebhookDelivery[] = [];
  const logs = captureLogs();
  const handler = createWebhookHandler({
    key: fake.publicKeyPem,
    algorithms: [fake.webhookAlgorithm],
    store: overrides.store ?? openStore(),
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
}

describe('webhook handler: delivery → processing', () => {
  it('verifies, answers 200, processes in the background and routes by instanceId', async () => {
    const { url, handler, seen } = await endpoint();
    const first = await fake.sendWebhook(url, { instanceId: 'merchant-a', entityId: 'g1' });
    const second = await fake.sendWebhook(url, { instanceId: 'merchant-b', entityId: 'g2', eventType: 'svc.v1.gift_card_disabled' });
    expect([first.status, second.status]).toEqual([200, 200]);
    await handler.drain();
    expect(seen.map((d) => [d.instanceId, d.event.id, d.event.slug])).toEqual([
      ['merchant-a', first.eventId, 'initialized'],
      ['merchant-b', second.eventId, 'disabled'],
    ]);
  });

  it('processes a "Test webhook" sample delivery', async () => {
    const { url, handler, seen } = await endpoint();
    const sent = await fake.sendTestWebhook(url, { instanceId: 'merchant-a' });
    expect(sent.status).toBe(200);
    await handler.drain();
    expect(seen[0]?.event.entity).toMatchObject({ code: 'TEST-0000-0000' });
  });

  it('works mounted in express, with or without a text body parser', async () => {
    const store = openStore();
    const seen: string[] = [];
    const handler = createWebhookHandler({ key: fake.publicKeyPem, algorithms: [fake.webhookAlgorithm], store, onEvent: (d) => void seen.push(d.event.id), logger: () => undefined });
    const app = express();
    app.post('/raw', handler);
    app.post('/text', express.text({ type: '*/*' }), handler);
    const server = await serve(app);
    cleanups.push(() => server.close());
    const a = await fake.sendWebhook(`${server.url}/raw`, { instanceId: 'i' });
    const b = await fake.sendWebhook(`${server.url}/text`, { instanceId: 'i' });
    expect([a.status, b.status]).toEqual([200, 200]);
    await handler.drain();
    expect(seen).toEqual([a.eventId, b.eventId]);
  });

  it('answers 405 to other methods and 413 to oversized bodies', async () => {
    const { url, seen } = await endpoint({ maxBodyBytes: 1000 });
    expect((await fetch(url)).status).toBe(405);
    const big = await fake.sendWebhook(url, { instanceId: 'i', entity: { blob: 'x'.repeat(5000) } });
    expect(big.status).toBe(413);
    expect(seen).toEqual([]);
  });
});

describe('webhook handler: idempotency and ordering', () => {
  it('skips a duplicate event id with 200', async () => {
    const { url, handler, seen } = await endpoint();
    const sent = await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1' });
    const replay = await fake.postWebhook(url, sent.jwt);
    const resigned = await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', id: sent.eventId, sequence: 9 });
    expect([sent.status, replay.status, resigned.status]).toEqual([200, 200, 200]);
    await handler.drain();
    expect(seen.map((d) => d.event.id)).toEqual([sent.eventId]);
  });

  it('ignores, with 200, an event whose sequence is not higher than the stored one', async () => {
    const { url, handler, seen } = await endpoint();
    const newer = await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 5 });
    const older = await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 4 });
    const same = await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 5 });
    const otherEntity = await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g2', sequence: 1 });
    expect([newer, older, same, otherEntity].map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await handler.drain();
    expect(seen.map((d) => d.event.id)).toEqual([newer.eventId, otherEntity.eventId]);
  });

  it('processes events of one entity one at a time, in sequence order', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: number[] = [];
    const { url, handler } = await endpoint({
      onEvent: async (delivery) => {
        started.push(delivery.event.entityEventSequence);
        if (delivery.event.entityEventSequence === 1) await gate;
      },
    });
    await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 1 });
    await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 2 });
    await fake.sendWebhook(url, { instanceId: 'i', entityId: 'g9', sequence: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 1]); // g1#1 (blocked) and g9#1; g1#2 waits for g1#1
    release();
    await handler.drain();
    expect(started).toEqual([1, 1, 2]);
  });
});

describe('webhook handler: rejected deliveries', () => {
  it('answers 401 to a forged delivery and 400 to malformed nested JSON, and processes neither', async () => {
    const store = openStore();
    const { url, handler, seen, logs } = await endpoint({ store });
    const attacker = await startFakePlatform({ webhookAlgorithm: 'RS256' });
    cleanups.push(() => attacker.close());
    const forged = await attacker.sendWebhook(url, { instanceId: 'victim' });
    const expired = await fake.sendWebhook(url, { instanceId: 'i', expiresInSec: -3600 });
    const none = await fake.postWebhook(url, `${Buffer.from('{"alg":"none"}').toString('base64url')}.${(await fake.signWebhook({ instanceId: 'i' })).jwt.split('.')[1]}.`);
    const malformed = await fake.postWebhook(url, await fake.signClaims({ data: '{"instanceId": "i", "eventType": ' }));
    const garbage = await fake.postWebhook(url, 'not a jwt');
    expect([forged.status, expired.status, none.status, malformed.status, garbage.status]).toEqual([401, 401, 401, 400, 400]);
    expect(forged.body).toBe('invalid_signature');
    await handler.drain();
    expect(seen).toEqual([]);
    expect(await store.pending()).toEqual([]);
    expect(logs.entries.filter((e) => e.level === 'warn')).toHaveLength(5);
  });
});

describe('webhook handler: permanent failures are not answered as transient', () => {
  it('an entity nested 5,000 levels deep gets a 400 naming the field (every retry would fail the same), and the next delivery is stored', async () => {
    // Written by hand: JSON.stringify itself overflows the stack on it.
    const entityJson = `${'['.repeat(5000)}"leaf"${']'.repeat(5000)}`;
    const { url, handler, seen, logs } = await endpoint();
    const deep = await fake.sendWebhook(url, { instanceId: 'i', entityJson });
    expect(deep.status).toBe(400);
    expect(deep.body).toBe('invalid_field');
    expect(logs.entries.some((e) => /event\.entityAsJson is nested more than/.test(e.message))).toBe(true);

    const normal = await fake.sendWebhook(url, { instanceId: 'i', entity: { nested: { ok: [1, [2, [3]]] } } });
    expect(normal.status).toBe(200);
    await handler.drain();
    expect(seen.map((d) => d.event.id)).toEqual([normal.eventId]);
  });
});

describe('webhook handler: faults', () => {
  it('answers a retryable 503, never 200, when the store is unavailable; the platform retry then succeeds', async () => {
    const real = openStore();
    let down = true;
    const flaky: WebhookStore = {
      record: async (delivery) => {
        if (down) throw new Error('SQLITE_IOERR: disk I/O error');
        return real.record(delivery);
      },
      pending: () => real.pending(),
      startAttempt: (id) => real.startAttempt(id),
      markAttemptFailed: (id, error) => real.markAttemptFailed(id, error),
      markProcessed: (id) => real.markProcessed(id),
      markFailed: (id, error) => real.markFailed(id, error),
    };
    const { url, handler, seen, logs } = await endpoint({ store: flaky });
    const attempt = await fake.sendWebhook(url, { instanceId: 'i' });
    expect(attempt.status).toBe(503);
    await handler.drain();
    expect(seen).toEqual([]);
    expect(logs.entries.some((e) => e.level === 'error' && /store unavailable/.test(e.message))).toBe(true);

    down = false;
    const retry = await fake.postWebhook(url, attempt.jwt);
    expect(retry.status).toBe(200);
    await handler.drain();
    expect(seen.map((d) => d.event.id)).toEqual([attempt.eventId]);
  });

  it('answers 503 when the SQLite store has gone away', async () => {
    const store = openSqliteWebhookStore(join(dir.dir, 'closed.db'));
    store.close();
    const { url, seen } = await endpoint({ store });
    const response = await fake.sendWebhook(url, { instanceId: 'i' });
    expect(response.status).toBe(503);
    expect(seen).toEqual([]);
  });

  it('retries a failing onEvent with backoff until it succeeds', async () => {
    const store = openStore();
    let calls = 0;
    const attempts: number[] = [];
    const { url, handler } = await endpoint({
      store,
      maxAttempts: 5,
      onEvent: (_delivery, { attempt }) => {
        attempts.push(attempt);
        calls++;
        if (calls < 3) throw new Error(`downstream down (${calls})`);
      },
    });
    const sent = await fake.sendWebhook(url, { instanceId: 'i' });
    await handler.drain();
    expect(attempts).toEqual([1, 2, 3]);
    expect(await store.list('processed')).toMatchObject([{ attempts: 3, delivery: { event: { id: sent.eventId } } }]);
  });

  it('marks a delivery failed and keeps it after bounded attempts, never silently dropping it', async () => {
    const store = openStore();
    let calls = 0;
    const { url, handler, logs } = await endpoint({
      store,
      maxAttempts: 3,
      onEvent: () => {
        calls++;
        throw new Error('always broken');
      },
    });
    const sent = await fake.sendWebhook(url, { instanceId: 'i' });
    expect(sent.status).toBe(200);
    await handler.drain();
    expect(calls).toBe(3);
    expect(await store.list('failed')).toMatchObject([{ attempts: 3, lastError: 'always broken', delivery: { event: { id: sent.eventId } } }]);
    expect(await store.pending()).toEqual([]);
    expect(logs.entries.some((e) => e.level === 'error' && /marked failed/.test(e.message))).toBe(true);
  });

  it('recover() processes stored-but-unprocessed deliveries exactly once', async () => {
    const file = 'recover.db';
    const store = openStore(file);
    const { jwt } = await fake.signWebhook({ instanceId: 'i', entityId: 'g1' });
    // Recorded, then the process stopped before processing it.
    await store.record(await verifyWebhook(jwt, fake.publicKeyPem, { algorithms: [fake.webhookAlgorithm] }));

    const { handler, seen } = await endpoint({ store: openStore(file) });
    expect(await handler.recover()).toBe(1);
    await handler.drain();
    expect(seen).toHaveLength(1);
    expect(await handler.recover()).toBe(0);
    const again = await endpoint({ store: openStore(file) });
    expect(await again.handler.recover()).toBe(0);
    expect(again.seen).toEqual([]);
  });

  it('a crash between the 200 and processing loses nothing: a new handler on the same file processes it once', async () => {
    const storeFile = join(dir.dir, 'crash.db');
    const keyFile = join(dir.dir, 'platform.pem');
    writeFileSync(keyFile, fake.publicKeyPem);
    const fixture = fileURLToPath(new URL('./fixtures/crash-after-ack.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, storeFile, keyFile, fake.webhookAlgorithm], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    const exited = once(child, 'exit');
    const [childUrl] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];

    const sent = await fake.sendWebhook(childUrl, { instanceId: 'merchant-a', entityId: 'g1' });
    expect(sent.status).toBe(200);
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL'); // it died inside onEvent, after answering

    const restarted = await endpoint({ store: openStore('crash.db') });
    expect(await restarted.handler.recover()).toBe(1);
    await restarted.handler.drain();
    expect(restarted.seen.map((d) => d.event.id)).toEqual([sent.eventId]);

    // The platform's retry of the same delivery is a duplicate, and a second restart finds nothing to do.
    expect((await fake.postWebhook(restarted.url, sent.jwt)).status).toBe(200);
    await restarted.handler.drain();
    const again = await endpoint({ store: openStore('crash.db') });
    expect(await again.handler.recover()).toBe(0);
    expect(restarted.seen).toHaveLength(1);
    expect(again.seen).toEqual([]);
  });

  it('a delivery whose onEvent kills the process is counted per start and parked as failed after maxAttempts', async () => {
    const storeFile = join(dir.dir, 'poison.db');
    const keyFile = join(dir.dir, 'platform.pem');
    const attemptsLog = join(dir.dir, 'attempts.log');
    writeFileSync(keyFile, fake.publicKeyPem);
    writeFileSync(attemptsLog, '');
    const start = () => startCrashFixture([storeFile, keyFile, fake.webhookAlgorithm, attemptsLog, '3']);

    const first = await start();
    expect(first.url).toBeDefined();
    const sent = await fake.sendWebhook(first.url!, { instanceId: 'merchant-a', entityId: 'g1' });
    expect(sent.status).toBe(200);
    expect(await first.exited).toBe('SIGKILL');
    // Each restart's recover() runs it again, and it kills that process too.
    for (let restart = 0; restart < 2; restart++) expect((await start()).signal).toBe('SIGKILL');
    // The fourth start finds the attempts used up: it parks the delivery instead of running it.
    const fourth = await start();
    expect(fourth.url, 'the fourth process survived its recover()').toBeDefined();
    fourth.kill();

    expect(readFileSync(attemptsLog, 'utf8').trim().split('\n').map(Number)).toEqual([1, 2, 3]);
    const store = openStore('poison.db');
    expect(await store.pending()).toEqual([]);
    expect(await store.list('failed')).toMatchObject([{ delivery: { event: { id: sent.eventId } }, attempts: 3, lastError: expect.stringMatching(/3 attempts started/) }]);
  });

  it('refuses unsafe configuration at creation', () => {
    const store = openStore();
    const base = { key: fake.publicKeyPem, store, onEvent: () => undefined };
    expect(() => createWebhookHandler({ ...base, algorithms: [] })).toThrow(/algorithms must name/);
    expect(() => createWebhookHandler({ ...base, algorithms: ['RS256', 'HS256'] })).toThrow(/public key/);
    expect(() => createWebhookHandler({ ...base, algorithms: ['none'] })).toThrow(/none/);
  });
});

/**
 * Starts the crash fixture; resolves with its URL once it listens, or with the signal it died of
 * if it dies first (during its start-up recover()).
 */
async function startCrashFixture(args: string[]): Promise<{ url?: string; signal?: NodeJS.Signals | null; exited: Promise<NodeJS.Signals | null>; kill: () => void }> {
  const fixture = fileURLToPath(new URL('./fixtures/crash-after-ack.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const kill = () => child.kill('SIGKILL');
  cleanups.push(kill);
  const exited = once(child, 'exit').then(([, signal]) => signal as NodeJS.Signals | null);
  const line = once(createInterface({ input: child.stdout }), 'line').then(([url]) => ({ url: url as string }));
  const first = await Promise.race([line, exited.then((signal) => ({ signal }))]);
  return { ...first, exited, kill };
}
