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

export interface ScoredSection extends SectionEvidence {
  /** Lexical score / best lexical score, [0, 1]. */
  lexicalNorm: number;
  /** Cosine min-max normalised over the candidates, [0, 1]. */
  vectorNorm: number;
  score: number;
}

export function fuseSections(evidence: readonly SectionEvidence[], vectorWeight: number): ScoredSection[] {
  let maxLex = 0;
  let minCos = Infinity;
  let maxCos = -Infinity;
  for (const e of evidence) {
    maxLex = Math.max(maxLex, e.lexical);
    minCos = Math.min(minCos, e.cosine);
    maxCos = Math.max(maxCos, e.cosine);
  }
  const cosRange = maxCos - minCos;
  // With no lexical evidence at all, the vector side is all there is.
  const w = maxLex > 0 ? vectorWeight : 1;
  return evidence.map((e) => {
    const lexicalNorm = maxLex > 0 ? e.lexical / maxLex : 0;
    const vectorNorm = cosRange > 1e-9 ? (e.cosine - minCos) / cosRange : 0;
    return { ...e, lexicalNorm, vectorNorm, score: (1 - w) * lexicalNorm + w * vectorNorm };
  });
}

/** Reciprocal-rank fusion over the lexical and the vector ranking (the benchmark's alternative). */
export function fuseReciprocalRank(evidence: readonly SectionEvidence[], k = 60): ScoredSection[] {
  const rankBy = (key: (e: SectionEvidence) => number, keep: (e: SectionEvidence) => boolean) => {
    const ranks = new Map<number, number>();
    [...evidence].filter(keep).sort((a, b) => key(b) - key(a)).forEach((e, i) => ranks.set(e.section, i + 1));
    return ranks;
  };
  const lexRank = rankBy((e) => e.lexical, (e) => e.lexical > 0);
  const vecRank = rankBy((e) => e.cosine, () => true);
  const top = 2 / (k + 1);
  const base = fuseSections(evidence, 0);
  return base.map((e) => {
    const l = lexRank.get(e.section);
    const v = vecRank.get(e.section);
    return { ...e, score: ((l ? 1 / (k + l) : 0) + (v ? 1 / (k + v) : 0)) / top };
  });
}

export interface Breadth {
  weight: number;
  /** Each own query term's IDF share, by bit of `matched`. */
  termShare: readonly number[];
  /** Terms matched per document by sections beyond the candidates ranked here, if any were cut. */
  matchedByDoc?: ReadonlyMap<number, number>;
}

export interface DocumentHit {
  doc: number;
  best: ScoredSection;
  score: number;
}

/**
 * One hit per document: its best section's score plus `supportWeight` × the mean of its next two
 * best sections, so a page that treats the topic in several sections edges out a page that
 * mentions it once, without long pages winning on length alone; plus its breadth: how much of the
 * query (IDF share of the user's own terms) the page matches across all its sections. A long
 * question's words are often spread over a page's title, intro and the section that answers; a
 * page that matches them all is the better answer than one that repeats one of them (on the Argo
 * CD set: paraphrased questions 0.459 → 0.482 nDCG@10, symptoms 0.885 → 0.916).
 */
export function rankDocuments(
  sections: readonly ScoredSection[],
  docOf: (section: number) => number,
  supportWeight: number,
  limit: number,
  /** `weight` × the share of the query's own terms (`termShare`, by bit) a document matches anywhere. */
  breadth: Breadth = { weight: 0, termShare: [] },
): DocumentHit[] {
  const byDoc = new Map<number, ScoredSection[]>();
  for (const s of sections) {
    if (s.score <= 0) continue;
    const doc = docOf(s.section);
    let list = byDoc.get(doc);
    if (!list) byDoc.set(doc, (list = []));
    list.push(s);
  }
  const hits: DocumentHit[] = [];
  for (const [doc, list] of byDoc) {
    list.sort((a, b) => b.score - a.score || a.section - b.section);
    const best = list[0]!;
    const support = list.slice(1, 3);
    const supportMean = support.length === 0 ? 0 : support.reduce((a, s) => a + s.score, 0) / 2;
    let union = breadth.matchedByDoc?.get(doc) ?? 0;
    for (const s of list) union |= s.matched;
    let covered = 0;
    breadth.termShare.forEach((share, i) => {
      if (union & (1 << i)) covered += share;
    });
    hits.push({ doc, best, score: best.score + supportWeight * supportMean + breadth.weight * covered });
  }
  hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return hits.slice(0, limit);
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
