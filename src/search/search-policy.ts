import type { LexicalParams } from '../index/lexical-data.js';
import type { FusionSettings } from '../index/manifest.js';

export type Retrieval = 'hybrid' | 'lexical' | 'vector';

/**
 * How a search ranks, apart from what the index's manifest records: the knobs benchmarks and
 * tuning turn (bench/quality/tune.ts) to compare variants. The shipped engine uses none (`{}`), and the
 * public API does not offer them.
 */
export interface SearchPolicy {
  /** Benchmarks compare approximate and exact vector search. */
  vectorSearch?: 'hnsw' | 'exact';
  retrieval?: Retrieval;
  /** Overrides of the manifest's fusion and BM25F settings (benchmarks, tuning). */
  fusion?: Partial<FusionSettings>;
  lexical?: Partial<LexicalParams>;
  /** Query rewrites: compounds, abbreviations, question filler (on unless a benchmark ablates them). */
  rewrites?: boolean;
  /** Misspelt query terms matched to the nearest index term (on unless a benchmark ablates it). */
  typoTolerance?: boolean;
  /** How many of a page's other strongly matching sections each result carries for excerpts (src/search/excerpts.ts); 0 for none. */
  excerptCandidates?: number;
  /** In a question, a section gains this × its parent section's fused score (src/search/parent-credit.ts); 0: off. */
  parentCredit?: number;
  /** Lexical candidates kept (by score) for cosines and fusion: MAX_LEXICAL_CANDIDATES unless tuning says otherwise. */
  lexicalCandidates?: number;
  /**
   * Whether the lexical stage finds those candidates by MaxScore pruning (src/index/max-score.ts:
   * the same results, fewer postings read) rather than by scoring every match: for queries with
   * long posting lists (shipped: LexicalIndex's threshold), for every query it can ('always',
   * what tests compare on small corpora), or never (false, what benchmarks compare against).
   */
  lexicalPruning?: boolean | 'always';
  /**
   * Whether a hybrid search also takes the vector graph's nearest sections as candidates. By
   * default only where they may be results on their own (the manifest's `vectorOnlyResults`: a
   * sentence model). A static model's neighbours changed no labelled answer
   * (bench/results/tuning.md), only added pages labelled "Moderate match" to narrow queries, and
   * the graph search was a quarter of a query's time; its cosines with the lexical candidates
   * remain the vector side's say.
   */
  graphCandidates?: boolean;
}

/**
 * Whether searches take the HNSW graph's own nearest-neighbour list (vector-only retrieval, or a
 * hybrid with graph candidates: SearchPolicy.graphCandidates). Only then is the graph loaded
 * into a search worker: a static model's hybrid search never reads it (~7 MB per worker).
 */
export function searchesGraph(fusion: FusionSettings, policy: SearchPolicy): boolean {
  const retrieval = policy.retrieval ?? 'hybrid';
  if (retrieval !== 'hybrid') return retrieval === 'vector';
  return policy.graphCandidates ?? fusion.vectorOnlyResults;
}

/** Whether a search embeds its text (what a pool embeds up front): all but lexical retrieval do. */
export function embedsQuery(policy: SearchPolicy): boolean {
  return policy.retrieval !== 'lexical';
}
