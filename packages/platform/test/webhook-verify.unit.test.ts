import { createSecretKey } from 'node:crypto';
import { SignJWT, base64url, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PlatformError,
  WebhookVerificationError,
  startFakePlatform,
  verifyWebhook,
  type FakePlatform,
  type WebhookErrorCode,
} from '../src/index.js';
import { rejectionOf } from './helpers.js';

let fake: FakePlatform;
beforeAll(async () => {
  fake = await startFakePlatform();
});
afterAll(() => fake.close());

const options = () => ({ algorithms: [fake.webhookAlgorithm] });

async function expectRejected(jwt: string, code: WebhookErrorCode, field?: string): Promise<WebhookVerificationError> {
  const error = await rejectionOf(verifyWebhook(jwt, fake.publicKeyPem, options()));
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect(error).toMatchObject({ code });
  if (field !== undefined) expect(error).toMatchObject({ field });
  return error as WebhookVerificationError;
}

/** Signs a delivery with the fake key, nesting the given raw strings as the platform does. */
function nested(parts: {
  data?: string;
  identity?: string | undefined;
  event?: Record<string, unknown>;
  eventData?: string;
}) {
  const event = parts.event ?? {
    id: 'e1',
    entityFqdn: 'svc.v1.gift_card',
    slug: 'updated',
    entityId: 'g1',
    eventTime: '2024-05-01T10:00:00Z',
    entityEventSequence: 3,
  };
  const delivery: Record<string, unknown> = {
    instanceId: 'inst-1',
    eventType: 'svc.v1.gift_card_updated',
    data: parts.eventData ?? JSON.stringify(event),
  };
  if (parts.identity !== undefined) delivery.identity = parts.identity;
  return fake.signClaims({ data: parts.data ?? JSON.stringify(delivery) });
}

describe('verifyWebhook: valid deliveries', () => {
  it('verifies and decodes every nested level into typed fields', async () => {
    const { jwt, eventId } = await fake.signWebhook({
      instanceId: 'inst-9',
      eventType: 'svc.v1.gift_card_updated',
      entityId: 'g-7',
      sequence: 4,
      entity: { balance: '10.00' },
    });
    const delivery = await verifyWebhook(jwt, fake.publicKeyPem, options());
    expect(delivery).toEqual({
      instanceId: 'inst-9',
      eventType: 'svc.v1.gift_card_updated',
      identity: { identityType: 'APP', appId: fake.appId },
      event: {
        id: eventId,
        entityFqdn: 'svc.v1.gift_card',
        slug: 'updated',
        entityId: 'g-7',
        eventTime: expect.any(String),
        entityEventSequence: 4,
        entity: { balance: '10.00' },
      },
    });
  });

  it('accepts the key as PEM, KeyObject and JWK', async () => {
    const { jwt } = await fake.signWebhook({ instanceId: 'i' });
    for (const key of [fake.publicKeyPem, fake.publicKey, fake.publicJwk]) {
      await expect(verifyWebhook(jwt, key, options())).resolves.toMatchObject({ instanceId: 'i' });
    }
  });

  it('leaves identity and entity undefined when absent, and reads a sequence sent as a string', async () => {
    const jwt = await nested({
      event: { id: 'e2', entityFqdn: 'f', slug: 's', entityId: 'x', eventTime: 't', entityEventSequence: '42' },
    });
    const delivery = await verifyWebhook(jwt, fake.publicKeyPem, options());
    expect(delivery.identity).toBeUndefined();
    expect(delivery.event.entity).toBeUndefined();
    expect(delivery.event.entityEventSequence).toBe(42);
  });
});

describe('verifyWebhook: attacks', () => {
  it('rejects a forged signature (another key pair)', async () => {
    const attacker = await startFakePlatform({ webhookAlgorithm: fake.webhookAlgorithm });
    try {
      const { jwt } = await attacker.signWebhook({ instanceId: 'victim' });
      const error = await expectRejected(jwt, 'invalid_signature');
      expect(error.httpStatus).toBe(401);
    } finally {
      await attacker.close();
    }
  });

  it('rejects a tampered payload under a genuine signature', async () => {
    const { jwt } = await fake.signWebhook({ instanceId: 'real' });
    const [header, , signature] = jwt.split('.');
    const forgedClaims = base64url.encode(
      JSON.stringify({ data: '{}', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60 }),
    );
    await expectRejected(`${header}.${forgedClaims}.${signature}`, 'invalid_signature');
  });

  it('rejects alg: none', async () => {
    const { jwt } = await fake.signWebhook({ instanceId: 'i' });
    const payload = jwt.split('.')[1];
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const error = await expectRejected(`${header}.${payload}.`, 'algorithm_not_allowed');
    expect(error.httpStatus).toBe(401);
  });

  it('rejects HS256 signed with the public key as the HMAC secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { jwt: genuine } = await fake.signWebhook({ instanceId: 'i' });
    const claims = JSON.parse(Buffer.from(genuine.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(fake.publicKeyPem));
    await expectRejected(forged, 'algorithm_not_allowed');
  });

  it('refuses to be configured into the HMAC confusion, with none, or with no algorithms', async () => {
    const { jwt } = await fake.signWebhook({ instanceId: 'i' });
    for (const algorithms of [[fake.webhookAlgorithm, 'HS256'], ['none'], [], ['ES256']]) {
      const error = await rejectionOf(verifyWebhook(jwt, fake.publicKeyPem, { algorithms }));
      expect(error).toBeInstanceOf(PlatformError);
      expect(error).not.toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({ code: 'invalid_argument' });
    }
  });

  it('verifies HS256 only with a secret key, and then refuses asymmetric algorithms', async () => {
    const secret = createSecretKey(Buffer.from('a shared secret of enough length!!'));
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({
      data: JSON.stringify({
        instanceId: 'i',
        eventType: 't',
        data: JSON.stringify({
          id: '1',
          entityFqdn: 'f',
          slug: 's',
          entityId: 'e',
          eventTime: 't',
          entityEventSequence: 1,
        }),
      }),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(secret);
    await expect(verifyWebhook(jwt, new Uint8Array(secret.export()), { algorithms: ['HS256'] })).resolves.toMatchObject(
      { instanceId: 'i' },
    );
    await expect(verifyWebhook(jwt, secret, { algorithms: ['RS256'] })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });
});

describe('verifyWebhook: time claims', () => {
  it('rejects an expired token', async () => {
    const { jwt } = await fake.signWebhook({ instanceId: 'i', expiresInSec: -3600 });
    const error = await expectRejected(jwt, 'expired');
    expect(error.httpStatus).toBe(401);
  });

  it('honours clockToleranceSec', async () => {
    const { jwt } = await fake.signWebhook({ instanceId: 'i', expiresInSec: -10 });
    await expect(verifyWebhook(jwt, fake.publicKeyPem, { ...options(), clockToleranceSec: 60 })).resolves.toMatchObject(
      { instanceId: 'i' },
    );
    await expect(verifyWebhook(jwt, fake.publicKeyPem, { ...options(), clockToleranceSec: 0 })).rejects.toMatchObject({
      code: 'expired',
    });
  });

  it('rejects an iat in the future', async () => {
    const { jwt } = await fake.signWebhook({ instanceId: 'i', issuedAt: Math.floor(Date.now() / 1000) + 3600 });
    await expectRejected(jwt, 'invalid_claims');
  });

  it('rejects a token without exp or iat', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const pem = await exportSPKI(publicKey);
    const noExp = await new SignJWT({ data: '{}' }).setProtectedHeader({ alg: 'ES256' }).setIssuedAt().sign(privateKey);
    const noIat = await new SignJWT({ data: '{}' })
      .setProtectedHeader({ alg: 'ES256' })
      .setExpirationTime('1m')
      .sign(privateKey);
    for (const jwt of [noExp, noIat]) {
      await expect(verifyWebhook(jwt, pem, { algorithms: ['ES256'] })).rejects.toMatchObject({
        code: 'invalid_claims',
      });
    }
  });
});

describe('verifyWebhook: malformed bodies and nested JSON', () => {
  it('rejects a body that is not a JWT', async () => {
    for (const body of ['', 'hello', 'a.b', '{"data":"x"}', 'e30.e30.e30.e30'])
      await expectRejected(body, 'malformed_jwt');
    await expectRejected('!!!.e30.sig', 'malformed_jwt');
    await expectRejected('bm90LWpzb24.e30.c2ln', 'malformed_jwt');
  });

  it('names each nested string that is not JSON', async () => {
    await expectRejected(await nested({ data: 'not json' }), 'malformed_json', 'decoded.data');
    await expectRejected(await nested({ identity: '{oops' }), 'malformed_json', 'delivery.identity');
    await expectRejected(await nested({ eventData: '{"id":' }), 'malformed_json', 'delivery.data');
    const event = {
      id: 'e',
      entityFqdn: 'f',
      slug: 's',
      entityId: 'x',
      eventTime: 't',
      entityEventSequence: 1,
      entityAsJson: '{"balance":',
    };
    const error = await expectRejected(await nested({ event }), 'malformed_json', 'event.entityAsJson');
    expect(error.httpStatus).toBe(400);
  });

  it('names a missing field and a field of the wrong type', async () => {
    const base = { id: 'e', entityFqdn: 'f', slug: 's', entityId: 'x', eventTime: 't', entityEventSequence: 1 };
    const { entityId: _dropped, ...withoutEntityId } = base;
    await expectRejected(await nested({ event: withoutEntityId }), 'missing_field', 'event.entityId');
    await expectRejected(
      await nested({ event: { ...base, entityEventSequence: 'later' } }),
      'invalid_field',
      'event.entityEventSequence',
    );
    await expectRejected(
      await nested({ event: { ...base, entityEventSequence: -1 } }),
      'invalid_field',
      'event.entityEventSequence',
    );
    await expectRejected(
      await nested({ data: JSON.stringify({ eventType: 't', data: '{}' }) }),
      'missing_field',
      'delivery.instanceId',
    );
    await expectRejected(await nested({ identity: '"APP"' }), 'invalid_field', 'delivery.identity');
    await expectRejected(await fake.signClaims({ other: 1 }), 'missing_field', 'decoded.data');
    await expectRejected(await nested({ data: '[1,2]' }), 'invalid_field', 'delivery');
  });
});
