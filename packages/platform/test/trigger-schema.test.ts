import { describe, expect, it } from 'vitest';
import {
  PlatformError,
  inferTriggerSchema,
  lintTriggerSchema,
  validateTriggerPayload,
  type JsonSchema,
} from '../src/index.js';

const sample = {
  customer: { email: 'ann@example.com', name: 'Ann' },
  amount: 12.5,
  orderNumber: '1001',
  vip: true,
  items: [{ sku: 'A-1', price: 3 }],
  note: null,
};

describe('inferTriggerSchema', () => {
  it('declares numbers as string/number and email-looking strings as email', () => {
    expect(inferTriggerSchema(sample)).toEqual({
      type: 'object',
      properties: {
        customer: {
          type: 'object',
          properties: { email: { type: 'string', format: 'email' }, name: { type: 'string' } },
          required: ['email', 'name'],
        },
        amount: { type: 'string', format: 'number' },
        orderNumber: { type: 'string', format: 'number' },
        vip: { type: 'boolean' },
        items: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'string', format: 'number' } }, required: ['sku', 'price'] },
        },
        note: {},
      },
      required: ['customer', 'amount', 'orderNumber', 'vip', 'items'],
    });
  });

  it('gives a schema that passes the lint when the sample has an email', () => {
    expect(lintTriggerSchema(inferTriggerSchema(sample))).toEqual([]);
  });

  it('refuses a sample that is not an object', () => {
    expect(() => inferTriggerSchema([] as never)).toThrow(PlatformError);
  });
});

describe('lintTriggerSchema', () => {
  it('reports a schema with no email field at the root path', () => {
    const violations = lintTriggerSchema({ type: 'object', properties: { amount: { type: 'string', format: 'number' } } });
    expect(violations).toHaveLength(1);
    expect(violations[0]?.path).toBe('$');
    expect(violations[0]?.message).toMatch(/format": "email"/);
  });

  it('reports each number not declared as string/number, with its JSON path', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        total: { type: 'number' },
        order: { type: 'object', properties: { qty: { type: 'integer' }, 'unit price': { type: ['number', 'null'] } } },
        lines: { type: 'array', items: { type: 'object', properties: { price: { type: 'number' } } } },
        tuple: { type: 'array', prefixItems: [{ type: 'string' }, { const: 3 }] },
        extra: { type: 'object', additionalProperties: { enum: [1, 2] } },
        choice: { anyOf: [{ type: 'string', format: 'number' }, { type: 'number' }] },
        fine: { type: 'string', format: 'number' },
      },
    };
    expect(lintTriggerSchema(schema).map((v) => v.path)).toEqual([
      '$.total',
      '$.order.qty',
      '$.order["unit price"]',
      '$.lines[*].price',
      '$.tuple[1]',
      '$.extra.*',
      '$.choice',
    ]);
  });

  it('finds an email field nested in arrays', () => {
    const schema = { type: 'object', properties: { people: { type: 'array', items: { type: 'object', properties: { mail: { type: 'string', format: 'email' } } } } } };
    expect(lintTriggerSchema(schema)).toEqual([]);
  });
});

describe('validateTriggerPayload', () => {
  const schema = inferTriggerSchema(sample);
  const valid = { customer: { email: 'bob@example.com', name: 'Bob' }, amount: '7.25', orderNumber: '2002', vip: false, items: [], note: 'x' };

  it('accepts a payload that matches', () => {
    expect(validateTriggerPayload(schema, valid)).toEqual([]);
  });

  it('names each offending field', () => {
    const violations = validateTriggerPayload(schema, {
      ...valid,
      customer: { email: 'not-an-email', name: 'Bob' },
      amount: 7.25,
      orderNumber: 'twelve',
      items: [{ sku: 'A' }],
    });
    const byPath = Object.fromEntries(violations.map((v) => [v.path, v.message]));
    expect(byPath['$.customer.email']).toMatch(/email address/);
    expect(byPath['$.amount']).toMatch(/must be a string.*"7.25"/);
    expect(byPath['$.orderNumber']).toMatch(/string holding a number/);
    expect(byPath['$.items[0].price']).toMatch(/is required/);
  });

  it('accepts numeric strings in the number format, and rejects the rest', () => {
    const amountOnly = { type: 'object', properties: { n: { type: 'string', format: 'number' } } };
    for (const ok of ['0', '-3', '12.50', '1e3']) expect(validateTriggerPayload(amountOnly, { n: ok })).toEqual([]);
    for (const bad of ['', '1,5', 'NaN', '0x10', ' 1']) expect(validateTriggerPayload(amountOnly, { n: bad })).not.toEqual([]);
  });

  it('supports 2020-12 schemas', () => {
    const schema2020 = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { e: { type: 'string', format: 'email' }, pair: { type: 'array', prefixItems: [{ type: 'string' }] } } };
    expect(validateTriggerPayload(schema2020, { e: 'x', pair: [1] }).map((v) => v.path)).toEqual(['$.e', '$.pair[0]']);
  });

  it('throws invalid_trigger_schema for a schema that does not compile', () => {
    expect(() => validateTriggerPayload({ type: 'nonsense' }, {})).toThrow(expect.objectContaining({ code: 'invalid_trigger_schema' }));
  });
});
