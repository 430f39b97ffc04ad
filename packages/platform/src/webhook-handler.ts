/**
 * The webhook endpoint (corpus/svc-platform/webhooks/respond-quickly.md, idempotency-and-ordering.md): verify, record durably, answer 200 at
 * once, process in the background. Duplicates and out-of-order events are
 * answered 200 and skipped; nothing is answered 200 unless it is stored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebhookVerificationError } from './errors.js';
import { numberOption } from './http.js';
import { consoleLogger, type PlatformLogger } from './log.js';
import type { WebhookDelivery } from './webhook-delivery.js';
import { DeliveryQueue, describe, type WebhookEventContext } from './webhook-processing.js';
import { BodyTooLarge, readBody, reply, type RequestWithBody } from './webhook-request.js';
import type { WebhookStore } from './webhook-store.js';
import { createWebhookVerifier, type WebhookKey } from './webhook-verify.js';

export interface WebhookHandlerOptions {
  /** The platform's public key. */
  key: WebhookKey;
  /** Pinned algorithm(s), e.g. `['RS256']`. */
  algorithms: readonly string[];
  clockToleranceSec?: number;
  store: WebhookStore;
  /**
   * Does the work for one event; route by `delivery.instanceId`. Throwing
   * schedules a retry. Runs at least once per stored delivery: if the process
   * dies mid-call it runs again after `recover()`, so make side effects
   * idempotent on `delivery.event.id`.
   */
  onEvent: (delivery: WebhookDelivery, context: WebhookEventContext) => Promise<void> | void;
  /**
   * Attempts per delivery before it is marked failed (kept in the store). Default 5. An attempt
   * counts from the moment `onEvent` starts, so one that stops the process counts too.
   */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt with jitter. Default 1 s. */
  retryBaseDelayMs?: number;
  /** Cap on one retry delay. Default 60 s. */
  maxRetryDelayMs?: number;
  /** Larger bodies get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  logger?: PlatformLogger;
}

/** A `(req, res)` handler for node:http and express, plus background-work controls. */
export interface WebhookHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * Schedules every stored delivery not yet processed (e.g. after a crash).
   * Call once at start-up, before or after listening. Resolves with how many
   * were scheduled; `drain()` waits for them.
   */
  recover(): Promise<number>;
  /** Resolves when no event is being processed or waiting for a retry. */
  drain(): Promise<void>;
}

/** What answering one request needs: the verifier, the store, the queue to hand stored deliveries to. */
interface RequestContext {
  verify: (body: string) => Promise<WebhookDelivery>;
  store: WebhookStore;
  queue: DeliveryQueue;
  maxBodyBytes: number;
  log: PlatformLogger;
}

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  // The options carry algorithms and clockToleranceSec under the verifier's own names.
  const verify = createWebhookVerifier(options.key, options);
  const { store, onEvent } = options;
  const maxAttempts = numberOption(options.maxAttempts ?? 5, 'maxAttempts', '1 or more');
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const maxBodyBytes = numberOption(options.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes', '1 or more');
  const log = neverThrowing(options.logger ?? consoleLogger);
  const queue = new DeliveryQueue({ store, onEvent, maxAttempts, retryBaseDelayMs, maxRetryDelayMs, log });
  const context: RequestContext = { verify, store, queue, maxBodyBytes, log };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (req.method !== 'POST') return reply(res, 405, 'use POST', { Allow: 'POST' });
      const delivery = await receive(req, res, context);
      if (delivery !== undefined) await storeAndSchedule(delivery, res, context);
    } catch (error) {
      log({ level: 'error', message: `webhook handler failed: ${describe(error)}` });
      if (!res.headersSent) reply(res, 500, 'internal error');
    }
  }

  const handler = handle as WebhookHandler;
  handler.recover = async () => queue.recover();
  handler.drain = async () => queue.drain();
  return handler;
}

/** The verified delivery, or `undefined` once a 413 or a verification error has been answered. */
async function receive(req: IncomingMessage, res: ServerResponse, context: RequestContext) {
  const { maxBodyBytes, log } = context;
  try {
    return await context.verify(await readBody(req as RequestWithBody, maxBodyBytes));
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      reply(res, 413, `body larger than ${maxBodyBytes} bytes`, { Connection: 'close' });
      return undefined;
    }
    // Only the verifier throws these; what reading throws otherwise goes on to the 500.
    if (!(error instanceof WebhookVerificationError)) throw error;
    log({ level: 'warn', message: `webhook delivery rejected: ${error.message}`, fields: { code: error.code } });
    reply(res, error.httpStatus, error.code);
    return undefined;
  }
}

/** Records the delivery (503 if the store fails), answers 200, and schedules it unless it was a duplicate or stale. */
async function storeAndSchedule(
  delivery: WebhookDelivery,
  res: ServerResponse,
  context: RequestContext,
): Promise<void> {
  const { store, log } = context;
  let outcome;
  try {
    outcome = await store.record(delivery);
  } catch (error) {
    log({
      level: 'error',
      message: `webhook store unavailable, answered 503 so the platform retries: ${describe(error)}`,
      fields: { eventId: delivery.event.id },
    });
    reply(res, 503, 'store unavailable, retry later', { 'Retry-After': '30' });
    return;
  }

  reply(res, 200, 'ok');
  if (outcome === 'stored') {
    context.queue.schedule({ delivery, attempts: 0 });
  } else {
    log({
      level: 'info',
      message: `webhook delivery skipped as ${outcome}`,
      fields: {
        eventId: delivery.event.id,
        entityId: delivery.event.entityId,
        sequence: delivery.event.entityEventSequence,
      },
    });
  }
}

function neverThrowing(logger: PlatformLogger): PlatformLogger {
  return (entry) => {
    try {
      logger(entry);
    } catch {
      // A broken logger must not stop deliveries from being answered or processed.
    }
  };
}
