import type { KnowledgeBaseProfile } from './corpus-profile.js';

/** The engine's answer to a query: what the MCP tool and the CLI render. */

export const RELEVANCE_LABELS = [
  'Excellent match',
  'Very relevant',
  'Relevant',
  'Somewhat relevant',
  'Moderate match',
] as const;
export type RelevanceLabel = (typeof RELEVANCE_LABELS)[number];

export interface Relevance {
  label: RelevanceLabel;
  /** 3, 2, 1, 0, 0 for the labels above, in that order. */
  stars: number;
}

export interface WindowSection {
  position: number;
  headings: string[];
  text: string;
  /** True for the section that matched best; exactly one per result. */
  isBest: boolean;
  /**
   * How much of the query this section matches, in [0, 1] (IDF share of the query's own terms):
   * what a response that cannot show the whole window keeps first.
   */
  match: number;
}

export interface SearchResult {
  title: string;
  /** Knowledge-base name. */
  source: string;
  /** Document path within its knowledge base. */
  path: string;
  relevance: Relevance;
  /** Fused score the ranking used (higher is better); comparable only within one index. */
  score: number;
  /** How sure the engine is that this result answers the query, [0, 1]; the label is a band of it. */
  confidence: number;
  /** Sections in the whole document (the window shows some of them). */
  documentSections: number;
  /** Consecutive sections of one document, at most 15 on each side of the best match. */
  sections: WindowSection[];
  /**
   * The page's other sections that match most of the query (strongest first, the best one left
   * out; they may lie inside the window or beyond it): what a response that cannot show the whole
   * window may show as separate excerpts. Absent or empty when none matches.
   */
  excerpts?: WindowSection[];
}

export interface SearchOptions {
  /** Maximum number of results (documents). */
  limit?: number;
}

export interface IndexSummary {
  /** What each knowledge base covers (for the tool description). */
  profiles: KnowledgeBaseProfile[];
  formatVersion: number;
  modelId: string;
  dimensions: number;
  documents: number;
  sections: number;
  knowledgeBases: string[];
  builtAt: string;
}

export interface SearchEngine {
  search(term: string, options?: SearchOptions): Promise<SearchResult[]>;
  summary(): IndexSummary;
}
