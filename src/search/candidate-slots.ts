import type { LexicalHits } from '../index/lexical-accumulator.js';
import type { VectorHits, VectorMatrix } from '../index/vector-index.js';
import { cosinesOf } from './cosines.js';
import type { Candidates } from './fuse.js';
import { ScoreOrder } from './score-order.js';

/**
 * Filling the candidate columns from both retrievers. `slotOf` maps a section to its candidate
 * slot + 1 (0 for none), so the vector side can find a section the lexical side already added.
 */

/** The lexical stage's answer when it does not run (vector-only retrieval). */
export const NO_HITS: LexicalHits = {
  sections: new Int32Array(0),
  scores: new Float64Array(0),
  coverage: new Float64Array(0),
  matched: new Int32Array(0),
  ownTermShare: [],
  ownTermsFound: 0,
  ownTerms: [],
};

/** The vector side's answer when the graph is not searched (see SearchPolicy.graphCandidates). */
export const NO_NEIGHBOURS: VectorHits = { ids: [], scores: [] };

/** Lexical candidates beyond this many (by score) cannot reach the top results; skip their cosine. */
export const MAX_LEXICAL_CANDIDATES = 2000;

/** Fills a query's candidates, with scratch arrays reused from query to query (one filler per searcher). */
export class CandidateFiller {
  private readonly byScore = new ScoreOrder();
  /** By slot: whether the vector search gave the candidate its cosine. */
  private hasCosine = new Uint8Array(0);
  /** Sections of the lexical candidates still without a cosine, and their cosines once computed. */
  private unscored = new Int32Array(0);
  private cosines = new Float64Array(0);

  /**
   * Adds the lexical hits as candidates: all of them in hit order, or the best `max` by score,
   * highest first (equal scores in hit order).
   */
  addLexical(c: Candidates, slotOf: Int32Array, hits: LexicalHits, max = MAX_LEXICAL_CANDIDATES): void {
    const n = hits.sections.length;
    const add = (i: number) =>
      (slotOf[hits.sections[i]!] =
        c.add(hits.sections[i]!, hits.scores[i]!, hits.coverage[i]!, 0, hits.matched[i]!) + 1);
    if (n <= max) {
      for (let i = 0; i < n; i++) add(i);
    } else {
      const order = this.byScore.descending(hits.scores, n);
      for (let k = 0; k < max; k++) add(order[k]!);
    }
  }

  /** Adds each candidate's cosine, and the vector side's own nearest sections (`near`) as new candidates. */
  addVector(c: Candidates, slotOf: Int32Array, near: VectorHits, vectors: VectorMatrix, query: Float32Array): void {
    const lexicalCount = c.count;
    this.reserve(lexicalCount);
    const hasCosine = this.hasCosine;
    hasCosine.fill(0, 0, lexicalCount);
    for (let i = 0; i < near.ids.length; i++) {
      const section = near.ids[i]!;
      const slot = slotOf[section]! - 1;
      if (slot >= 0) {
        c.cosine[slot] = near.scores[i]!;
        hasCosine[slot] = 1;
      } else {
        slotOf[section] = c.add(section, 0, 0, near.scores[i]!, 0) + 1;
      }
    }
    // Lexical candidates the vector search did not return still get their true cosine.
    let count = 0;
    for (let slot = 0; slot < lexicalCount; slot++)
      if (hasCosine[slot] === 0) this.unscored[count++] = c.section[slot]!;
    cosinesOf(vectors, query, this.unscored, count, this.cosines);
    count = 0;
    for (let slot = 0; slot < lexicalCount; slot++) if (hasCosine[slot] === 0) c.cosine[slot] = this.cosines[count++]!;
  }

  private reserve(n: number): void {
    if (this.hasCosine.length >= n) return;
    const size = Math.max(n, 2 * this.hasCosine.length, 64);
    this.hasCosine = new Uint8Array(size);
    this.unscored = new Int32Array(size);
    this.cosines = new Float64Array(size);
  }
}
