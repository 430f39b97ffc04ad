/**
 * Cutting Markdown to a size for a response, so that what is left still reads as Markdown: at a
 * line break where one falls in the second half of the room, never between the two halves of a
 * surrogate pair (that would send a lone surrogate, which is no character), and with a code fence
 * it cut through closed by the same marker that opened it (a `~~~` fence is not closed by
 * three backticks, nor a four-backtick one by three).
 */

/** A fence line: its indentation, three or more backticks or tildes, and the rest of the line. */
const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/gm;

/**
 * The fence still open at the end of `text`, as the line that closes it (the opening line's
 * indentation and marker: a fence inside a list item stays inside it), or undefined. A closing
 * line has the opening's character, at least as many of them, and nothing after them.
 */
export function closingLine(text: string): string | undefined {
  let open: { indent: string; marker: string } | undefined;
  for (const [, indent, marker, rest] of text.matchAll(FENCE)) {
    if (open === undefined) open = { indent: indent!, marker: marker! };
    else if (marker![0] === open.marker[0] && marker!.length >= open.marker.length && rest!.trim() === '')
      open = undefined;
  }
  return open && `${open.indent}${open.marker}`;
}

/**
 * `text` cut to at most `maxChars` characters, plus a closing fence line when one is needed, and
 * how many characters of `text` were left out.
 */
export function cutMarkdown(text: string, maxChars: number): { text: string; omitted: number } {
  if (text.length <= maxChars) return { text, omitted: 0 };
  const lineEnd = text.lastIndexOf('\n', maxChars);
  let end = lineEnd > maxChars / 2 ? lineEnd : maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const head = text.slice(0, end);
  const closing = closingLine(head);
  return { text: closing === undefined ? head : `${head}\n${closing}`, omitted: text.length - end };
}
