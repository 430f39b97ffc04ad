import type { WindowSection } from '../../search/types.js';
import { oneLine } from './one-line.js';

/**
 * A result's map of what it leaves out: the sections of its window not shown, by number and
 * heading, on one line of bounded length, so the model can read the page or search again with
 * the docs' own words. Consecutive parts of one section (a long section split in parts) are one
 * entry ("6-9 Configuration"); entries that do not fit are counted.
 */

const PREFIX = 'Not shown: ';

function label(section: WindowSection): string {
  return oneLine(section.headings.at(-1) ?? '') || '(introduction)';
}

function sameHeadings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((h, i) => h === b[i]);
}

/** Runs of consecutive positions with the same heading path. */
function entries(leftOut: readonly WindowSection[]): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= leftOut.length; i++) {
    const prev = leftOut[i - 1]!;
    const next = leftOut[i];
    const joins =
      next !== undefined && next.position === prev.position + 1 && sameHeadings(next.headings, prev.headings);
    if (joins) continue;
    const first = leftOut[start]!.position + 1;
    const last = prev.position + 1;
    out.push(`${first === last ? first : `${first}-${last}`} ${label(prev)}`);
    start = i;
  }
  return out;
}

/** The outline line of `leftOut` (page order) in at most `maxChars`, or '' when nothing is left out; what does not fit is counted ("… and 12 more"). */
export function outlineLine(leftOut: readonly WindowSection[], maxChars: number): string {
  const all = entries(leftOut);
  if (all.length === 0) return '';
  let line = PREFIX;
  for (let i = 0; i < all.length; i++) {
    const rest = all.length - i - 1;
    const more = rest > 0 ? ` · … and ${rest} more` : '';
    const piece = `${i === 0 ? '' : ' · '}${all[i]}`;
    if (line.length + piece.length + more.length > maxChars) {
      return `${line}${i === 0 ? '' : ' · '}… and ${all.length - i} more`;
    }
    line += piece;
  }
  return line;
}
