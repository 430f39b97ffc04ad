import type { MatchLookup } from './match-lookup.js';

/** What a lexical search returns: the matching sections with their scores and what of the query each matched. */
export interface LexicalHits {
  /**
   * Sections with any matching term, and their BM25F scores, unordered; or, when `lookup` is set
   * (a pruned search), only the best of them, best first.
   */
  sections: Int32Array;
  scores: Float64Array;
  /**
   * How much of the query the section answers, in [0, 1]: the IDF mass it matched (rewritten
   * terms and filler credited at their weight) over the IDF mass of the user's own terms (weight ≥ 1).
   */
  coverage: Float64Array;
  /** Which of the user's own terms (bit i = `ownTerms[i]`, the first 31) each section matched. */
  matched: Int32Array;
  /** The user's own terms' IDF share of the query, in query order: what a matched bit is worth. */
  ownTermShare: number[];
  /** The user's own terms (bit i as in `matched`) the index holds at all, in any spelling. */
  ownTermsFound: number;
  /** The user's own terms, in the order of their bits. */
  ownTerms: string[];
  /** Set when only the best sections were kept: what the user's own terms matched elsewhere. */
  lookup?: MatchLookup;
}

/**
 * A lexical search's per-query scratch (lexical-index.ts), reused: one slot per section, and the
 * list of sections touched, so a query allocates nothing per posting and clears only what it used.
 */
export class Accumulator {
  private readonly score: Float64Array;
  /** IDF mass of the query terms each section matched (rewrites and filler at their weight). */
  private readonly covered: Float64Array;
  /** The user's own terms each section matched, as LexicalHits.matched. */
  private readonly bits: Int32Array;
  private readonly seen: Uint8Array;
  private touched: Int32Array;
  private count = 0;

  constructor(size: number) {
    this.score = new Float64Array(size);
    this.covered = new Float64Array(size);
    this.bits = new Int32Array(size);
    this.seen = new Uint8Array(size);
    this.touched = new Int32Array(Math.min(size, 1024));
  }

  /** One section's share of a term (a term with other spellings: their frequencies summed first). */
  add(section: number, score: number, covered: number, bit: number): void {
    this.reserve(this.count + 1);
    if (this.seen[section] === 0) {
      this.seen[section] = 1;
      this.touched[this.count++] = section;
    }
    this.score[section]! += score;
    this.covered[section]! += covered;
    this.bits[section]! |= bit;
  }

  /**
   * Adds one term's postings: `weight` × BM25 saturation of each pseudo term frequency (as
   * `weightedIdf × ((tf × (k1 + 1)) / (tf + k1))`, the same doubles as scoring them one by one),
   * `weightedIdf` of coverage, and the term's bit. One loop over typed arrays: this is where a
   * query's lexical time goes.
   */
  addPostings(
    sections: Int32Array,
    tf: Float64Array,
    from: number,
    to: number,
    k1: number,
    weightedIdf: number,
    bit: number,
  ): void {
    this.reserve(this.count + (to - from));
    const { score, covered, bits, seen, touched } = this;
    const k1Plus1 = k1 + 1;
    let count = this.count;
    for (let at = from; at < to; at++) {
      const f = tf[at]!;
      if (!(f > 0)) continue;
      const s = sections[at]!;
      if (seen[s] === 0) {
        seen[s] = 1;
        touched[count++] = s;
      }
      score[s]! += weightedIdf * ((f * k1Plus1) / (f + k1));
      covered[s]! += weightedIdf;
      bits[s]! |= bit;
    }
    this.count = count;
  }

  /** Room in `touched` for `n` sections (never more than there are). */
  private reserve(n: number): void {
    if (n <= this.touched.length || this.touched.length === this.score.length) return;
    const grown = new Int32Array(Math.min(this.score.length, Math.max(n, this.touched.length * 2)));
    grown.set(this.touched.subarray(0, this.count));
    this.touched = grown;
  }

  /**
   * The touched sections' scores, coverage (covered IDF mass over `idfMass`, at most 1) and
   * matched bits, in the order they were first touched; clears the scratch for the next query.
   * The four columns share one buffer: one allocation per query instead of four.
   */
  collect(idfMass: number): Omit<LexicalHits, 'ownTermShare' | 'ownTermsFound' | 'ownTerms' | 'lookup'> {
    const n = this.count;
    const buffer = new ArrayBuffer(n * 24);
    const scores = new Float64Array(buffer, 0, n);
    const coverage = new Float64Array(buffer, 8 * n, n);
    const sections = new Int32Array(buffer, 16 * n, n);
    const matched = new Int32Array(buffer, 20 * n, n);
    for (let i = 0; i < n; i++) {
      const s = this.touched[i]!;
      sections[i] = s;
      scores[i] = this.score[s]!;
      coverage[i] = idfMass > 0 ? Math.min(1, this.covered[s]! / idfMass) : 0;
      matched[i] = this.bits[s]!;
      this.seen[s] = 0;
      this.score[s] = 0;
      this.covered[s] = 0;
      this.bits[s] = 0;
    }
    this.count = 0;
    return { sections, scores, coverage, matched };
  }
}
