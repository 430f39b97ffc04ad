/**
 * The platform's two rules for a custom-trigger schema (corpus/svc-platform/custom-triggers/payload-schema.md), checked on the schema itself:
 * (1) the payload has a field with `format: email` — the platform finds the customer's wallet by
 * it; (2) every number is declared `type: string, format: number` — numbers travel as strings.
 *
 * Rule 1 for alternatives: the email field must be there whichever alternative a payload
 * matches. It counts when declared on the schema or its members, in any `allOf` part, in every
 * branch of `anyOf` or of `oneOf`, or in both `then` and `else`; one only in some branches, in
 * `if` or in `dependentSchemas` leaves payloads without one. Whether the field is required is
 * the schema author's call, as for any other field.
 */
import { PlatformError } from './errors.js';
import { jsonPath } from './json-path.js';
import { childSchemas, isSchemaObject, resolveRef, walkSchema, type SchemaNode } from './schema-walk.js';
import type { JsonSchema, SchemaViolation } from './trigger-schema.js';

/** Every place the schema breaks the two platform rules; empty when it follows them. Throws `invalid_trigger_schema` for a schema too deep or cyclic to check. */
export function lintTriggerSchema(schema: JsonSchema): SchemaViolation[] {
  if (!isSchemaObject(schema)) {
    throw new PlatformError('invalid_trigger_schema', 'the trigger schema must be a JSON Schema object');
  }
  const numbers = new Map<string, SchemaViolation>();
  let declaresAnyEmail = false;
  walkSchema(schema, (node, path) => {
    if (node.format === 'email') declaresAnyEmail = true;
    const at = jsonPath(path);
    if (declaresNumber(node) && !numbers.has(at)) {
      numbers.set(at, {
        path: at,
        message: `${at} is declared as a number: declare it as { "type": "string", "format": "number" } and send it as a string, e.g. "12.5"`,
      });
    }
  });
  const violations = [...numbers.values()];
  if (!alwaysHasEmail(schema, schema, new Set())) {
    violations.unshift({
      path: '$',
      message: declaresAnyEmail
        ? 'the "format": "email" field is declared only in some branches (anyOf, oneOf, if/then/else or dependentSchemas): a payload matching another branch gives the platform no wallet to credit; declare it outside the branches, or in every branch'
        : 'no field has "format": "email": the platform finds the customer wallet by that field; add one, e.g. "email": { "type": "string", "format": "email" }',
    });
  }
  return violations;
}

function declaresNumber(node: SchemaNode): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('number') || types.includes('integer')) return true;
  if (typeof node.const === 'number') return true;
  return Array.isArray(node.enum) && node.enum.some((option) => typeof option === 'number');
}

/** Whether every payload the schema accepts declares an email field (walkSchema has bounded the schema already). */
function alwaysHasEmail(root: SchemaNode, node: SchemaNode, onStack: Set<object>): boolean {
  if (onStack.has(node)) return false;
  if (node.format === 'email') return true;
  onStack.add(node);
  try {
    const has = (child: unknown) => isSchemaObject(child) && alwaysHasEmail(root, child, onStack);
    if (typeof node.$ref === 'string' && has(resolveRef(root, node.$ref))) return true;
    const children = childSchemas(node, []);
    if (children.some((child) => (child.kind === 'member' || child.kind === 'allOf') && has(child.node))) return true;
    const everyBranch = (kind: 'anyOf' | 'oneOf') => {
      const branches = children.filter((child) => child.kind === kind);
      return branches.length > 0 && branches.every((child) => has(child.node));
    };
    return everyBranch('anyOf') || everyBranch('oneOf') || (has(node.then) && has(node.else));
  } finally {
    onStack.delete(node);
  }
}
