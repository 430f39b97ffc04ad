/**
 * JSON paths for messages: `$.order.items[0].price`. `[*]` stands for "every
 * element" and `.*` for "any other key" when a path comes from a schema.
 */

export type PathSegment = string | number | typeof ANY_ITEM | typeof ANY_KEY;

export const ANY_ITEM = Symbol('any item');
export const ANY_KEY = Symbol('any key');

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsonPath(segments: readonly PathSegment[], root = '$'): string {
  let path = root;
  for (const segment of segments) {
    if (segment === ANY_ITEM) path += '[*]';
    else if (segment === ANY_KEY) path += '.*';
    else if (typeof segment === 'number') path += `[${segment}]`;
    else path += IDENTIFIER.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/** The value at `path` below `root` (own keys only); `undefined` where there is none. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** `/items/0/price` (a JSON Pointer, as ajv reports) to path segments. */
export function pointerSegments(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}
