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
  const lines = text.split(/(?<=\n)/);
  let part = lines;
  if (selector.region !== undefined) part = anchored(lines, selector.region);
  else if (selector.lines !== undefined) {
    const from = Math.max((selector.lines.from ?? 1) - 1, 0);
    part = lines.slice(from, selector.lines.to ?? lines.length);
  }
  return part.filter((line) => !MARKER.test(line)).join('');
}

function anchored(lines: readonly string[], name: string): string[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const start = lines.findIndex((l) => new RegExp(`\\bANCHOR:\\s*${escaped}\\b`).test(l));
  if (start < 0) return [];
  const endMarker = new RegExp(`\\bANCHOR_END:\\s*${escaped}\\b`);
  const end = lines.findIndex((l, i) => i > start && endMarker.test(l));
  return lines.slice(start + 1, end < 0 ? lines.length : end);
}
