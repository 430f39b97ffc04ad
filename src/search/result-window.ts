import type { StoredDocument } from '../index/format.js';
import type { DocumentHit } from './fuse.js';
import type { RankedResult } from './searcher-types.js';
import type { SearchResult } from './types.js';

/** A ranked result's confidence, and its window filled in with headings and text from the index. */

/** What a window needs of the index: every document, and every section's headings and text. */
export interface WindowSource {
  readonly documents: readonly Pick<StoredDocument, 'firstSection'>[];
  readonly sections: readonly { headings: string[]; text: string }[];
}

export function withSections(ranked: RankedResult, index: WindowSource): SearchResult {
  const { doc, window, ...rest } = ranked;
  const first = index.documents[doc]!.firstSection;
  return {
    ...rest,
    sections: window.map((w) => {
      const s = index.sections[first + w.position]!;
      return { position: w.position, headings: s.headings, text: s.text, isBest: w.isBest, match: w.match };
    }),
  };
}

/**
 * How sure we are that a result answers the query, in [0, 1]: how much of the query its best
 * section matches (IDF-weighted, expansions at their weight), damped steeply for results scoring
 * below the top one (on the labelled sets a result at 90 % of the top score is relevant a quarter
 * of the time). Matches found by the vector side alone count as half-covered at best.
 */
export function confidence(hit: DocumentHit, topScore: number): number {
  const coverage = Math.max(hit.best.coverage, 0.5 * hit.best.vectorNorm * (hit.best.lexical > 0 ? 1 : 0.6));
  const rank = topScore > 0 ? Math.min(1, hit.score / topScore) : 0;
  return coverage * rank ** 4;
}
