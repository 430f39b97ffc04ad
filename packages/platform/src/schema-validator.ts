/**
 * Compiled payload validators for trigger schemas, cached by the schema's canonical JSON (keys
 * sorted). Apps often parse the schema afresh for every report; keyed by object identity, each
 * copy was compiled again (and a second copy of a schema with `$id` was refused as a duplicate id).
 *
 * An ajv instance keeps something of every schema it compiles (the schema, its patterns, the
 * validator) in its code scope for as long as it lives, `removeSchema` or not, and every validator
 * it compiled holds it: about 9 KB per distinct schema, which dropping the validator from a cache
 * never freed. So validators are compiled in generations: one pair of ajv instances compiles at
 * most MAX_CACHED_VALIDATORS distinct schemas, then the cache and its instances are let go whole
 * and a fresh pair takes over. A schema still in use is compiled again in the new generation
 * (about 0.3 ms), once per MAX_CACHED_VALIDATORS distinct schemas.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { PlatformError } from './errors.js';

/** Distinct schemas compiled by one generation, and so at most kept compiled at once. */
export const MAX_CACHED_VALIDATORS = 256;
/** JSON nesting accepted in a schema (objects and arrays, `const` and `default` values included). */
export const MAX_SCHEMA_JSON_DEPTH = 256;

/** A decimal number written as a string: `12`, `-0.5`, `1e3`. */
export const NUMERIC_STRING = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

// ajv-formats is CommonJS; under NodeNext its plugin function sits on `.default`.
const addFormats = ajvFormats.default;

function configure<T extends Ajv | Ajv2020>(ajv: T): T {
  addFormats(ajv);
  ajv.addFormat('number', { type: 'string', validate: (value: string) => NUMERIC_STRING.test(value) });
  return ajv;
}

// strict: false because dashboard-edited schemas may carry keywords ajv does not know.
const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true } as const;

interface Generation {
  draft07: Ajv;
  draft2020: Ajv2020;
  byCanonicalJson: Map<string, ValidateFunction>;
  byObject: WeakMap<object, ValidateFunction>;
}

function newGeneration(): Generation {
  return {
    draft07: configure(new Ajv(AJV_OPTIONS)),
    draft2020: configure(new Ajv2020(AJV_OPTIONS)),
    byCanonicalJson: new Map(),
    byObject: new WeakMap(),
  };
}

let generation = newGeneration();

/** The validator for `schema`, compiled once per distinct schema content (per generation). */
export function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const known = generation.byObject.get(schema);
  if (known !== undefined) return known;
  const key = canonicalJson(schema);
  let validate = generation.byCanonicalJson.get(key);
  if (validate === undefined) {
    if (generation.byCanonicalJson.size >= MAX_CACHED_VALIDATORS) generation = newGeneration();
    validate = compile(generation, schema);
    generation.byCanonicalJson.set(key, validate);
  }
  generation.byObject.set(schema, validate);
  return validate;
}

function compile({ draft07, draft2020 }: Generation, schema: Record<string, unknown>): ValidateFunction {
  const ajv = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? draft2020 : draft07;
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new PlatformError(
      'invalid_trigger_schema',
      `the trigger schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    // ajv refuses a second schema with an `$id` it holds, and a schema's next version keeps its `$id`.
    ajv.removeSchema(schema);
  }
}

/**
 * JSON with object keys sorted, so equal schemas give equal keys whatever their key order.
 * Throws `invalid_trigger_schema` for a cycle or nesting beyond MAX_SCHEMA_JSON_DEPTH, before
 * anything recursive (ajv, JSON.stringify) can overflow the stack.
 */
export function canonicalJson(value: unknown): string {
  const onStack = new Set<object>();
  const write = (node: unknown, depth: number): string => {
    if (typeof node !== 'object' || node === null) return JSON.stringify(node) ?? 'null';
    if (depth >= MAX_SCHEMA_JSON_DEPTH) {
      throw new PlatformError(
        'invalid_trigger_schema',
        `the trigger schema is nested more than ${MAX_SCHEMA_JSON_DEPTH} levels deep: flatten it`,
      );
    }
    if (onStack.has(node)) {
      throw new PlatformError(
        'invalid_trigger_schema',
        'the trigger schema contains itself: JSON cannot represent a cycle; use "$ref" for recursion',
      );
    }
    onStack.add(node);
    const text = Array.isArray(node)
      ? `[${node.map((item) => write(item, depth + 1)).join(',')}]`
      : `{${Object.keys(node)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${write((node as Record<string, unknown>)[key], depth + 1)}`)
          .join(',')}}`;
    onStack.delete(node);
    return text;
  };
  return write(value, 0);
}
