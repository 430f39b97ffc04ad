/**
 * Walks the subschemas of a trigger schema that describe payload values, each with the JSON path
 * of the value it describes, following local `$ref`s (`#`, `#/$defs/…`, `<root $id>#/…`).
 * Bounded: a schema nested deeper than MAX_SCHEMA_DEPTH subschemas, one whose `$ref`s expand into
 * more than MAX_SCHEMA_VISITS subschemas, or an object that contains itself is refused with a
 * `PlatformError`, never a stack overflow. A `$ref` back to a subschema being walked (a recursive
 * schema, legal JSON Schema) is not followed again.
 */
import { PlatformError } from './errors.js';
import { ANY_ITEM, ANY_KEY, jsonPath, type PathSegment, valueAt } from './json-path.js';

export type SchemaNode = Record<string, unknown>;
export type SchemaVisitor = (node: SchemaNode, path: PathSegment[]) => void;

export const MAX_SCHEMA_DEPTH = 64;
export const MAX_SCHEMA_VISITS = 20_000;

/**
 * How a subschema applies to its parent's value: `member` (a property or item), `allOf`,
 * `anyOf`/`oneOf` (one of several alternatives), or conditionally (`if`, `then`, `else`,
 * `dependentSchemas`).
 */
export type ChildKind = 'member' | 'allOf' | 'anyOf' | 'oneOf' | 'if' | 'then' | 'else' | 'dependentSchemas';

export interface Child {
  node: SchemaNode;
  path: PathSegment[];
  kind: ChildKind;
}

/** Subschemas that describe the value itself, or its members, in keyword order. */
export function childSchemas(node: SchemaNode, path: PathSegment[]): Child[] {
  const out: Child[] = [];
  const at = (child: unknown, segments: PathSegment[], kind: ChildKind = 'member') => {
    if (isSchemaObject(child)) out.push({ node: child, path: [...path, ...segments], kind });
  };
  for (const [key, child] of entriesOf(node.properties)) at(child, [key]);
  for (const [, child] of entriesOf(node.patternProperties)) at(child, [ANY_KEY]);
  at(node.additionalProperties, [ANY_KEY]);
  at(node.unevaluatedProperties, [ANY_KEY]);
  const tuple = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : [];
  tuple.forEach((child: unknown, index: number) => at(child, [index]));
  if (!Array.isArray(node.items)) at(node.items, [ANY_ITEM]);
  at(node.additionalItems, [ANY_ITEM]);
  at(node.unevaluatedItems, [ANY_ITEM]);
  at(node.contains, [ANY_ITEM]);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches)) for (const branch of branches) at(branch, [], keyword);
  }
  for (const keyword of ['if', 'then', 'else'] as const) at(node[keyword], [], keyword);
  for (const [, child] of entriesOf(node.dependentSchemas)) at(child, [], 'dependentSchemas');
  return out;
}

/** Visits every subschema reachable from `root`, `$ref`s resolved. Throws `invalid_trigger_schema` when unbounded. */
export function walkSchema(root: unknown, visit: SchemaVisitor): void {
  const onStack = new Set<object>();
  let visits = 0;
  const walk = (node: unknown, path: PathSegment[], depth: number): void => {
    if (!isSchemaObject(node)) return;
    if (onStack.has(node)) throw cyclic(path);
    if (depth > MAX_SCHEMA_DEPTH) {
      throw new PlatformError(
        'invalid_trigger_schema',
        `the trigger schema nests subschemas more than ${MAX_SCHEMA_DEPTH} levels deep (at ${jsonPath(path)}): flatten it`,
      );
    }
    if (++visits > MAX_SCHEMA_VISITS) {
      throw new PlatformError(
        'invalid_trigger_schema',
        `the trigger schema expands into more than ${MAX_SCHEMA_VISITS} subschemas through its $refs: simplify it`,
      );
    }
    onStack.add(node);
    visit(node, path);
    const target = typeof node.$ref === 'string' ? resolveRef(root, node.$ref) : undefined;
    // A $ref back into a subschema being walked is recursion: its members are already being visited.
    if (isSchemaObject(target) && !onStack.has(target)) walk(target, path, depth + 1);
    for (const child of childSchemas(node, path)) walk(child.node, child.path, depth + 1);
    onStack.delete(node);
  };
  walk(root, [], 0);
}

/** The subschema a local `$ref` points at; `undefined` for remote or unresolvable references. */
export function resolveRef(root: unknown, ref: string): unknown {
  const rootId = isSchemaObject(root) && typeof root.$id === 'string' ? root.$id.replace(/#$/, '') : undefined;
  const local = rootId !== undefined && ref.startsWith(`${rootId}#`) ? ref.slice(rootId.length) : ref;
  if (local === '#') return root;
  if (!local.startsWith('#/')) return undefined;
  const decode = (raw: string) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
  return valueAt(root, local.slice(2).split('/').map(decode));
}

export function isSchemaObject(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entriesOf(value: unknown): Array<[string, unknown]> {
  return isSchemaObject(value) ? Object.entries(value) : [];
}

function cyclic(path: PathSegment[]): PlatformError {
  return new PlatformError(
    'invalid_trigger_schema',
    `the trigger schema contains itself (at ${jsonPath(path)}): JSON cannot represent a cycle; use "$ref" for recursion`,
  );
}
