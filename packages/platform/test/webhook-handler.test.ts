import { join } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  openSqliteWebhookStore,
  startFakePlatform,
  verifyWebhook,
  type WebhookStore,
} from '../src/index.js';
import { serve } from './helpers.js';
import { webhookTestbed } from './webhook-testbed.js';

const bed = webhookTestbed();
const { openStore, endpoint, cleanups } = bed;

describe('webhook handler: delivery → processing', () => {
  it('verifies, answers 200, processes in the background and routes by instanceId', async () => {
    const { url, handler, seen } = await endpoint();
    const first = await bed.fake.sendWebhook(url, { instanceId: 'merchant-a', entityId: 'g1' });
    const second = await bed.fake.sendWebhook(url, {
      instanceId: 'merchant-b',
      entityId: 'g2',
      eventType: 'svc.v1.gift_card_disabled',
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    await handler.drain();
    expect(seen.map((d) => [d.instanceId, d.event.id, d.event.slug])).toEqual([
      ['merchant-a', first.eventId, 'initialized'],
      ['merchant-b', second.eventId, 'disabled'],
    ]);
  });

  it('processes a "Test webhook" sample delivery', async () => {
    const { url, handler, seen } = await endpoint();
    const sent = await bed.fake.sendTestWebhook(url, { instanceId: 'merchant-a' });
    expect(sent.status).toBe(200);
    await handler.drain();
    expect(seen[0]?.event.entity).toMatchObject({ code: 'TEST-0000-0000' });
  });

  it('works mounted in express, with or without a text body parser', async () => {
    const store = openStore();
    const seen: string[] = [];
    const handler = createWebhookHandler({
      key: bed.fake.publicKeyPem,
      algorithms: [bed.fake.webhookAlgorithm],
      store,
      onEvent: (d) => void seen.push(d.event.id),
      logger: () => undefined,
    });
    const app = express();
    app.post('/raw', handler);
    app.post('/text', express.text({ type: '*/*' }), handler);
    const server = await serve(app);
    cleanups.push(() => server.close());
    const a = await bed.fake.sendWebhook(`${server.url}/raw`, { instanceId: 'i' });
    const b = await bed.fake.sendWebhook(`${server.url}/text`, { instanceId: 'i' });
    expect([a.status, b.status]).toEqual([200, 200]);
    await handler.drain();
    expect(seen).toEqual([a.eventId, b.eventId]);
  });

  it('answers 405 to other methods and 413 to oversized bodies', async () => {
    const { url, seen } = await endpoint({ maxBodyBytes: 1000 });
    expect((await fetch(url)).status).toBe(405);
    const big = await bed.fake.sendWebhook(url, { instanceId: 'i', entity: { blob: 'x'.repeat(5000) } });
    expect(big.status).toBe(413);
    expect(seen).toEqual([]);
  });
});

describe('webhook handler: idempotency and ordering', () => {
  it('skips a duplicate event id with 200', async () => {
    const { url, handler, seen } = await endpoint();
    const sent = await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1' });
    const replay = await bed.fake.postWebhook(url, sent.jwt);
    const resigned = await bed.fake.sendWebhook(url, {
      instanceId: 'i',
      entityId: 'g1',
      id: sent.eventId,
      sequence: 9,
    });
    expect([sent.status, replay.status, resigned.status]).toEqual([200, 200, 200]);
    await handler.drain();
    expect(seen.map((d) => d.event.id)).toEqual([sent.eventId]);
  });

  it('ignores, with 200, an event whose sequence is not higher than the stored one', async () => {
    const { url, handler, seen } = await endpoint();
    const newer = await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 5 });
    const older = await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 4 });
    const same = await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 5 });
    const otherEntity = await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g2', sequence: 1 });
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
    await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 1 });
    await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g1', sequence: 2 });
    await bed.fake.sendWebhook(url, { instanceId: 'i', entityId: 'g9', sequence: 1 });
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
    const expired = await bed.fake.sendWebhook(url, { instanceId: 'i', expiresInSec: -3600 });
    const none = await bed.fake.postWebhook(
      url,
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${(await bed.fake.signWebhook({ instanceId: 'i' })).jwt.split('.')[1]}.`,
    );
    const malformed = await bed.fake.postWebhook(
      url,
      await bed.fake.signClaims({ data: '{"instanceId": "i", "eventType": ' }),
    );
    const garbage = await bed.fake.postWebhook(url, 'not a jwt');
    expect([forged.status, expired.status, none.status, malformed.status, garbage.status]).toEqual([
      401, 401, 401, 400, 400,
    ]);
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
    const deep = await bed.fake.sendWebhook(url, { instanceId: 'i', entityJson });
    expect(deep.status).toBe(400);
    expect(deep.body).toBe('invalid_field');
    expect(logs.entries.some((e) => /event\.entityAsJson is nested more than/.test(e.message))).toBe(true);

    const normal = await bed.fake.sendWebhook(url, { instanceId: 'i', entity: { nested: { ok: [1, [2, [3]]] } } });
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
    const attempt = await bed.fake.sendWebhook(url, { instanceId: 'i' });
    expect(attempt.status).toBe(503);
    await handler.drain();
    expect(seen).toEqual([]);
    expect(logs.entries.some((e) => e.level === 'error' && /store unavailable/.test(e.message))).toBe(true);

    down = false;
    const retry = await bed.fake.postWebhook(url, attempt.jwt);
    expect(retry.status).toBe(200);
    await handler.drain();
    expect(seen.map((d) => d.event.id)).toEqual([attempt.eventId]);
  });

  it('answers 503 when the SQLite store has gone away', async () => {
    const store = openSqliteWebhookStore(join(bed.dir, 'closed.db'));
    store.close();
    const { url, seen } = await endpoint({ store });
    const response = await bed.fake.sendWebhook(url, { instanceId: 'i' });
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
    const sent = await bed.fake.sendWebhook(url, { instanceId: 'i' });
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
    const sent = await bed.fake.sendWebhook(url, { instanceId: 'i' });
    expect(sent.status).toBe(200);
    await handler.drain();
    expect(calls).toBe(3);
    expect(await store.list('failed')).toMatchObject([
      { attempts: 3, lastError: 'always broken', delivery: { event: { id: sent.eventId } } },
    ]);
    expect(await store.pending()).toEqual([]);
    expect(logs.entries.some((e) => e.level === 'error' && /marked failed/.test(e.message))).toBe(true);
  });

  it('recover() processes stored-but-unprocessed deliveries exactly once', async () => {
    const file = 'recover.db';
    const store = openStore(file);
    const { jwt } = await bed.fake.signWebhook({ instanceId: 'i', entityId: 'g1' });
    // Recorded, then the process stopped before processing it.
    await store.record(await verifyWebhook(jwt, bed.fake.publicKeyPem, { algorithms: [bed.fake.webhookAlgorithm] }));

    const { handler, seen } = await endpoint({ store: openStore(file) });
    expect(await handler.recover()).toBe(1);
    await handler.drain();
    expect(seen).toHaveLength(1);
    expect(await handler.recover()).toBe(0);
    const again = await endpoint({ store: openStore(file) });
    expect(await again.handler.recover()).toBe(0);
    expect(again.seen).toEqual([]);
  });

  it('refuses unsafe configuration at creation', () => {
    const store = openStore();
    const base = { key: bed.fake.publicKeyPem, store, onEvent: () => undefined };
    expect(() => createWebhookHandler({ ...base, algorithms: [] })).toThrow(/algorithms must name/);
    expect(() => createWebhookHandler({ ...base, algorithms: ['RS256', 'HS256'] })).toThrow(/public key/);
    expect(() => createWebhookHandler({ ...base, algorithms: ['none'] })).toThrow(/none/);
  });
});
