import type { FoldedPostings } from './folded-postings.js';

/**
 * The pieces of MaxScore (max-score.ts) that stand alone: a query term's postings and bound, the
 * galloping search its lookups use, a first threshold taken before the walk, and the order
 * exhaustive scoring first touches a section in (its tie-break).
 */

export interface PrunedTerm {
  /** The term's spellings' postings, in spelling order (their pseudo term frequencies add up). */
  lists: FoldedPostings[];
  weightedIdf: number;
  /** Its bit among the user's own terms, 0 for none. */
  bit: number;
}

/** Relative slack on every bound: sums in another order differ from the exact score in the last bits. */
export const SLACK = 1e-9;

/** The largest score `term` can add to a section (before slack). */
export function termBound(term: PrunedTerm, k1: number): number {
  let max = 0;
  for (const list of term.lists) max += list.max;
  return max > 0 ? term.weightedIdf * ((max * (k1 + 1)) / (max + k1)) : 0;
}

/** First index ≥ `from` whose section is ≥ `target`: a gallop, then bisection. */
export function advance(sections: Int32Array, from: number, target: number): number {
  const n = sections.length;
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < n && sections[hi]! < target) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, n);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sections[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `terms`' summed score at `section`, in query order as the accumulator adds it; `cursors` move forward. */
function scoreAt(terms: PrunedTerm[], cursors: Int32Array[], section: number, k1: number): number {
  let score = 0;
  for (let t = 0; t < terms.length; t++) {
    const { lists, weightedIdf } = terms[t]!;
    let f = 0;
    for (let l = 0; l < lists.length; l++) {
      const at = (cursors[t]![l] = advance(lists[l]!.sections, cursors[t]![l]!, section));
      if (at < lists[l]!.sections.length && lists[l]!.sections[at] === section) f += lists[l]!.tf[at]!;
    }
    if (f > 0) score += weightedIdf * ((f * (k1 + 1)) / (f + k1));
  }
  return score;
}

/**
 * A first threshold, so that the walk prunes from its first window: the sections of `top` (the
 * term with the highest bound, usually the rarest) scored over all terms, their k-th best score.
 * The k best of all sections score at least that, so nothing that could be among them is skipped.
 * Only when that term alone holds k sections, and its list is at most `maxLength` long (each of
 * its sections is looked up in every term): else −∞.
 */
export function warmUpFloor(terms: PrunedTerm[], top: PrunedTerm, k1: number, k: number, maxLength: number): number {
  if (top.lists.length !== 1 || top.lists[0]!.positives < k || top.lists[0]!.sections.length > maxLength) {
    return Number.NEGATIVE_INFINITY;
  }
  const { sections } = top.lists[0]!;
  const cursors = terms.map((t) => new Int32Array(t.lists.length));
  const scores = new Float64Array(sections.length);
  for (let i = 0; i < sections.length; i++) scores[i] = scoreAt(terms, cursors, sections[i]!, k1);
  scores.sort();
  // The k-th best, lowered by the slack: the exact scores add up in another order.
  return scores[scores.length - k]! * (1 - SLACK);
}
/**
 * Where exhaustive scoring first touches a section: the first query term that matches it, then
 * (for a term with other spellings, summed in a map filled spelling by spelling) the first
 * spelling holding it, then the section number.
 */
export function hitKey(term: number, spelling: number, spellings: number, section: number): number {
  return (term * spellings + spelling) * 2 ** 31 + section;
}
