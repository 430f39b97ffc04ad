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

/** Reciprocal-rank fusion over the lexical and the vector ranking (the benchmark's alternative). */
export function fuseReciprocalRank(c: Candidates, k = 60): void {
  // Ranks by a column, best first; ties keep candidate order (a stable sort).
  const rankBy = (key: Float64Array, keep: (i: number) => boolean) => {
    const ranks = new Int32Array(c.count);
    const order = Array.from({ length: c.count }, (_, i) => i).filter(keep);
    order.sort((a, b) => key[b]! - key[a]!).forEach((slot, r) => (ranks[slot] = r + 1));
    return ranks;
  };
  const lexRank = rankBy(c.lexical, (i) => c.lexical[i]! > 0);
  const vecRank = rankBy(c.cosine, () => true);
  const top = 2 / (k + 1);
  fuseSections(c, 0);
  for (let i = 0; i < c.count; i++) {
    const l = lexRank[i]!;
    const v = vecRank[i]!;
    c.score[i] = ((l ? 1 / (k + l) : 0) + (v ? 1 / (k + v) : 0)) / top;
  }
}

export interface Breadth {
  weight: number;
  /** Each own query term's IDF share, by bit of `matched`. */
  termShare: readonly number[];
  /** Terms matched per document by sections beyond the candidates ranked here (by document), if any were cut. */
  matchedByDoc?: (doc: number) => number;
}

/** A ranked document's best section, copied out of the candidates. */
export interface BestSection {
  section: number;
  lexical: number;
  coverage: number;
  vectorNorm: number;
  score: number;
}

export interface DocumentHit {
  doc: number;
  best: BestSection;
  score: number;
}

/** Per document, its three best candidate slots: what ranking needs, kept in reusable arrays. */
export class DocumentRanker {
  private readonly top: Int32Array;
  private readonly union: Int32Array;
  private readonly seen: Uint8Array;
  private touched: Int32Array;

  constructor(documents: number) {
    this.top = new Int32Array(documents * 3).fill(-1);
    this.union = new Int32Array(documents);
    this.seen = new Uint8Array(documents);
    this.touched = new Int32Array(64);
  }

  /**
   * One hit per document: its best section's score plus `supportWeight` × the mean of its next
   * two best sections, so a page that treats the topic in several sections edges out a page that
   * mentions it once, without long pages winning on length alone; plus its breadth: how much of
   * the query (IDF share of the user's own terms) the page matches across all its sections. A
   * long question's words are often spread over a page's title, intro and the section that
   * answers; a page that matches them all is the better answer than one that repeats one of them
   * (on the Argo CD set: paraphrased questions 0.459 → 0.482 nDCG@10, symptoms 0.885 → 0.916).
   */
  rank(
    c: Candidates,
    docOf: (section: number) => number,
    supportWeight: number,
    limit: number,
    /** `weight` × the share of the query's own terms (`termShare`, by bit) a document matches anywhere. */
    breadth: Breadth = { weight: 0, termShare: [] },
  ): DocumentHit[] {
    const { top, union, seen } = this;
    // Better: higher score, then the earlier section.
    const better = (a: number, b: number) =>
      c.score[a]! > c.score[b]! || (c.score[a] === c.score[b] && c.section[a]! < c.section[b]!);
    let docs = 0;
    for (let i = 0; i < c.count; i++) {
      if (c.score[i]! <= 0) continue;
      const doc = docOf(c.section[i]!);
      if (seen[doc] === 0) {
        seen[doc] = 1;
        if (docs === this.touched.length) {
          const grown = new Int32Array(docs * 2);
          grown.set(this.touched);
          this.touched = grown;
        }
        this.touched[docs++] = doc;
      }
      union[doc]! |= c.matched[i]!;
      const t = 3 * doc;
      if (top[t]! < 0 || better(i, top[t]!)) {
        top[t + 2] = top[t + 1]!;
        top[t + 1] = top[t]!;
        top[t] = i;
      } else if (top[t + 1]! < 0 || better(i, top[t + 1]!)) {
        top[t + 2] = top[t + 1]!;
        top[t + 1] = i;
      } else if (top[t + 2]! < 0 || better(i, top[t + 2]!)) {
        top[t + 2] = i;
      }
    }
    const docScore = new Float64Array(docs);
    for (let d = 0; d < docs; d++) {
      const doc = this.touched[d]!;
      const t = 3 * doc;
      const second = top[t + 1]!;
      const third = top[t + 2]!;
      const supportSum = second < 0 ? 0 : third < 0 ? 0 + c.score[second]! : 0 + c.score[second]! + c.score[third]!;
      const supportMean = second < 0 ? 0 : supportSum / 2;
      const matched = (breadth.matchedByDoc?.(doc) ?? 0) | union[doc]!;
      let covered = 0;
      for (let bit = 0; bit < breadth.termShare.length; bit++)
        if (matched & (1 << bit)) covered += breadth.termShare[bit]!;
      docScore[d] = c.score[top[t]!]! + supportWeight * supportMean + breadth.weight * covered;
    }
    const order = Array.from({ length: docs }, (_, d) => d).sort(
      (a, b) => docScore[b]! - docScore[a]! || this.touched[a]! - this.touched[b]!,
    );
    const hits: DocumentHit[] = [];
    for (const d of order.slice(0, limit)) {
      const doc = this.touched[d]!;
      const b = top[3 * doc]!;
      hits.push({
        doc,
        best: {
          section: c.section[b]!,
          lexical: c.lexical[b]!,
          coverage: c.coverage[b]!,
          vectorNorm: c.vectorNorm[b]!,
          score: c.score[b]!,
        },
        score: docScore[d]!,
      });
    }
    for (let d = 0; d < docs; d++) {
      const doc = this.touched[d]!;
      seen[doc] = 0;
      union[doc] = 0;
      top.fill(-1, 3 * doc, 3 * doc + 3);
    }
    return hits;
  }
}

/** rankDocuments for one call (tests, benchmarks): a ranker sized to the documents `docOf` names. */
export function rankDocuments(
  c: Candidates,
  docOf: (section: number) => number,
  supportWeight: number,
  limit: number,
  breadth?: Breadth,
): DocumentHit[] {
  let documents = 0;
  for (let i = 0; i < c.count; i++) documents = Math.max(documents, docOf(c.section[i]!) + 1);
  return new DocumentRanker(documents).rank(c, docOf, supportWeight, limit, breadth);
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
    // Measured on the tuning halves of all three labelled sets, a static model's neighbours
    // changed no first result and one top-five answer in 132 queries (bench/results/tuning.md),
    // while the per-query scan of the vocabulary cost a fifth of the server's CPU: off.
    expansionTerms: staticModel ? 0 : 2,
    expansionWeight: staticModel ? 0.3 : 0.2,
    expansionMinSimilarity: staticModel ? 0.6 : 0.8,
    // A static model's nearest neighbours for a query with no lexical match are noise.
    vectorOnlyResults: !staticModel,
    documentSupportWeight: 0.2,
    documentBreadthWeight: 0.3,
  };
}
