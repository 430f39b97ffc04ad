/**
 * Titles and headings as one line of bounded length. Here, below the chunker, because both the
 * chunker (Markdown headings) and the formats (HTML and AsciiDoc titles) need it, and the formats
 * must not import the chunker.
 */

/** Headings and titles longer than this are shortened: every section below a heading repeats it. */
export const MAX_HEADING_CHARS = 200;

/** Whitespace and control characters collapsed (a title or heading is one line of a result), and the length capped. */
export function oneLine(text: string): string {
  const line = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return line.length > MAX_HEADING_CHARS ? `${line.slice(0, MAX_HEADING_CHARS - 1)}…` : line;
}
