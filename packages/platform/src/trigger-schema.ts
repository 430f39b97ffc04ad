/**
 * Custom-trigger payload schemas (seed 2.2): infer one from a sample the way
 * the dashboard does, check it against the two platform rules, and validate a
 * payload before it is reported.
 *
 * The rules: (1) some field has `format: email` — the platform finds the
 * customer's wallet by it; (2) every number is declared `type: string,
 * format: number` — so numbers travel as strings, e.g. `"12.5"`.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { PlatformError } from './errors.js';
import { ANY_ITEM, ANY_KEY, jsonPath, pointerSegments, type PathSegment } from './json-path.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
/** A JSON Schema object (draft-07, or 2020-12 when `$schema` says so). */
export type JsonSchema = { [keyword: string]: unknown };

/** One problem, located by the JSON path of the payload field it concerns. */
export interface SchemaViolation {
  path: string;
  message: string;
}

// Deliberately loose: the platform's own check is not documented, and a
// stricter local rule would reject addresses the platform accepts.
const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A decimal number written as a string: `12`, `-0.5`, `1e3`. */
const NUMERIC_STRING = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A schema for the sample, as the dashboard would infer it: every sample field
 * required, numbers (and numeric strings) as `type: string, format: number`,
 * email-looking strings as `format: email`. Review it before use: a `null` in
 * the sample gives an unconstrained field.
 */
export function inferTriggerSchema(samplePayload: JsonObject): JsonSchema {
  if (!isPlainObject(samplePayload)) {
    throw new PlatformError('invalid_argument', 'samplePayload must be a JSON object, e.g. { "email": "ann@example.com", "amount": "10" }');
  }
  return inferValue(samplePayload);
}

function inferValue(value: unknown): JsonSchema {
  if (typeof value === 'number') return { type: 'string', format: 'number' };
  if (typeof value === 'string') {
    if (EMAIL_LIKE.test(value)) return { type: 'string', format: 'email' };
    if (NUMERIC_STRING.test(value)) return { type: 'string', format: 'number' };
    return { type: 'string' };
  }
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) {
    return value.length === 0 ? { type: 'array' } : { type: 'array', items: inferValue(value[0]) };
  }
  if (isPlainObject(value)) {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, child] of Object.entries(value)) properties[key] = inferValue(child);
    const required = Object.keys(value).filter((key) => value[key] !== null);
    return { type: 'object', properties, required };
  }
  // null: the sample says nothing about the type.
  return {};
}

/** Every place the schema breaks the two platform rules; empty when it follows them. */
export function lintTriggerSchema(schema: JsonSchema): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  let hasEmailField = false;
  walkSchema(schema, [], (node, path) => {
    if (node.format === 'email') hasEmailField = true;
    if (declaresNumber(node)) {
      violations.push({
        path: jsonPath(path),
        message: `${jsonPath(path)} is declared as a number: declare it as { "type": "string", "format": "number" } and send it as a string, e.g. "12.5"`,
      });
    }
  });
  if (!hasEmailField) {
    violations.unshift({
      path: '$',
      message: 'no field has "format": "email": the platform finds the customer wallet by that field; add one, e.g. "email": { "type": "string", "format": "email" }',
    });
  }
  return violations;
}

function declaresNumber(node: JsonSchema): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('number') || types.includes('integer')) return true;
  if (typeof node.const === 'number') return true;
  return Array.isArray(node.enum) && node.enum.some((option) => typeof option === 'number');
}

/** Visits each subschema that describes a payload value, with that value's path. */
function walkSchema(node: unknown, path: PathSegment[], visit: (node: JsonSchema, path: PathSegment[]) => void): void {
  if (!isPlainObject(node)) return;
  visit(node, path);
  if (isPlainObject(node.properties)) {
    for (const [key, child] of Object.entries(node.properties)) walkSchema(child, [...path, key], visit);
  }
  if (isPlainObject(node.patternProperties)) {
    for (const child of Object.values(node.patternProperties)) walkSchema(child, [...path, ANY_KEY], visit);
  }
  walkSchema(node.additionalProperties, [...path, ANY_KEY], visit);
  const tuple = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : [];
  tuple.forEach((child: unknown, index: number) => walkSchema(child, [...path, index], visit));
  if (!Array.isArray(node.items)) walkSchema(node.items, [...path, ANY_ITEM], visit);
  walkSchema(node.additionalItems, [...path, ANY_ITEM], visit);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const branches = node[keyword];
    if (Array.isArray(branches)) for (const branch of branches) walkSchema(branch, path, visit);
  }
  walkSchema(node.then, path, visit);
  walkSchema(node.else, path, visit);
}

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
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function compile(schema: JsonSchema): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  const ajv = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? draft2020 : draft07;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new PlatformError('invalid_trigger_schema', `the trigger schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
  compiled.set(schema, validate);
  return validate;
}

/**
 * The payload's mismatches with the schema, each naming the field; empty when
 * the payload is valid. Throws `invalid_trigger_schema` if the schema itself is broken.
 */
export function validateTriggerPayload(schema: JsonSchema, payload: unknown): SchemaViolation[] {
  if (!isPlainObject(schema)) {
    throw new PlatformError('invalid_trigger_schema', 'the trigger schema must be a JSON Schema object');
  }
  const validate = compile(schema);
  if (validate(payload)) return [];
  const seen = new Set<string>();
  const violations: SchemaViolation[] = [];
  for (const error of validate.errors ?? []) {
    const violation = describe(error);
    const key = `${violation.path}\u0000${violation.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      violations.push(violation);
    }
  }
  return violations;
}

function describe(error: ErrorObject): SchemaViolation {
  const segments = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    const path = jsonPath([...segments, params.missingProperty]);
    return { path, message: `${path} is required` };
  }
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const path = jsonPath([...segments, params.additionalProperty]);
    return { path, message: `${path} is not allowed by the schema` };
  }
  const path = jsonPath(segments);
  if (error.keyword === 'format' && params.format === 'number') {
    return { path, message: `${path} must be a string holding a number, e.g. "12.5"` };
  }
  if (error.keyword === 'format' && params.format === 'email') {
    return { path, message: `${path} must be an email address` };
  }
  if (error.keyword === 'type' && params.type === 'string' && typeof error.data === 'number') {
    return { path, message: `${path} must be a string: the platform takes numbers as strings, send "${String(error.data)}"` };
  }
  return { path, message: `${path} ${error.message ?? 'does not match the schema'}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
