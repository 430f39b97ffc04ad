/**
 * Which section of a ranked page to centre its window on. Ranking picks the section with the
 * highest score, but a heading with nothing under it ("## Configuration" followed by its
 * subsections) can win on its heading words alone while the answer sits in a subsection; the
 * subsection's heading path repeats the parent's words, so it carries the same match plus a body.
 * A pure function of the page's sections and what the query matched in each.
 */

/** Below this many body tokens a section is a heading and a line of lead-in, not an answer. */
export const MIN_ANSWER_TOKENS = 8;

export interface SectionFacts {
  /** Heading path, outermost first. */
  headings: readonly string[];
  /** Tokens in the body (heading line excluded). */
  bodyTokens: number;
  /** Fused score, 0 when the section did not match. */
  score: number;
}

function isDescendant(child: readonly string[], parent: readonly string[]): boolean {
  return child.length > parent.length && parent.every((h, i) => child[i] === h);
}

/**
 * `best` (an index into `sections`, one page in order) is kept unless it is too short to answer
 * and has descendants: then the best-scoring descendant wins, or the first one if none matched.
 */
export function answeringSection(sections: readonly SectionFacts[], best: number): number {
  const parent = sections[best];
  if (parent === undefined || parent.bodyTokens >= MIN_ANSWER_TOKENS) return best;
  let chosen = -1;
  for (let i = best + 1; i < sections.length && isDescendant(sections[i]!.headings, parent.headings); i++) {
    if (chosen < 0 || sections[i]!.score > sections[chosen]!.score) chosen = i;
  }
  return chosen < 0 ? best : chosen;
}
