import type { FusionSettings } from '../index/manifest.js';

/**
 * Weighted score fusion and document ranking, as pure functions.
 *
 * Why weighted and not reciprocal-rank fusion: RRF gives the vector list the same say as the
 * lexical one whatever its quality, and with a weak static model that halves quality (measured
 * on SciFact: BM25 0.68 nDCG@10, RRF with GloVe ≈0.4). A weighted sum of max-normalised lexical
 * score and min-max-normalised cosine lets a small vector weight break near-ties and add
 * candidates that share no word with the query, without overturning clear lexical evidence.
 */

export interface SectionEvidence {
  section: number;
  /** BM25F score, 0 when no query term matched. */
  lexical: number;
  /** IDF share of the user's own query terms the section matched, [0, 1]. */
  coverage: number;
  /** Cosine similarity between query and section vectors. */
  cosine: number;
  /** Bit set of the user's own query terms the section matched (see LexicalHits.matched). */
  matched: number;
}

/**
 * A query's candidate sections as columns, one slot per candidate: the evidence, then what
 * fusion makes of it. Reused from query to query (grown when needed), so ranking allocates
 * nothing per candidate.
 */
export class Candidates {
  count = 0;
  section = new Int32Array(0);
  lexical = new Float64Array(0);
  coverage = new Float64Array(0);
  cosine = new Float64Array(0);
  matched = new Int32Array(0);
  /** Lexical score / best lexical score, [0, 1]. */
  lexicalNorm = new Float64Array(0);
  /** Cosine min-max normalised over the candidates, [0, 1]. */
  vectorNorm = new Float64Array(0);
  score = new Float64Array(0);

  constructor(capacity = 256) {
    this.grow(capacity);
  }

  /** Appends a candidate; returns its slot. */
  add(section: number, lexical: number, coverage: number, cosine: number, matched: number): number {
    if (this.count === this.section.length) this.grow(this.count * 2);
    const i = this.count++;
    this.section[i] = section;
    this.lexical[i] = lexical;
    this.coverage[i] = coverage;
    this.cosine[i] = cosine;
    this.matched[i] = matched;
    return i;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(capacity: number): void {
    const grown = <T extends Int32Array | Float64Array>(old: T, Kind: new (n: number) => T): T => {
      const next = new Kind(Math.max(capacity, 16));
      next.set(old.subarray(0, this.count));
      return next;
    };
    this.section = grown(this.section, Int32Array);
    this.lexical = grown(this.lexical, Float64Array);
    this.coverage = grown(this.coverage, Float64Array);
    this.cosine = grown(this.cosine, Float64Array);
    this.matched = grown(this.matched, Int32Array);
    this.lexicalNorm = grown(this.lexicalNorm, Float64Array);
    this.vectorNorm = grown(this.vectorNorm, Float64Array);
    this.score = grown(this.score, Float64Array);
  }

  static of(evidence: readonly SectionEvidence[]): Candidates {
    const c = new Candidates(evidence.length);
    for (const e of evidence) c.add(e.section, e.lexical, e.coverage, e.cosine, e.matched);
    return c;
  }
}

/** Fills each candidate's `lexicalNorm`, `vectorNorm` and `score`. */
export function fuseSections(c: Candidates, vectorWeight: number): void {
  let maxLex = 0;
  let minCos = Infinity;
  let maxCos = -Infinity;
  for (let i = 0; i < c.count; i++) {
    maxLex = Math.max(maxLex, c.lexical[i]!);
    minCos = Math.min(minCos, c.cosine[i]!);
    maxCos = Math.max(maxCos, c.cosine[i]!);
  }
  const cosRange = maxCos - minCos;
  // With no lexical evidence at all, the vector side is all there is.
  const w = maxLex > 0 ? vectorWeight : 1;
  for (let i = 0; i < c.count; i++) {
    const lexicalNorm = maxLex > 0 ? c.lexical[i]! / maxLex : 0;
    const vectorNorm = cosRange > 1e-9 ? (c.cosine[i]! - minCos) / cosRange : 0;
    c.lexicalNorm[i] = lexicalNorm;
    c.vectorNorm[i] = vectorNorm;
    c.score[i] = (1 - w) * lexicalNorm + w * vectorNorm;
  }
}

/**
 * Fusion settings by the model's strength, recorded in the manifest at build time. A static
 * word-vector model gets a small vector weight (it can break ties, never overrule BM25); a
 * sentence model earns a larger say and expands queries with its nearest corpus words. Chosen on
 * the tuning halves of the labelled query sets (bench/results/tuning.md).
 */
export function defaultFusionSettings(staticModel: boolean): FusionSettings {
  return {
    method: 'weighted',
    vectorWeight: staticModel ? 0.1 : 0.35,
    vectorCandidates: 100,
    // A static model's nearest neighbours for a query with no lexical match are noise.
    vectorOnlyResults: !staticModel,
    documentSupportWeight: 0.2,
    documentBreadthWeight: 0.3,
  };
}
