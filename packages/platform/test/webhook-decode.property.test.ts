import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WebhookVerificationError,
  decodeWebhookPayload,
  startFakePlatform,
  verifyWebhook,
  type FakePlatform,
} from '../src/index.js';

/** A string that is sometimes JSON of the right shape, sometimes JSON of another shape, sometimes not JSON. */
function nestedString(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string(),
    fc.json(),
    fc.constantFrom(
      '',
      'null',
      '{',
      '[]',
      '"x"',
      '{"__proto__":{"polluted":true}}',
      '1e400',
      '-0',
      '[[[[[[[[[[[[]]]]]]]]]]]]',
    ),
    shaped.map((value) => JSON.stringify(value) ?? 'undefined'),
  );
}

/** A field value: usually plausible, often hostile. */
const anyValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue());

const eventObject = fc.record(
  {
    id: fc.oneof(fc.uuid(), anyValue),
    entityFqdn: fc.oneof(fc.constant('svc.v1.gift_card'), anyValue),
    slug: fc.oneof(fc.constantFrom('initialized', 'updated', 'disabled', 'expired'), anyValue),
    entityId: fc.oneof(fc.string({ minLength: 1 }), anyValue),
    eventTime: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      anyValue,
    ),
    entityEventSequence: fc.oneof(fc.nat(), fc.nat().map(String), anyValue),
    entityAsJson: nestedString(fc.jsonValue()),
  },
  { requiredKeys: [] },
);

const deliveryObject = fc.record(
  {
    instanceId: fc.oneof(fc.uuid(), anyValue),
    eventType: fc.oneof(fc.constant('svc.v1.gift_card_initialized'), anyValue),
    identity: fc.oneof(nestedString(fc.dictionary(fc.string(), fc.jsonValue())), anyValue),
    data: fc.oneof(nestedString(eventObject), anyValue),
  },
  { requiredKeys: [] },
);

const claims = fc.oneof(
  fc.record({ data: nestedString(deliveryObject) }),
  fc.record({ data: anyValue }),
  fc.anything(),
);

function onlyOwnErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
  }
}

describe('webhook decoder (property)', () => {
  it('never throws anything but WebhookVerificationError for arbitrary nested strings', () => {
    fc.assert(
      fc.property(claims, (value) => onlyOwnErrors(() => decodeWebhookPayload(value))),
      { numRuns: 3000 },
    );
  });

  it('decodes every well-formed delivery', () => {
    const wellFormed = fc.record({
      id: fc.uuid(),
      entityId: fc.string({ minLength: 1 }),
      sequence: fc.nat(),
      entity: fc.jsonValue(),
    });
    fc.assert(
      fc.property(wellFormed, ({ id, entityId, sequence, entity }) => {
        const event = {
          id,
          entityFqdn: 'svc.v1.gift_card',
          slug: 'updated',
          entityId,
          eventTime: '2024-01-01T00:00:00Z',
          entityEventSequence: sequence,
          entityAsJson: JSON.stringify(entity),
        };
        const decoded = decodeWebhookPayload({
          data: JSON.stringify({ instanceId: 'i', eventType: 't', data: JSON.stringify(event) }),
        });
        expect(decoded.event).toMatchObject({ id, entityId, entityEventSequence: sequence });
        expect(decoded.event.entity).toEqual(JSON.parse(JSON.stringify(entity)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('verifyWebhook (property, signed deliveries)', () => {
  let fake: FakePlatform;
  beforeAll(async () => {
    fake = await startFakePlatform({ webhookAlgorithm: 'ES256' });
  });
  afterAll(() => fake.close());

  it('rejects only with WebhookVerificationError, whatever the signed nested strings are', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ data: nestedString(deliveryObject) }), async (value) => {
        const jwt = await fake.signClaims(value);
        try {
          await verifyWebhook(jwt, fake.publicKeyPem, { algorithms: ['ES256'] });
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookVerificationError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('rejects only with WebhookVerificationError for arbitrary bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/)),
        async (body) => {
          await expect(verifyWebhook(body, fake.publicKeyPem, { algorithms: ['ES256'] })).rejects.toBeInstanceOf(
            WebhookVerificationError,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
