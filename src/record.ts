/** `value` as a plain object's fields (JSON or YAML read from outside), or undefined for null, an array or a primitive. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `text` parsed as JSON, or the error `refusal` makes (the parser's own message quotes the text: say where, not what). */
export function jsonOr(text: string, refusal: () => Error): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw refusal();
  }
}
