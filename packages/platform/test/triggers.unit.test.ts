import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PlatformError,
  inferTriggerSchema,
  lintTriggerSchema,
  reportTriggerEvent,
  startFakePlatform,
  type FakePlatform,
  type FetchLike,
} from '../src/index.js';
import { rejectionOf } from './helpers.js';

const sample = { email: 'ann@example.com', amount: 10, orderId: 'A-1' };
const schema = inferTriggerSchema(sample);

let fake: FakePlatform;
beforeAll(async () => {
  fake = await startFakePlatform({ triggers: { 'order-paid': schema }, webhookAlgorithm: 'ES256' });
});
afterAll(() => fake.close());

describe('trigger lint → report against the fake', () => {
  it('lints the inferred schema, validates and reports: 200 means accepted, not credit issued', async () => {
    expect(lintTriggerSchema(schema)).toEqual([]);
    const result = await reportTriggerEvent({
      baseUrl: fake.url,
      accountId: fake.accountId,
      apiKey: fake.apiKey,
      triggerKey: 'order-paid',
      payload: { email: 'bob@example.com', amount: '25.00', orderId: 'B-2' },
      schema,
    });
    expect(result).toEqual({ accepted: true, status: 200 });
    expect(fake.triggerReports.at(-1)).toEqual({
      accountId: fake.accountId,
      triggerKey: 'order-paid',
      payload: { email: 'bob@example.com', amount: '25.00', orderId: 'B-2' },
    });
  });

  it('sends exactly the documented headers: svc-account-id and Authorization without Bearer', async () => {
    let headers = new Headers();
    let body: unknown;
    const recording: FetchLike = (input, init) => {
      headers = new Headers(init.headers);
      body = JSON.parse(String(init.body));
      return fetch(input, init);
    };
    await reportTriggerEvent({
      baseUrl: fake.url,
      accountId: fake.accountId,
      apiKey: fake.apiKey,
      triggerKey: 'order-paid',
      payload: { email: 'c@example.com', amount: '1', orderId: 'C' },
      fetch: recording,
    });
    expect(headers.get('svc-account-id')).toBe(fake.accountId);
    expect(headers.get('authorization')).toBe(fake.apiKey);
    expect(headers.get('content-type')).toBe('application/json');
    expect(body).toEqual({ triggerKey: 'order-paid', payload: { email: 'c@example.com', amount: '1', orderId: 'C' } });
  });

  it('validates locally and sends nothing when the payload breaks the schema', async () => {
    const before = fake.triggerReports.length;
    const error = await rejectionOf(
      reportTriggerEvent({
        baseUrl: fake.url,
        accountId: fake.accountId,
        apiKey: fake.apiKey,
        triggerKey: 'order-paid',
        payload: { email: 'nope', amount: 25, orderId: 'X' },
        schema,
      }),
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ code: 'invalid_trigger_payload' });
    expect((error as Error).message).toMatch(/\$\.email/);
    expect((error as Error).message).toMatch(/\$\.amount/);
    expect(fake.triggerReports.length).toBe(before);
  });

  it('the platform rejecting the payload is an http_error with the status', async () => {
    const error = await rejectionOf(
      reportTriggerEvent({
        baseUrl: fake.url,
        accountId: fake.accountId,
        apiKey: fake.apiKey,
        triggerKey: 'order-paid',
        payload: { email: 'ok@example.com', amount: 3, orderId: 'X' },
      }),
    );
    expect(error).toMatchObject({ code: 'http_error', status: 400 });
  });

  it('a wrong API key or a "Bearer" prefix is refused with 401', async () => {
    for (const apiKey of ['wrong-key', `Bearer ${fake.apiKey}`]) {
      const error = await rejectionOf(
        reportTriggerEvent({
          baseUrl: fake.url,
          accountId: fake.accountId,
          apiKey,
          triggerKey: 'order-paid',
          payload: { email: 'a@example.com', amount: '1', orderId: 'A' },
        }),
      );
      expect(error).toMatchObject({ code: 'http_error', status: 401 });
    }
  });

  it('an unknown trigger key is a 404 http_error', async () => {
    const error = await rejectionOf(
      reportTriggerEvent({
        baseUrl: fake.url,
        accountId: fake.accountId,
        apiKey: fake.apiKey,
        triggerKey: 'nope',
        payload: { email: 'a@example.com' },
      }),
    );
    expect(error).toMatchObject({ code: 'http_error', status: 404 });
  });

  it('is never retried: a 503 is reported once', async () => {
    let calls = 0;
    const failing: FetchLike = async () => {
      calls++;
      return new Response('busy', { status: 503 });
    };
    const error = await rejectionOf(
      reportTriggerEvent({
        baseUrl: fake.url,
        accountId: 'a',
        apiKey: 'k',
        triggerKey: 't',
        payload: { email: 'a@example.com' },
        fetch: failing,
      }),
    );
    expect(error).toMatchObject({ code: 'http_error', status: 503 });
    expect(calls).toBe(1);
  });

  it('requires both credentials', async () => {
    await expect(
      reportTriggerEvent({ baseUrl: fake.url, accountId: '', apiKey: 'k', triggerKey: 't', payload: {} }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(
      reportTriggerEvent({ baseUrl: fake.url, accountId: 'a', apiKey: '', triggerKey: 't', payload: {} }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
