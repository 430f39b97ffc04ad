/** `value` as a plain object's fields (JSON or YAML read from outside), or undefined for null, an array or a primitive. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
