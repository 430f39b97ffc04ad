import type { SectionRole } from '../index/format.js';
import type { KnowledgeBaseProfile } from '../index/corpus-profile.js';

/** The engine's answer to a query: what the MCP tool and the CLI render. */

/**
 * Strongest first. The SearchDocs contract names five labels; the two without stars are ordered so that their
 * names read in rank order too: a "Moderate match" is surer than a result only "Somewhat relevant".
 */
export const RELEVANCE_LABELS = [
  'Excellent match',
  'Very relevant',
  'Relevant',
  'Moderate match',
  'Somewhat relevant',
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
  /** This section's fused score over the best one's on its page, in [0, 1] (0: it did not match). */
  score: number;
  /** What the section is for: only `content` sections are answers (src/index/format.ts). */
  role: SectionRole;
  /** The page's opening, offered because the query names the page's topic (an excerpt only). */
  opening?: boolean;
}

export interface SearchResult {
  title: string;
  /** Knowledge-base name. */
  source: string;
  /** Document path within its knowledge base. */
  path: string;
  /** The published page's public URL, when its knowledge base declares one. */
  url?: string;
  relevance: Relevance;
  /** Fused score the ranking used (higher is better); comparable only within one index. */
  score: number;
  /** How sure the engine is that this result answers the query, [0, 1]; the label is a band of it. */
  confidence: number;
  /**
   * How much of the query (IDF share of its own terms) the page's title holds: a query that names
   * the page's topic wants the page's opening and setup, not only its best-scoring subsection.
   */
  titleMatch: number;
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
  /** Who asked (fair-share.ts): a search pool serves waiting searches in turn by client. Not part of ranking. */
  client?: string;
  /** Search this knowledge base only (its name as served); all of them when absent. */
  knowledgeBase?: string;
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
