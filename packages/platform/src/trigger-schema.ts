/**
 * Custom-trigger payload schemas (corpus/svc-platform/custom-triggers/payload-schema.md): infer one from a sample the way
 * the dashboard does, and validate a payload before it is reported. The two
 * platform rules are checked by `lintTriggerSchema` (trigger-lint.ts).
 */
import type { ErrorObject } from 'ajv';
import { PlatformError } from './errors.js';
import { jsonPath, pointerSegments } from './json-path.js';
import { NUMERIC_STRING, validatorFor } from './schema-validator.js';
import { isSchemaObject, MAX_SCHEMA_DEPTH } from './schema-walk.js';

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

/**
 * A schema for the sample, as the dashboard would infer it: every sample field
 * required, numbers (and numeric strings) as `type: string, format: number`,
 * email-looking strings as `format: email`. Review it before use: a `null` in
 * the sample gives an unconstrained field. A sample nested more than MAX_SCHEMA_DEPTH (64) objects
 * or arrays deep is refused (`invalid_argument`): its schema would be deeper than a trigger schema
 * may be.
 */
export function inferTriggerSchema(samplePayload: JsonObject): JsonSchema {
  if (!isSchemaObject(samplePayload)) {
    throw new PlatformError(
      'invalid_argument',
      'samplePayload must be a JSON object, e.g. { "email": "ann@example.com", "amount": "10" }',
    );
  }
  return inferValue(samplePayload, 0);
}

function inferValue(value: unknown, depth: number): JsonSchema {
  if (depth > MAX_SCHEMA_DEPTH) {
    // Checked before recursing further: a sample 20,000 levels deep (or one that contains itself) overflowed the stack.
    throw new PlatformError(
      'invalid_argument',
      `samplePayload nests objects and arrays more than ${MAX_SCHEMA_DEPTH} levels deep, deeper than a trigger schema may be: flatten it`,
    );
  }
  if (typeof value === 'number') return { type: 'string', format: 'number' };
  if (typeof value === 'string') {
    if (EMAIL_LIKE.test(value)) return { type: 'string', format: 'email' };
    if (NUMERIC_STRING.test(value)) return { type: 'string', format: 'number' };
    return { type: 'string' };
  }
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) {
    return value.length === 0 ? { type: 'array' } : { type: 'array', items: inferValue(value[0], depth + 1) };
  }
  if (isSchemaObject(value)) {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, child] of Object.entries(value)) properties[key] = inferValue(child, depth + 1);
    const required = Object.keys(value).filter((key) => value[key] !== null);
    return { type: 'object', properties, required };
  }
  // null: the sample says nothing about the type.
  return {};
}

/**
 * The payload's mismatches with the schema, each naming the field; empty when
 * the payload is valid. Throws `invalid_trigger_schema` if the schema itself is broken, cyclic or too deep.
 */
export function validateTriggerPayload(schema: JsonSchema, payload: unknown): SchemaViolation[] {
  if (!isSchemaObject(schema)) {
    throw new PlatformError('invalid_trigger_schema', 'the trigger schema must be a JSON Schema object');
  }
  const validate = validatorFor(schema);
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
    return {
      path,
      message: `${path} must be a string: the platform takes numbers as strings, send "${String(error.data)}"`,
    };
  }
  return { path, message: `${path} ${error.message ?? 'does not match the schema'}` };
}
