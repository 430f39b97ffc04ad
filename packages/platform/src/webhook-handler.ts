/**
 * The webhook endpoint (seed 4.6, 6.3): verify, record durably, answer 200 at
 * once, process in the background. Duplicates and out-of-order events are
 * answered 200 and skipped; nothing is answered 200 unless it is stored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PlatformError, WebhookVerificationError } from './errors.js';
import { backoffDelay, sleep } from './http.js';
import { consoleLogger, type PlatformLogger } from './log.js';
import type { WebhookDelivery } from './webhook-delivery.js';
import type { PendingDelivery, WebhookStore } from './webhook-store.js';
import { createWebhookVerifier, type WebhookKey } from './webhook-verify.js';

export interface WebhookEventContext {
  /** 1 on the first try; higher when a previous attempt threw or stopped the process. */
  attempt: number;
}

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

/** Mounted behind a body parser, express leaves `req.body` set; a raw string or Buffer is still usable. */
type RequestWithBody = IncomingMessage & { body?: unknown };

class BodyTooLarge extends Error {}

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const verify = createWebhookVerifier(options.key, {
    algorithms: options.algorithms,
    ...(options.clockToleranceSec === undefined ? {} : { clockToleranceSec: options.clockToleranceSec }),
  });
  const { store, onEvent } = options;
  const maxAttempts = atLeastOne(options.maxAttempts ?? 5, 'maxAttempts');
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const maxBodyBytes = atLeastOne(options.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes');
  const log = neverThrowing(options.logger ?? consoleLogger);

  /** Event ids scheduled and not finished: one processing per event in this process. */
  const inFlight = new Set<string>();
  /** Per entity, the tail of its processing chain: events of one entity run in sequence order. */
  const entityTails = new Map<string, Promise<void>>();
  /** While `recover()` reads the store, ids that finish meanwhile, so they are not run twice. */
  let finishedDuringRecover: Set<string> | undefined;

  /**
   * Runs `onEvent` until it succeeds or the attempts are used up. Each attempt is counted in the
   * store before it runs, so one that kills the process still counts: after `maxAttempts` such
   * starts the delivery is parked as failed instead of being run again by every `recover()`.
   */
  async function processDelivery(pending: PendingDelivery): Promise<void> {
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
        const failure = await runOnEvent(delivery, attempt);
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
  async function runOnEvent(delivery: WebhookDelivery, attempt: number): Promise<string | undefined> {
    try {
      await onEvent(delivery, { attempt });
      return undefined;
    } catch (error) {
      return describe(error ?? new Error('onEvent threw without an error'));
    }
  }

  function schedule(pending: PendingDelivery): boolean {
    const { delivery } = pending;
    const eventId = delivery.event.id;
    if (inFlight.has(eventId)) return false;
    inFlight.add(eventId);
    const entityKey = JSON.stringify([delivery.instanceId, delivery.event.entityFqdn, delivery.event.entityId]);
    const previous = entityTails.get(entityKey) ?? Promise.resolve();
    const run = previous.then(() => processDelivery(pending));
    // processDelivery reports its own failures; this only keeps a throwing logger from breaking the chain.
    const tail = run
      .catch(() => undefined)
      .finally(() => {
        inFlight.delete(eventId);
        finishedDuringRecover?.add(eventId);
        if (entityTails.get(entityKey) === tail) entityTails.delete(entityKey);
      });
    entityTails.set(entityKey, tail);
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (req.method !== 'POST') {
        reply(res, 405, 'use POST', { Allow: 'POST' });
        return;
      }
      let body: string;
      try {
        body = await readBody(req as RequestWithBody, maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          reply(res, 413, `body larger than ${maxBodyBytes} bytes`, { Connection: 'close' });
          return;
        }
        throw error;
      }

      let delivery: WebhookDelivery;
      try {
        delivery = await verify(body);
      } catch (error) {
        if (error instanceof WebhookVerificationError) {
          log({ level: 'warn', message: `webhook delivery rejected: ${error.message}`, fields: { code: error.code } });
          reply(res, error.httpStatus, error.code);
          return;
        }
        throw error;
      }

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
        schedule({ delivery, attempts: 0 });
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
    } catch (error) {
      log({ level: 'error', message: `webhook handler failed: ${describe(error)}` });
      if (!res.headersSent) reply(res, 500, 'internal error');
    }
  }

  const handler = handle as WebhookHandler;
  handler.recover = async () => {
    const finished = new Set<string>();
    finishedDuringRecover = finished;
    try {
      const pending = await store.pending();
      let scheduled = 0;
      for (const item of pending) {
        if (!finished.has(item.delivery.event.id) && schedule(item)) scheduled++;
      }
      if (scheduled > 0) log({ level: 'info', message: `recovered ${scheduled} stored webhook deliveries` });
      return scheduled;
    } finally {
      finishedDuringRecover = undefined;
    }
  };
  handler.drain = async () => {
    while (entityTails.size > 0) await Promise.all(entityTails.values());
  };
  return handler;
}

function readBody(req: RequestWithBody, maxBytes: number): Promise<string> {
  if (typeof req.body === 'string') return Promise.resolve(req.body);
  if (Buffer.isBuffer(req.body)) return Promise.resolve(req.body.toString('utf8'));
  if (req.readableEnded) {
    return Promise.reject(
      new PlatformError(
        'invalid_argument',
        'the request body was already consumed by a body parser: mount the webhook handler before express.json(), or use express.text({ type: "*/*" })',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer | string) => {
      if (tooLarge) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > maxBytes) {
        // Keep reading and discarding, so the 413 can still be written on this connection.
        tooLarge = true;
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(buffer);
    });
    req.on('end', () => {
      if (!tooLarge) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
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

function reply(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function atLeastOne(value: number, what: string): number {
  if (!Number.isFinite(value) || value < 1)
    throw new PlatformError('invalid_argument', `${what} must be 1 or more, got ${value}`);
  return value;
}
