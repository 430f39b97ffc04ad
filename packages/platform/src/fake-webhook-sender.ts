/**
 * The fake platform's webhook side: a generated signing key pair and
 * deliveries built exactly as the platform nests them (JWT → data → data →
 * entityAsJson; corpus/svc-platform/webhooks/payload-structure.md), so handlers can be tested end to end.
 */
import { KeyObject, randomUUID, type webcrypto } from 'node:crypto';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type JWK } from 'jose';

export type FakeWebhookAlgorithm = 'RS256' | 'ES256';

export interface FakeWebhookEvent {
  instanceId: string;
  /** Default `svc.v1.gift_card_initialized`. */
  eventType?: string;
  /** Default: a random id. */
  entityId?: string;
  /** `entityEventSequence`. Default 1. */
  sequence?: number;
  /** Domain event id. Default: a random UUID; reuse one to send a duplicate. */
  id?: string;
  /** Default: the part of `eventType` after its last `_`. */
  slug?: string;
  /** Default: `eventType` without `_<slug>`. */
  entityFqdn?: string;
  /** Sent as `entityAsJson`; `null` leaves the field out. Default: a sample gift card. */
  entity?: unknown;
  /** Sent as `entityAsJson` verbatim, instead of `entity`: for entities JSON.stringify cannot write. */
  entityJson?: string;
  /** Sent as `identity`; `null` leaves the field out. Default: `{ identityType: 'APP', appId }`. */
  identity?: Record<string, unknown> | null;
  /** ISO time. Default: now. */
  eventTime?: string;
  /** JWT `iat`, epoch seconds. Default: now. */
  issuedAt?: number;
  /** JWT lifetime from `issuedAt`; negative gives an already expired token. Default 300. */
  expiresInSec?: number;
}

export interface FakeWebhookResult {
  /** The handler's answer. */
  status: number;
  body: string;
  eventId: string;
  /** The delivery as sent, for replaying it. */
  jwt: string;
}

export interface FakeWebhookSender {
  algorithm: FakeWebhookAlgorithm;
  publicKey: KeyObject;
  publicKeyPem: string;
  publicJwk: JWK;
  /** A signed delivery without sending it. */
  signWebhook(event: FakeWebhookEvent): Promise<{ jwt: string; eventId: string }>;
  /** Signs arbitrary claims with the platform key, for malformed-delivery tests. */
  signClaims(claims: Record<string, unknown>, options?: { issuedAt?: number; expiresInSec?: number }): Promise<string>;
  post(callbackUrl: string, jwt: string): Promise<{ status: number; body: string }>;
}

const DEFAULT_EVENT_TYPE = 'svc.v1.gift_card_initialized';
const DEFAULT_LIFETIME_SEC = 300;

export async function createFakeWebhookSender(
  appId: string,
  algorithm: FakeWebhookAlgorithm,
): Promise<FakeWebhookSender> {
  const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
  const publicKeyObject = KeyObject.from(publicKey as webcrypto.CryptoKey);

  async function signClaims(
    claims: Record<string, unknown>,
    options: { issuedAt?: number; expiresInSec?: number } = {},
  ): Promise<string> {
    const issuedAt = options.issuedAt ?? Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + (options.expiresInSec ?? DEFAULT_LIFETIME_SEC))
      .sign(privateKey);
  }

  async function signWebhook(event: FakeWebhookEvent): Promise<{ jwt: string; eventId: string }> {
    const { delivery, eventId } = deliveryFor(event, appId);
    // The event's issuedAt and expiresInSec, when given, time the token.
    return { jwt: await signClaims({ data: JSON.stringify(delivery) }, event), eventId };
  }

  async function post(callbackUrl: string, jwt: string): Promise<{ status: number; body: string }> {
    const response = await fetch(callbackUrl, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: jwt });
    return { status: response.status, body: await response.text() };
  }

  return {
    algorithm,
    publicKey: publicKeyObject,
    publicKeyPem: await exportSPKI(publicKey),
    publicJwk: await exportJWK(publicKey),
    signWebhook,
    signClaims,
    post,
  };
}

/** The delivery's claims for `event`: the documented envelope with the domain event as JSON, defaults filled in. */
function deliveryFor(event: FakeWebhookEvent, appId: string): { delivery: Record<string, unknown>; eventId: string } {
  const eventType = event.eventType ?? DEFAULT_EVENT_TYPE;
  const cut = eventType.lastIndexOf('_');
  const slug = event.slug ?? (cut >= 0 ? eventType.slice(cut + 1) : eventType);
  const entityFqdn = event.entityFqdn ?? (cut >= 0 ? eventType.slice(0, cut) : eventType);
  const entityId = event.entityId ?? randomUUID();
  const eventId = event.id ?? randomUUID();
  const entity = event.entity === undefined ? sampleGiftCard(entityId) : event.entity;
  const identity = event.identity === undefined ? { identityType: 'APP', appId } : event.identity;

  const domainEvent: Record<string, unknown> = {
    id: eventId,
    entityFqdn,
    slug,
    entityId,
    eventTime: event.eventTime ?? new Date().toISOString(),
    entityEventSequence: event.sequence ?? 1,
  };
  if (event.entityJson !== undefined) domainEvent.entityAsJson = event.entityJson;
  else if (entity !== null) domainEvent.entityAsJson = JSON.stringify(entity);
  const delivery: Record<string, unknown> = {
    instanceId: event.instanceId,
    eventType,
    data: JSON.stringify(domainEvent),
  };
  if (identity !== null) delivery.identity = JSON.stringify(identity);
  return { delivery, eventId };
}

/** What a "Test webhook" delivery carries: sample data, not a real entity. */
export function sampleGiftCard(entityId: string): Record<string, unknown> {
  return {
    id: entityId,
    code: 'TEST-0000-0000',
    initialValue: '50.00',
    balance: '50.00',
    currency: 'USD',
    status: 'ACTIVE',
  };
}
