import { closingLine, cutMarkdown } from '../render/cut-markdown.js';

/**
 * A page too long for one answer, cut into parts of at most `roomChars` characters each, so that
 * reading a page (resources/read) stays within a budget however long the page is. Each part is
 * cut as a SearchDocs section is (cutMarkdown: at a line break where one falls in the second half
 * of the room), and a code fence cut through is closed at the end of one part and opened again at
 * the start of the next, so every part reads as Markdown. Read in order, the parts show the whole
 * page. Pure: the same page and room always give the same parts, so part numbers are stable.
 */

/** A reopened fence longer than this share of the room is dropped, so every part makes progress. */
const MAX_REOPEN_SHARE = 0.25;

export function pageParts(markdown: string, roomChars: number): string[] {
  const parts: string[] = [];
  let at = 0;
  let reopen = '';
  for (;;) {
    const room = roomChars - reopen.length;
    if (markdown.length - at <= room) {
      parts.push(reopen + markdown.slice(at));
      return parts;
    }
    // One character past the room, so cutMarkdown sees that the text does not fit.
    const window = reopen + markdown.slice(at, at + room + 1);
    const { text, omitted } = cutMarkdown(window, roomChars);
    const end = window.length - omitted;
    parts.push(text);
    at += end - reopen.length;
    // The line break the cut fell on starts nothing: the next part begins after it.
    if (markdown[at] === '\n') at++;
    const fence = closingLine(window.slice(0, end));
    reopen = fence !== undefined && fence.length < roomChars * MAX_REOPEN_SHARE ? `${fence}\n` : '';
  }
}
