import { INLINE_PATTERNS } from './macros.js';

/** Replacements of ranges of a text, and the inline patterns (macros.ts) found outside code. */

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export interface Range {
  start: number;
  end: number;
}

/**
 * `text` with `edits` applied; edits that overlap one applied before them are skipped. A line
 * that removals empty goes with its line break where blank lines around it separate what it
 * separated (after a blank line, or lines removed so, it takes one blank line after it along):
 * removed markup leaves no run of blank lines.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  let removedUntil = -1;
  for (const raw of sorted) {
    if (raw.start < at) continue;
    let edit = raw.text === '' ? wholeLine(text, raw, removedUntil) : raw;
    if (edit.start < at) edit = raw;
    if (edit !== raw) removedUntil = edit.end;
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/** A removal that leaves its line blank, after a blank line, the start or a removed line: the whole line. */
function wholeLine(text: string, edit: Edit, removedUntil: number): Edit {
  const lineStart = text.lastIndexOf('\n', edit.start - 1) + 1;
  const lineEnd = endOfLine(text, edit.end);
  if (text.slice(lineStart, edit.start).trim() !== '' || text.slice(edit.end, lineEnd).trim() !== '') return edit;
  const previousStart = text.lastIndexOf('\n', lineStart - 2) + 1;
  const afterBlank =
    lineStart === 0 || lineStart === removedUntil || text.slice(previousStart, lineStart).trim() === '';
  const nextEnd = endOfLine(text, lineEnd);
  const blankAfter = lineEnd < text.length && text.slice(lineEnd, nextEnd).trim() === '';
  // Before a blank line (or at the end) the emptied line is not needed as a separator either.
  if (!afterBlank) return blankAfter || lineEnd === text.length ? { start: lineStart, end: lineEnd, text: '' } : edit;
  if (lineEnd === text.length && lineStart > 0) return { start: previousStart, end: lineEnd, text: '' };
  return { start: lineStart, end: blankAfter ? nextEnd : lineEnd, text: '' };
}

/** Where the line holding `offset` ends, its line break included. */
function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** Whether a range overlaps any of `sorted` (sorted by start, non-overlapping). */
export function overlaps(range: Range, sorted: readonly Edit[]): boolean {
  const before = lastStartingBefore(sorted, range.end);
  return before >= 0 && sorted[before]!.end > range.start;
}

/** The index of the last of `sorted` that starts before `offset` (-1: none). */
function lastStartingBefore(sorted: readonly Range[], offset: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The inline patterns' matches in `text`, outside `code` (sorted, non-overlapping ranges of code
 * and frontmatter): a match that starts or ends inside code is code showing the syntax, and
 * stays. A match may span an inline code span (a shortcode parameter written in backticks).
 */
export function inlineEdits(text: string, code: readonly Range[]): Edit[] {
  const edits: Edit[] = [];
  for (const { pattern, render, spacesBefore } of INLINE_PATTERNS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const match = { start: m.index, end: m.index + m[0].length };
      const range = { ...match };
      if (m[0].length === 0) pattern.lastIndex++;
      if (m[0].length === 0 || inside(range.start, code) || inside(range.end - 1, code)) continue;
      const replacement = render(m);
      if (replacement === m[0]) continue;
      if (spacesBefore) while (range.start > 0 && /[ \t]/.test(text[range.start - 1]!)) range.start--;
      else if (replacement === '' && (range.start === 0 || /\s/.test(text[range.start - 1]!)))
        // Markup removed after a space takes the spaces after it too: `-   :icon: text` keeps its
        // list item's content column, `a {{x}} b` reads `a b`.
        while (/[ \t]/.test(text[range.end] ?? '')) range.end++;
      // Spaces another edit took already stay with it.
      if (!insertUnlessOverlapping(edits, { ...range, text: replacement }))
        insertUnlessOverlapping(edits, { ...match, text: replacement });
    }
  }
  return edits;
}

/** Adds `edit` to `sorted` (sorted, non-overlapping) at its place, unless it overlaps one there. */
function insertUnlessOverlapping(sorted: Edit[], edit: Edit): boolean {
  if (overlaps(edit, sorted)) return false;
  sorted.splice(lastStartingBefore(sorted, edit.end) + 1, 0, edit);
  return true;
}

/** Whether `offset` lies in one of the sorted `ranges`. */
function inside(offset: number, ranges: readonly Range[]): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (offset < r.start) hi = mid - 1;
    else if (offset >= r.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Applies the inline patterns to a short text whose only code is backtick spans (a converted HTML block, a title). */
export function cleanInlineText(text: string): string {
  const code = [...text.matchAll(/(`+)[\s\S]*?\1/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  return applyEdits(text, inlineEdits(text, code));
}
