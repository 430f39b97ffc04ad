import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  PlatformError,
  inferTriggerSchema,
  lintTriggerSchema,
  validateTriggerPayload,
  type JsonObject,
  type JsonSchema,
  type JsonValue,
} from '../src/index.js';
import { MAX_CACHED_VALIDATORS } from '../src/schema-validator.js';
import { MAX_SCHEMA_DEPTH } from '../src/schema-walk.js';

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
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, price: { type: 'string', format: 'number' } },
            required: ['sku', 'price'],
          },
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

  /** A sample whose email sits `levels` objects (and an array halfway) below the root. */
  const deepSample = (levels: number): JsonObject => {
    let value: JsonValue = 'ann@example.com';
    for (let i = levels; i > 0; i--) value = i === Math.floor(levels / 2) ? [value] : { next: value };
    return { next: value } as JsonObject;
  };

  it('infers a schema as deep as a trigger schema may be, and refuses a deeper sample with a PlatformError', () => {
    // The email at depth MAX_SCHEMA_DEPTH: the lint takes its schema.
    expect(lintTriggerSchema(inferTriggerSchema(deepSample(MAX_SCHEMA_DEPTH - 1)))).toEqual([]);
    for (const levels of [MAX_SCHEMA_DEPTH, 20_000]) {
      expect(() => inferTriggerSchema(deepSample(levels))).toThrow(
        expect.objectContaining({
          name: 'PlatformError',
          code: 'invalid_argument',
          message: `samplePayload nests objects and arrays more than ${MAX_SCHEMA_DEPTH} levels deep, deeper than a trigger schema may be: flatten it`,
        }),
      );
    }
  });

  it('refuses a sample that contains itself with the same error, not a RangeError', () => {
    const sample: Record<string, unknown> = { email: 'ann@example.com' };
    sample.self = sample;
    expect(() => inferTriggerSchema(sample as JsonObject)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

describe('lintTriggerSchema', () => {
  it('reports a schema with no email field at the root path', () => {
    const violations = lintTriggerSchema({
      type: 'object',
      properties: { amount: { type: 'string', format: 'number' } },
    });
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
    const schema = {
      type: 'object',
      properties: {
        people: { type: 'array', items: { type: 'object', properties: { mail: { type: 'string', format: 'email' } } } },
      },
    };
    expect(lintTriggerSchema(schema)).toEqual([]);
  });
});

describe('validateTriggerPayload', () => {
  const schema = inferTriggerSchema(sample);
  const valid = {
    customer: { email: 'bob@example.com', name: 'Bob' },
    amount: '7.25',
    orderNumber: '2002',
    vip: false,
    items: [],
    note: 'x',
  };

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
    for (const bad of ['', '1,5', 'NaN', '0x10', ' 1'])
      expect(validateTriggerPayload(amountOnly, { n: bad })).not.toEqual([]);
  });

  it('supports 2020-12 schemas', () => {
    const schema2020 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        e: { type: 'string', format: 'email' },
        pair: { type: 'array', prefixItems: [{ type: 'string' }] },
      },
    };
    expect(validateTriggerPayload(schema2020, { e: 'x', pair: [1] }).map((v) => v.path)).toEqual(['$.e', '$.pair[0]']);
  });

  it('throws invalid_trigger_schema for a schema that does not compile', () => {
    expect(() => validateTriggerPayload({ type: 'nonsense' }, {})).toThrow(
      expect.objectContaining({ code: 'invalid_trigger_schema' }),
    );
  });
});

describe('lintTriggerSchema: subschemas beyond properties and items', () => {
  const email = { email: { type: 'string', format: 'email' } };

  it('finds numbers reached through $ref/$defs, contains, if/then/else and dependentSchemas', () => {
    const schema: JsonSchema = {
      $id: 'https://example.com/trigger.json',
      type: 'object',
      $defs: { money: { type: 'number' }, unused: { type: 'integer' } },
      properties: {
        ...email,
        total: { $ref: '#/$defs/money' },
        again: { $ref: 'https://example.com/trigger.json#/$defs/money' },
        tags: { type: 'array', contains: { const: 7 } },
      },
      if: { properties: { kind: { enum: [1, 2] } } },
      then: { properties: { discount: { type: 'integer' } } },
      else: { properties: { surcharge: { type: ['number'] } } },
      dependentSchemas: { coupon: { properties: { couponValue: { type: 'number' } } } },
    };
    expect(lintTriggerSchema(schema).map((v) => v.path)).toEqual([
      '$.total',
      '$.again',
      '$.tags[*]',
      '$.kind',
      '$.discount',
      '$.surcharge',
      '$.couponValue',
    ]);
  });

  it('requires the email field on every branch of anyOf / oneOf, or in both then and else', () => {
    const branch = (withEmail: boolean) => ({
      type: 'object',
      properties: { ...(withEmail ? email : {}), id: { type: 'string' } },
    });
    const noEmail = (schema: JsonSchema) => lintTriggerSchema(schema).filter((v) => v.path === '$');
    expect(noEmail({ anyOf: [branch(true), branch(false)] })[0]?.message).toMatch(/only in some branches/);
    expect(noEmail({ oneOf: [branch(false), branch(true)] })).toHaveLength(1);
    expect(noEmail({ if: branch(true), then: branch(false) })).toHaveLength(1);
    expect(noEmail({ type: 'object', dependentSchemas: { a: branch(true) } })).toHaveLength(1);
    expect(noEmail({ anyOf: [branch(true), branch(true)] })).toEqual([]);
    expect(noEmail({ if: branch(false), then: branch(true), else: branch(true) })).toEqual([]);
    expect(noEmail({ allOf: [branch(false), branch(true)] })).toEqual([]);
    expect(noEmail({ anyOf: [branch(true), branch(false)], properties: email })).toEqual([]);
    expect(
      noEmail({ $defs: { e: { type: 'string', format: 'email' } }, properties: { mail: { $ref: '#/$defs/e' } } }),
    ).toEqual([]);
  });

  it('lints a recursive schema ($ref back to an ancestor) without looping', () => {
    const tree: JsonSchema = {
      type: 'object',
      properties: { ...email, size: { type: 'number' }, children: { type: 'array', items: { $ref: '#' } } },
    };
    expect(lintTriggerSchema(tree).map((v) => v.path)).toEqual(['$.size']);
    expect(
      validateTriggerPayload(tree, { email: 'a@example.com', size: 1, children: [{ size: 'one' }] }).map((v) => v.path),
    ).toEqual(['$.children[0].size']);
  });
});

describe('deep, cyclic and repeated trigger schemas', () => {
  const deep = (levels: number): JsonSchema => {
    let schema: JsonSchema = { type: 'string', format: 'email' };
    for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { next: schema } };
    return schema;
  };
  const cyclic = (): JsonSchema => {
    const schema: JsonSchema = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    return schema;
  };
  const refusal = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('a schema nested 5,000 levels deep, or containing itself, is refused with a PlatformError, not a RangeError', () => {
    for (const schema of [deep(5000), cyclic()]) {
      for (const check of [() => lintTriggerSchema(schema), () => validateTriggerPayload(schema, {})]) {
        const error = refusal(check);
        expect(error).toBeInstanceOf(PlatformError);
        expect(error).toMatchObject({ code: 'invalid_trigger_schema' });
      }
    }
  });

  it('a schema whose $refs expand exponentially is refused, not walked for ever', () => {
    const $defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++)
      $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    expect(refusal(() => lintTriggerSchema({ $defs, properties: { a: { $ref: '#/$defs/d0' } } }))).toMatchObject({
      code: 'invalid_trigger_schema',
    });
  });

  it('a schema nested as deep as the lint allows still passes', () => {
    expect(lintTriggerSchema(deep(60))).toEqual([]);
    expect(validateTriggerPayload(deep(60), {})).toEqual([]);
  });

  it('accepts a schema with $id on every fresh copy, as apps that parse it per report do', () => {
    const text = JSON.stringify({
      $id: 'https://example.com/schemas/order.json',
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
      required: ['email'],
    });
    for (let i = 0; i < 3; i++) {
      expect(validateTriggerPayload(JSON.parse(text) as JsonSchema, { email: 'a@example.com' })).toEqual([]);
      expect(validateTriggerPayload(JSON.parse(text) as JsonSchema, {}).map((v) => v.path)).toEqual(['$.email']);
    }
  });

  it('the same schema with its keys in another order is the same schema', () => {
    const a = { type: 'object', properties: { n: { type: 'string', format: 'number' } }, required: ['n'] };
    const b = { required: ['n'], properties: { n: { format: 'number', type: 'string' } }, type: 'object' };
    expect(validateTriggerPayload(a, { n: 'x' })).toEqual(validateTriggerPayload(b, { n: 'x' }));
  });
});

describe('validateTriggerPayload memory', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  it('keeps at most MAX_CACHED_VALIDATORS distinct schemas compiled, however many it has seen', async () => {
    const schemas: WeakRef<object>[] = [];
    for (let i = 0; i < 3 * MAX_CACHED_VALIDATORS; i++) {
      const field = `field${i}`;
      const schema = {
        type: 'object',
        properties: { [field]: { type: 'string', pattern: `^v${i}$` } },
        required: [field],
      };
      schemas.push(new WeakRef(schema));
      expect(validateTriggerPayload(schema, { [field]: `v${i}` })).toEqual([]);
      expect(validateTriggerPayload(schema, { [field]: 'w' }).map((v) => v.path)).toEqual([`$.${field}`]);
    }
    // A WeakRef keeps its target until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    // Each schema held is one compiled and kept (ajv keeps what it compiled, ~9 KB each): nothing else holds them.
    expect(schemas.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(MAX_CACHED_VALIDATORS);
  });

  it('keeps the heap flat when every call passes a freshly parsed copy of the schema', () => {
    const heapMb = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed / 1e6;
    };
    const text = JSON.stringify({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, amount: { type: 'string', format: 'number' } },
      required: ['email', 'amount'],
    });
    validateTriggerPayload(JSON.parse(text) as JsonSchema, {});
    const before = heapMb();
    // Compiling each copy kept ~12 KB per call (about 24 MB here); cached by content it keeps nothing.
    for (let i = 0; i < 2000; i++)
      validateTriggerPayload(JSON.parse(text) as JsonSchema, { email: 'a@example.com', amount: String(i) });
    expect(heapMb() - before).toBeLessThan(4);
  });
});
