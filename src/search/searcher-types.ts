import type { Embedder } from '../embedding/types.js';
import type { StoredDocument } from '../index/format.js';
import type { CompactLexical, LexicalData, LexicalParams } from '../index/lexical-index.js';
import type { FusionSettings, Manifest } from '../index/manifest.js';
import type { VectorMatrix } from '../index/vector-index.js';
import type { ExcerptTie } from './excerpts.js';
import type { SearchResult, WindowSection } from './types.js';

/** What a searcher is given (options, index parts, an embed function) and what it hands back. */

export type Retrieval = 'hybrid' | 'lexical' | 'vector';

export interface EngineOptions {
  /** An embedder already loaded (tests, benchmarks, reload); otherwise the manifest's model is loaded. */
  embedder?: Embedder;
  /** The model the caller expects; a different one in the manifest is an error. */
  model?: string;
  allowRemoteModels?: boolean;
  /** The cache folder the model is looked up in (the default model's, downloaded ones'); default: the svc-docs folder's. */
  cacheDir?: string;
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
  /** Among excerpt candidates matching as much of the query: the earlier section first (shipped), or the higher-scoring. */
  excerptTie?: ExcerptTie;
  /** In a question, a section gains this × its parent section's fused score (src/search/parent-credit.ts); 0: off. */
  parentCredit?: number;
  /** Which queries parent credit applies to: questions of six terms or more (shipped), or all. */
  parentCreditQueries?: 'questions' | 'all';
  /** Lexical candidates kept (by score) for cosines and fusion: MAX_LEXICAL_CANDIDATES unless tuning says otherwise. */
  lexicalCandidates?: number;
  /**
   * Whether a hybrid search also takes the vector graph's nearest sections as candidates. By
   * default only where they may be results on their own (the manifest's `vectorOnlyResults`: a
   * sentence model) or where fusion ranks the vector list itself (RRF). A static model's
   * neighbours changed no labelled answer (bench/results/tuning.md), only added pages labelled
   * "Moderate match" to narrow queries, and the graph search was a quarter of a query's time;
   * its cosines with the lexical candidates remain the vector side's say.
   */
  graphCandidates?: boolean;
}

export interface StageTimings {
  embedMs: number;
  lexicalMs: number;
  vectorMs: number;
  fuseMs: number;
  windowMs: number;
}

export interface DetailedSearch<R = SearchResult> {
  results: R[];
  timings: StageTimings;
  /** Terms the query was expanded with. */
  expansions: { word: string; term: string; similarity: number }[];
  /** Query terms the index lacks, and the index term each was taken for. */
  corrections: { term: string; correction: string }[];
  /** Each result's confidence (what its label is a band of), for calibration. */
  confidences: number[];
}

/** A result before its window's headings and text are filled in: what a search worker sends back. */
export interface RankedResult extends Omit<SearchResult, 'sections' | 'excerpts'> {
  doc: number;
  window: Omit<WindowSection, 'headings' | 'text'>[];
  /** Positions of excerpt sections, as `window` (see SearchResult.excerpts). */
  excerpts?: Omit<WindowSection, 'headings' | 'text'>[];
}

/** Everything a search needs of an index, in the form a worker thread can be handed (big arrays shared). */
export interface SearchParts {
  manifest: Manifest;
  documents: readonly StoredDocument[];
  /** Each section's heading path (a window's best section is chosen on it). */
  headings: readonly (readonly string[])[];
  /** Each section's role, as its index in SECTION_ROLES (src/index/format.ts). */
  roles: Uint8Array;
  sectionDoc: Int32Array;
  vectors: VectorMatrix;
  expansion: { terms: string[]; vectors: VectorMatrix };
  lexical: LexicalData | CompactLexical;
}

export type Embed = (texts: string[]) => Promise<Float32Array[]>;

/**
 * Whether searches take the HNSW graph's own nearest-neighbour list (vector-only retrieval, or a
 * hybrid with graph candidates: EngineOptions.graphCandidates). Only then is the graph loaded
 * into a search worker: a static model's hybrid search never reads it (~7 MB per worker).
 */
export function searchesGraph(fusion: FusionSettings, options: EngineOptions): boolean {
  const retrieval = options.retrieval ?? 'hybrid';
  if (retrieval !== 'hybrid') return retrieval === 'vector';
  return options.graphCandidates ?? (fusion.vectorOnlyResults || fusion.method === 'rrf');
}

/** Whether a search embeds exactly its own text and nothing else (no query expansion): what a pool can embed up front. */
export function embedsQueryOnly(fusion: FusionSettings, options: EngineOptions): boolean {
  const retrieval = options.retrieval ?? 'hybrid';
  return retrieval !== 'lexical' && !(retrieval === 'hybrid' && fusion.expansionTerms > 0);
}
