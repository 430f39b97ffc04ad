/**
 * A copy of `text` that holds nothing else. V8 keeps a slice of 13 or more characters as a view
 * of the whole string it was cut from, so a long-lived cache keyed by slices of section texts
 * would keep those texts alive; short slices are copies already.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf16le').toString('utf16le');
}
