import type { SectionRole } from '../index/format.js';

/**
 * Which section of a ranked page to centre its window on. Ranking picks the section with the
 * highest score, but that is not always a section that says something: a heading with nothing
 * under it ("## Configuration" followed by its subsections) can win on its heading words alone
 * while the answer sits in a subsection, and a "See also" list or a table of contents can win on
 * the link texts that name every topic of the page. The best match is a content section: the
 * best-scoring one under the ranked section, else the best-scoring one on the page. A pure
 * function of the page's sections and what the query matched in each.
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
  /** What the section is for (src/index/format.ts): only `content` answers. */
  role: SectionRole;
}

function isDescendant(child: readonly string[], parent: readonly string[]): boolean {
  return child.length > parent.length && parent.every((h, i) => child[i] === h);
}

/** A section that can answer: content with a body. */
export function answers(s: SectionFacts): boolean {
  return s.role === 'content' && s.bodyTokens >= MIN_ANSWER_TOKENS;
}

/** The highest-scoring answering section of `positions` (the first on a tie), or -1. */
function strongest(sections: readonly SectionFacts[], positions: Iterable<number>): number {
  let chosen = -1;
  for (const p of positions) {
    if (!answers(sections[p]!)) continue;
    if (chosen < 0 || sections[p]!.score > sections[chosen]!.score) chosen = p;
  }
  return chosen;
}

function* descendantsOf(sections: readonly SectionFacts[], parent: number): Generator<number> {
  for (let i = parent + 1; i < sections.length && isDescendant(sections[i]!.headings, sections[parent]!.headings); i++)
    yield i;
}

/**
 * `best` (an index into `sections`, one page in order) is kept when it answers, or when it is a
 * short content section with nothing under it (a one-line answer is still an answer); otherwise
 * its best-scoring answering descendant, else (for a navigation or empty section) the page's
 * best-scoring answering section that matched, else the first answering section after it;
 * `best` itself when the page has none.
 */
export function answeringSection(sections: readonly SectionFacts[], best: number): number {
  const ranked = sections[best];
  if (ranked === undefined || answers(ranked)) return best;
  const below = strongest(sections, descendantsOf(sections, best));
  if (below >= 0 || ranked.role === 'content') return below >= 0 ? below : best;
  const matched = [...sections.keys()].filter((p) => sections[p]!.score > 0);
  const onPage = strongest(sections, matched);
  if (onPage >= 0) return onPage;
  const after = sections.findIndex((s, p) => p > best && answers(s));
  return after >= 0 ? after : best;
}
