import { FormatError } from './converted.js';

/**
 * How much text an AsciiDoc page's attribute references make, counted before Asciidoctor runs.
 * An attribute entry's value is expanded when it is defined, so entries that each hold four
 * references to the one before grow fourfold a line, up to MAX_ATTRIBUTE_VALUE characters; a
 * 1 MiB page of `{a}` lines then makes 1 GB. Converting such a page ran the parser out of its
 * heap or over the CPU time limit, whichever came first on that machine (issue 40); counted here,
 * it is refused at once and the same way everywhere, and the time and heap limits stay a
 * backstop no page comes near.
 *
 * The count is an upper bound of what Asciidoctor substitutes: every `{name}` of a defined
 * attribute counts its value's expanded length wherever it stands (in a listing, escaped, or in
 * a block Asciidoctor does not substitute in), and a reference to no defined attribute counts
 * as written.
 */

/** Text a page's attribute references may make in all, in characters: 4 MiB (Asciidoctor's own manual expands by well under 2×). */
export const MAX_ATTRIBUTE_CHARS = 4 * 1024 * 1024;

/**
 * Asciidoctor's longest attribute value in its secure mode (`max-attribute-value-size`), set
 * again by the converter (asciidoc.ts), as a page cannot raise it: what it cuts a value to.
 */
export const MAX_ATTRIBUTE_VALUE = 4096;

/** `:name: value` (or `:name!:`, which unsets it) at the start of a line. */
const ENTRY = /^:(!?)([A-Za-z0-9_][A-Za-z0-9_-]*)(!?):(?:[ \t]+(.*))?$/;
const REFERENCE = /\{([A-Za-z0-9_][A-Za-z0-9_-]*)\}/g;

/** The length of `text` with each reference to a defined attribute replaced by that attribute's expanded length. */
function expandedLength(text: string, lengths: ReadonlyMap<string, number>): number {
  let length = text.length;
  for (const match of text.matchAll(REFERENCE)) {
    const value = lengths.get(match[1]!.toLowerCase());
    if (value !== undefined) length += value - match[0].length;
  }
  return length;
}

/** Throws a FormatError when the page's attribute references expand past MAX_ATTRIBUTE_CHARS. */
export function checkAttributeExpansion(source: string, maxChars = MAX_ATTRIBUTE_CHARS): void {
  const lengths = new Map<string, number>();
  let total = 0;
  for (const line of source.split('\n')) {
    const entry = ENTRY.exec(line);
    if (entry === null) {
      total += expandedLength(line, lengths) + 1;
    } else if (entry[1] === '!' || entry[3] === '!') {
      lengths.delete(entry[2]!.toLowerCase());
    } else {
      // Asciidoctor builds the value when it meets the entry, referenced or not: it counts too.
      const value = Math.min(expandedLength(entry[4] ?? '', lengths), MAX_ATTRIBUTE_VALUE);
      lengths.set(entry[2]!.toLowerCase(), value);
      total += value;
    }
    // Checked line by line, so no length counted grows past a few times the bound.
    if (total > maxChars)
      throw new FormatError(
        `its attribute references expand to over ${maxChars.toLocaleString('en-US')} characters; it is not converted`,
      );
  }
}
