import type { SectionRole } from '../index/format.js';
import { MIN_ANSWER_TOKENS } from './best-section.js';

/**
 * A page's other strongly matching sections, for a response that cannot show the whole window
 * around the best one. A page often states its answer twice: in an introduction that explains an
 * option and again in an example or a reference entry further down. Ranking picks one of them as
 * the best section; when the budget narrows the window to a few sections around it, the other
 * can lie ten or more sections away, past what the window can grow to. The response may then
 * show it (src/mcp/render/select.ts) instead of non-matching neighbours.
 */

/** How many such sections a result carries (the response shows at most one or two of them). */
export const DEFAULT_EXCERPT_CANDIDATES = 3;

export interface ExcerptSettings {
  /** How many sections a result carries (0: none). */
  count: number;
}

export interface ExcerptFacts {
  /** Tokens in the body (heading line excluded). */
  bodyTokens: number;
  /** Fused score, 0 when the section was not a candidate. */
  score: number;
  /** IDF share of the query's own terms the section matched, [0, 1]. */
  match: number;
  /** Only content sections answer (src/index/format.ts); absent counts as content. */
  role?: SectionRole;
}

/**
 * Positions (indexes into `sections`, one page in order) of up to `count` sections other than
 * `best` that match the query, strongest first: most of the query matched, then the higher
 * score, then the earlier section. Sections too short to answer (a heading and a line), link
 * lists and empty sections are skipped, as are sections that match none of the query's own terms.
 */
export function strongestOtherSections(sections: readonly ExcerptFacts[], best: number, count: number): number[] {
  if (count <= 0) return [];
  const picked: number[] = [];
  // Among sections matching as much of the query the earlier comes first: a page introduces a term
  // before its examples repeat it (breaking ties by score instead was tried: bench/results/tuning.md).
  const stronger = (a: number, b: number) => sections[a]!.match - sections[b]!.match || b - a;
  for (let p = 0; p < sections.length; p++) {
    const s = sections[p]!;
    if (p === best || s.match <= 0 || s.bodyTokens < MIN_ANSWER_TOKENS || (s.role ?? 'content') !== 'content') continue;
    let at = picked.length;
    while (at > 0 && stronger(p, picked[at - 1]!) > 0) at--;
    if (at >= count) continue;
    picked.splice(at, 0, p);
    if (picked.length > count) picked.pop();
  }
  return picked;
}
