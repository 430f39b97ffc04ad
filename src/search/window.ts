/**
 * The context shown around a match: up to `radius` sections on each side of the best one, within
 * its own document, clamped at the document's ends (so at most 2 × radius + 1 sections).
 */
export const WINDOW_RADIUS = 15;

interface WindowRange {
  /** First and last section position in the document, inclusive. */
  from: number;
  to: number;
}

export function windowAround(best: number, sectionCount: number, radius: number = WINDOW_RADIUS): WindowRange {
  if (sectionCount <= 0 || best < 0 || best >= sectionCount) {
    throw new RangeError(`best section ${best} is outside a document of ${sectionCount} sections`);
  }
  return { from: Math.max(0, best - radius), to: Math.min(sectionCount - 1, best + radius) };
}
