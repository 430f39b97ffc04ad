import type { WindowSection } from '../../search/types.js';
import { oneLine } from './one-line.js';

/**
 * The line that opens each shown section of a response ("----- section 4 -----", ">>>>> BEST
 * MATCH | section 3 | Guide > Retries <<<<<"), and what render.ts measures a section by before
 * choosing: built from short strings only, its heading path made once per headings array.
 */

/** "3" or "3-7": a run of 1-based section numbers. */
export function range(from: number, to: number): string {
  return from === to ? `${from}` : `${from}-${to}`;
}

/**
 * A marker's heading path (" | A > B"), by the headings array: a served store hands back the same
 * array for a section it keeps (src/index/section-cache.ts), and every response measures the
 * marker of every section of its windows. Held only while the array lives.
 */
const paths = new WeakMap<readonly string[], string>();

function pathOf(headings: readonly string[]): string {
  let path = paths.get(headings);
  if (path === undefined)
    paths.set(headings, (path = headings.length > 0 ? ` | ${oneLine(headings.join(' > '))}` : ''));
  return path;
}

/** A section's marker line: the best match marked, others by number, with their heading path after a gap. */
export function markerLine(
  section: Pick<WindowSection, 'position' | 'headings'>,
  isBest: boolean,
  gap: { from: number; to: number } | undefined,
): string {
  const where = `section ${section.position + 1}`;
  const path = pathOf(section.headings);
  const skipped = gap ? ` (section${gap.from === gap.to ? '' : 's'} ${range(gap.from + 1, gap.to + 1)} not shown)` : '';
  return isBest
    ? `>>>>> BEST MATCH | ${where}${path}${skipped} <<<<<`
    : `----- ${where}${gap ? `${path}${skipped}` : ''} -----`;
}
