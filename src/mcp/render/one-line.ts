/** Keeps a header line on one line: a title or path with a line break cannot forge a result header. */
export function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
}
