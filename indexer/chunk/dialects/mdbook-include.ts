/**
 * What an mdBook include shows of a file: the lines between `ANCHOR: name` and `ANCHOR_END:
 * name` for an anchor, the 1-based inclusive line range for a range, else the whole file; and in
 * every case without the anchor marker lines, which mdBook removes. `rustdoc_include` shows the
 * same lines to a reader (the rest of the file is there only for rustdoc, hidden). Pure.
 */

const MARKER = /\bANCHOR(?:_END)?:\s*[\w-]+/;

export function mdbookPart(
  text: string,
  selector: { region?: string; lines?: { from?: number; to?: number } },
): string {
  const part = selector.region === undefined ? lineRange(text, selector.lines ?? {}) : anchored(text, selector.region);
  return part.filter((line) => !MARKER.test(line)).join('');
}

/** Lines `from` to `to` of `text`, 1-based and inclusive (an open end is the text's), each with its line end. */
export function lineRange(text: string, { from = 1, to }: { from?: number; to?: number }): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.slice(Math.max(from - 1, 0), to ?? lines.length);
}

function anchored(text: string, name: string): string[] {
  const lines = text.split(/(?<=\n)/);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const start = lines.findIndex((l) => new RegExp(`\\bANCHOR:\\s*${escaped}\\b`).test(l));
  if (start < 0) return [];
  const endMarker = new RegExp(`\\bANCHOR_END:\\s*${escaped}\\b`);
  const end = lines.findIndex((l, i) => i > start && endMarker.test(l));
  return lines.slice(start + 1, end < 0 ? lines.length : end);
}
