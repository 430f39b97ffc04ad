/**
 * Background processing of stored webhook deliveries: one run per event at a time, events of one
 * entity in order, retries with backoff, and attempts counted in the store so a delivery that
 * keeps stopping the process is parked as failed.
 */
import { backoffDelay, sleep } from './http.js';
import type { PlatformLogger } from './log.js';
import type { WebhookDelivery } from './webhook-delivery.js';
import type { PendingDelivery, WebhookStore } from './webhook-store.js';

export interface WebhookEventContext {
  /** 1 on the first try; higher when a previous attempt threw or stopped the process. */
  attempt: number;
}

/** What processing needs of the handler's options, with the defaults applied. */
export interface ProcessingSettings {
  store: WebhookStore;
  onEvent: (delivery: WebhookDelivery, context: WebhookEventContext) => Promise<void> | void;
  maxAttempts: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  log: PlatformLogger;
}

/** Schedules deliveries for processing, and recovers and drains them. */
export class DeliveryQueue {
  /** Event ids scheduled and not finished: one processing per event in this process. */
  private readonly inFlight = new Set<string>();
  /** Per entity, the tail of its processing chain: events of one entity run in sequence order. */
  private readonly entityTails = new Map<string, Promise<void>>();
  /** While `recover()` reads the store, ids that finish meanwhile, so they are not run twice. */
  private finishedDuringRecover: Set<string> | undefined;

  constructor(private readonly settings: ProcessingSettings) {}

  schedule(pending: PendingDelivery): boolean {
    const { delivery } = pending;
    const eventId = delivery.event.id;
    if (this.inFlight.has(eventId)) return false;
    this.inFlight.add(eventId);
    const entityKey = JSON.stringify([delivery.instanceId, delivery.event.entityFqdn, delivery.event.entityId]);
    const previous = this.entityTails.get(entityKey) ?? Promise.resolve();
    const run = previous.then(() => processDelivery(pending, this.settings));
    // processDelivery reports its own failures; this only keeps a throwing logger from breaking the chain.
    const tail = run
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(eventId);
        this.finishedDuringRecover?.add(eventId);
        if (this.entityTails.get(entityKey) === tail) this.entityTails.delete(entityKey);
      });
    this.entityTails.set(entityKey, tail);
    return true;
  }

  /** Schedules every stored delivery not yet processed; resolves with how many were scheduled. */
  async recover(): Promise<number> {
    const finished = new Set<string>();
    this.finishedDuringRecover = finished;
    try {
      const pending = await this.settings.store.pending();
      let scheduled = 0;
      for (const item of pending) {
        if (!finished.has(item.delivery.event.id) && this.schedule(item)) scheduled++;
      }
      if (scheduled > 0)
        this.settings.log({ level: 'info', message: `recovered ${scheduled} stored webhook deliveries` });
      return scheduled;
    } finally {
      this.finishedDuringRecover = undefined;
    }
  }

  /** Resolves when no event is being processed or waiting for a retry. */
  async drain(): Promise<void> {
    while (this.entityTails.size > 0) await Promise.all(this.entityTails.values());
  }
}

/**
 * Runs `onEvent` until it succeeds or the attempts are used up. Each attempt is counted in the
 * store before it runs, so one that kills the process still counts: after `maxAttempts` such
 * starts the delivery is parked as failed instead of being run again by every `recover()`.
 */
async function processDelivery(pending: PendingDelivery, settings: ProcessingSettings): Promise<void> {
  const { store, maxAttempts, retryBaseDelayMs, maxRetryDelayMs, log } = settings;
  const { delivery } = pending;
  const eventId = delivery.event.id;
  const fields = { eventId, instanceId: delivery.instanceId, eventType: delivery.eventType };
  let attempt = pending.attempts;
  try {
    for (;;) {
      if (attempt >= maxAttempts) {
        const reason = `${attempt} attempts started and none finished: onEvent may be stopping the process (crash, out of memory, exit)`;
        await store.markFailed(eventId, reason);
        log({
          level: 'error',
          message: `delivery marked failed and kept in the store: ${reason}`,
          fields: { ...fields, attempt },
        });
        return;
      }
      const started = await store.startAttempt(eventId);
      if (started === undefined) return; // processed or parked meanwhile, e.g. by another process
      attempt = started;
      const failure = await runOnEvent(settings, delivery, attempt);
      if (failure === undefined) {
        await store.markProcessed(eventId);
        return;
      }
      if (attempt >= maxAttempts) {
        await store.markFailed(eventId, failure);
        log({
          level: 'error',
          message: `onEvent failed ${attempt} times, delivery marked failed and kept in the store: ${failure}`,
          fields: { ...fields, attempt },
        });
        return;
      }
      await store.markAttemptFailed(eventId, failure);
      const delay = backoffDelay(attempt, retryBaseDelayMs, maxRetryDelayMs);
      log({
        level: 'warn',
        message: `onEvent failed, retrying: ${failure}`,
        fields: { ...fields, attempt, retryInMs: delay },
      });
      await sleep(delay);
    }
  } catch (storeError) {
    // The attempt or its outcome could not be saved, so the delivery stays pending and
    // `recover()` will offer it again; better twice than never.
    log({
      level: 'error',
      message: `webhook store failed while saving an attempt or outcome; the delivery stays pending until recover(): ${describe(storeError)}`,
      fields: { ...fields, attempt },
    });
  }
}

/** `undefined` when `onEvent` succeeded, else why it failed. */
async function runOnEvent(
  settings: ProcessingSettings,
  delivery: WebhookDelivery,
  attempt: number,
): Promise<string | undefined> {
  try {
    await settings.onEvent(delivery, { attempt });
    return undefined;
  } catch (error) {
    return describe(error ?? new Error('onEvent threw without an error'));
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
