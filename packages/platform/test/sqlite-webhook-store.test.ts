import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteWebhookStore, type WebhookDelivery } from '../src/index.js';
import { tempDir } from './helpers.js';

function delivery(id: string, entityId: string, sequence: number, instanceId = 'inst-1'): WebhookDelivery {
  return {
    instanceId,
    eventType: 'svc.v1.gift_card_updated',
    identity: undefined,
    event: {
      id,
      entityFqdn: 'svc.v1.gift_card',
      slug: 'updated',
      entityId,
      eventTime: '2024-01-01T00:00:00Z',
      entityEventSequence: sequence,
      entity: { n: sequence },
    },
  };
}

let dir: { dir: string; cleanup: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

describe('SQLite webhook store', () => {
  it('records new deliveries, and tells duplicates and stale sequences apart', async () => {
    const store = openSqliteWebhookStore(join(dir.dir, 'hooks.db'));
    expect(await store.record(delivery('a', 'g1', 2))).toBe('stored');
    expect(await store.record(delivery('a', 'g1', 2))).toBe('duplicate');
    expect(await store.record(delivery('b', 'g1', 2))).toBe('stale');
    expect(await store.record(delivery('c', 'g1', 1))).toBe('stale');
    expect(await store.record(delivery('d', 'g1', 3))).toBe('stored');
    expect(await store.record(delivery('e', 'g2', 1))).toBe('stored');
    // The same entity id in another installation has its own sequence.
    expect(await store.record(delivery('f', 'g1', 1, 'inst-2'))).toBe('stored');
    expect((await store.pending()).map((p) => p.delivery.event.id)).toEqual(['a', 'd', 'e', 'f']);
    store.close();
  });

  it('keeps pending deliveries and outcomes across reopening the file', async () => {
    const file = join(dir.dir, 'hooks.db');
    const first = openSqliteWebhookStore(file);
    await first.record(delivery('a', 'g1', 1));
    await first.record(delivery('b', 'g2', 1));
    expect(await first.startAttempt('a')).toBe(1);
    await first.markProcessed('a');
    expect(await first.startAttempt('b')).toBe(1);
    await first.markAttemptFailed('b', 'boom');
    first.close();

    const second = openSqliteWebhookStore(file);
    expect(await second.pending()).toEqual([{ delivery: delivery('b', 'g2', 1), attempts: 1 }]);
    expect(await second.record(delivery('a', 'g1', 1))).toBe('duplicate');
    expect((await second.list('processed')).map((d) => d.delivery.event.id)).toEqual(['a']);
    second.close();
  });

  it('keeps failed deliveries for an operator and can requeue them', async () => {
    const store = openSqliteWebhookStore(join(dir.dir, 'hooks.db'));
    await store.record(delivery('a', 'g1', 1));
    expect(await store.startAttempt('a')).toBe(1);
    await store.markFailed('a', 'gave up');
    expect(await store.startAttempt('a')).toBeUndefined();
    expect(await store.pending()).toEqual([]);
    expect(await store.list('failed')).toMatchObject([{ status: 'failed', attempts: 1, lastError: 'gave up' }]);
    expect(await store.requeue('a')).toBe(true);
    expect(await store.pending()).toMatchObject([{ attempts: 0 }]);
    expect(await store.requeue('missing')).toBe(false);
    store.close();
  });

  it('uses WAL journaling', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const file = join(dir.dir, 'hooks.db');
    openSqliteWebhookStore(file).close();
    const db = new DatabaseSync(file, { readOnly: true });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
  });

  it('fails with a clear error when the file cannot be opened', () => {
    expect(() => openSqliteWebhookStore(join(dir.dir, 'missing-dir', 'hooks.db'))).toThrow(
      /cannot open the webhook store/,
    );
  });
});
