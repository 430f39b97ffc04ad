/**
 * What the webhook handler needs from storage. Small on purpose, so the
 * embedded SQLite store can be swapped for Redis or Postgres.
 */
import type { WebhookDelivery } from './webhook-delivery.js';

/**
 * - `stored`: new; persisted as pending, to be processed.
 * - `duplicate`: an event with this id was recorded before.
 * - `stale`: the entity already has an event with this or a higher sequence.
 */
export type RecordOutcome = 'stored' | 'duplicate' | 'stale';

export interface PendingDelivery {
  delivery: WebhookDelivery;
  /** Processing attempts already started, finished or not (0 for a fresh delivery). */
  attempts: number;
}

export interface WebhookStore {
  /**
   * In one atomic step: answer `duplicate` if `event.id` is known; answer
   * `stale` if `event.entityEventSequence` is not higher than the last one
   * recorded for the entity (instanceId, entityFqdn, entityId); otherwise save
   * the delivery as pending, raise the entity's last sequence and answer
   * `stored`. Must be durable when it resolves: the handler answers 200 next.
   * Throw (or reject) when storage is unavailable; the handler then answers 503.
   */
  record(delivery: WebhookDelivery): Promise<RecordOutcome>;
  /** Deliveries recorded but neither processed nor failed, in the order they were recorded. */
  pending(): Promise<PendingDelivery[]>;
  /**
   * Counts an attempt durably *before* `onEvent` runs, so an attempt that kills the process is
   * counted too. Resolves with the attempt's number (1 for the first), or `undefined` when the
   * delivery is no longer pending (processed or failed meanwhile).
   */
  startAttempt(eventId: string): Promise<number | undefined>;
  /** The started attempt failed and will be retried: keeps its error message. */
  markAttemptFailed(eventId: string, error: string): Promise<void>;
  /** The event was handled; it is never offered again. */
  markProcessed(eventId: string): Promise<void>;
  /** Retries are exhausted: keep the delivery as failed for an operator, and stop offering it. */
  markFailed(eventId: string, error: string): Promise<void>;
}
