/**
 * The webhook delivery after its JWT is verified (corpus/svc-platform/webhooks/payload-structure.md): three levels of
 * JSON-in-a-string, each parsed and checked with zod into typed objects.
 * Pure: every failure is a `WebhookVerificationError` naming the field.
 */
import { z } from 'zod';
import { WebhookVerificationError } from './errors.js';
import { valueAt } from './json-path.js';

/** Who caused the event, e.g. `{ identityType: 'APP', appId: '…' }`. Shape beyond that is not documented. */
export type WebhookIdentity = Record<string, unknown>;

/** The domain event: `delivery.data`, parsed. */
export interface WebhookEvent {
  /** Unique event id; the key for duplicate detection. */
  id: string;
  /** Entity type, e.g. `svc.v1.gift_card`. */
  entityFqdn: string;
  /** What happened: `initialized`, `updated`, `disabled`, `expired`, … */
  slug: string;
  entityId: string;
  /** When the event occurred (UTC), as sent. */
  eventTime: string;
  /** Order of updates to this entity; higher is newer. */
  entityEventSequence: number;
  /** `entityAsJson`, parsed; `undefined` when absent. Sample data on "Test webhook" deliveries. */
  entity: unknown;
}

export interface WebhookDelivery {
  /** The merchant installation; route the event by it. */
  instanceId: string;
  /** E.g. `svc.v1.gift_card_initialized`. */
  eventType: string;
  /** `delivery.identity`, parsed; `undefined` when absent. */
  identity: WebhookIdentity | undefined;
  event: WebhookEvent;
}

const JwtClaims = z.object({ data: z.string() });

const DeliveryFields = z.object({
  instanceId: z.string().min(1),
  eventType: z.string().min(1),
  identity: z.string().nullish(),
  data: z.string(),
});

const IdentityFields = z.record(z.string(), z.unknown());

// Sequence numbers may arrive as strings (64-bit integers in JSON often do); both mean the same.
const Sequence = z
  .union([
    z.number().int().nonnegative(),
    z.string().regex(/^\d+$/, 'must be a non-negative integer').transform(Number),
  ])
  .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, 'is larger than this module can compare exactly'));

const DomainEventFields = z.object({
  id: z.string().min(1),
  entityFqdn: z.string().min(1),
  slug: z.string().min(1),
  entityId: z.string().min(1),
  eventTime: z.string().min(1),
  entityEventSequence: Sequence,
  entityAsJson: z.string().nullish(),
});

/**
 * Turns verified JWT claims into a typed delivery. Exported for apps that
 * verify the JWT themselves; `verifyWebhook` does both steps.
 */
export function decodeWebhookPayload(claims: unknown): WebhookDelivery {
  const outer = check(JwtClaims, claims, 'decoded', claims);
  const deliveryJson = parseNestedJson(outer.data, 'decoded.data');
  const delivery = check(DeliveryFields, deliveryJson, 'delivery', deliveryJson);

  let identity: WebhookIdentity | undefined;
  if (delivery.identity !== undefined && delivery.identity !== null) {
    const identityJson = boundedDepth(parseNestedJson(delivery.identity, 'delivery.identity'), 'delivery.identity');
    check(IdentityFields, identityJson, 'delivery.identity', identityJson);
    identity = identityJson as WebhookIdentity;
  }

  const eventJson = parseNestedJson(delivery.data, 'delivery.data');
  const { entityAsJson, ...event } = check(DomainEventFields, eventJson, 'event', eventJson);
  const entity =
    entityAsJson === undefined || entityAsJson === null
      ? undefined
      : boundedDepth(parseNestedJson(entityAsJson, 'event.entityAsJson'), 'event.entityAsJson');
  return { instanceId: delivery.instanceId, eventType: delivery.eventType, identity, event: { ...event, entity } };
}

/**
 * JSON nesting accepted in a delivery's entity and identity. JSON.parse reads any depth, but
 * JSON.stringify (storing the delivery) and most code that walks it recurse, and overflow the
 * stack a few thousand levels down: such a delivery could never be stored, so it is refused as
 * malformed (400, not retried) rather than failing the store on every retry.
 */
export const MAX_NESTED_JSON_DEPTH = 256;

function boundedDepth(value: unknown, field: string): unknown {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= MAX_NESTED_JSON_DEPTH) {
      fail(
        'invalid_field',
        `${field} is nested more than ${MAX_NESTED_JSON_DEPTH} levels deep: the delivery cannot be stored`,
        field,
      );
    }
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return value;
}

function parseNestedJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the input, which may be large or sensitive; name the field instead.
    throw new WebhookVerificationError('malformed_json', `${field} is not valid JSON: the delivery cannot be read`, {
      field,
    });
  }
}

function check<T extends z.ZodType>(schema: T, value: unknown, prefix: string, raw: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue === undefined ? [] : issue.path;
  const field = [prefix, ...path.map(String)].join('.');
  if (path.length > 0 && valueAt(raw, path) === undefined) {
    return fail('missing_field', `${field} is missing from the webhook delivery`, field);
  }
  const problem =
    issue?.code === 'invalid_type' && path.length === 0
      ? 'must be a JSON object'
      : `is invalid: ${issue?.message ?? 'unexpected value'}`;
  return fail('invalid_field', `${field} ${problem}`, field);
}

function fail(code: 'missing_field' | 'invalid_field', message: string, field: string): never {
  throw new WebhookVerificationError(code, message, { field });
}
