/**
 * Compiled payload validators for trigger schemas, cached by the schema's canonical JSON (keys
 * sorted) in a bounded LRU. Apps often parse the schema afresh for every report; keyed by object
 * identity, each copy was compiled again and kept by ajv for good (and a second copy of a schema
 * with `$id` was refused as a duplicate id). Each schema is removed from ajv right after
 * compiling, so ajv holds nothing and the LRU bounds what is kept.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { PlatformError } from './errors.js';

/** Distinct schemas kept compiled; the least recently used is dropped beyond this. */
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
const draft07 = configure(new Ajv(AJV_OPTIONS));
const draft2020 = configure(new Ajv2020(AJV_OPTIONS));

const byObject = new WeakMap<object, ValidateFunction>();
const byCanonicalJson = new Map<string, ValidateFunction>();

/** The validator for `schema`, compiled once per distinct schema content. */
export function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const known = byObject.get(schema);
  if (known !== undefined) return known;
  const key = canonicalJson(schema);
  let validate = byCanonicalJson.get(key);
  if (validate === undefined) {
    validate = compile(schema);
  } else {
    byCanonicalJson.delete(key); // re-inserted below as the most recently used
  }
  byCanonicalJson.set(key, validate);
  if (byCanonicalJson.size > MAX_CACHED_VALIDATORS)
    byCanonicalJson.delete(byCanonicalJson.keys().next().value as string);
  byObject.set(schema, validate);
  return validate;
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  const ajv = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? draft2020 : draft07;
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new PlatformError(
      'invalid_trigger_schema',
      `the trigger schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
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
