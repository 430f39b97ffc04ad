/**
 * The BM25F index's fields, settings and statistics as stored: plain types and constants, shared
 * by the indexer that builds them (build-lexical.ts), the files that hold them and the scorer
 * (lexical-index.ts).
 */

export const LEXICAL_FIELDS = ['title', 'headings', 'body'] as const;
export type LexicalField = (typeof LEXICAL_FIELDS)[number];
export type FieldTokens = Record<LexicalField, string[]>;

/** BM25F settings; their schema (manifest.ts) stays out of this module, which search workers import. */
export interface LexicalParams {
  k1: number;
  weights: Record<LexicalField, number>;
  b: Record<LexicalField, number>;
}

export const DEFAULT_LEXICAL_PARAMS: LexicalParams = {
  k1: 1.2,
  weights: { title: 2, headings: 3, body: 1 },
  // Sections are already bounded in length, so body length is normalised only lightly (b 0.4
  // beat 0.75 on both labelled sets: bench/results/tuning.md).
  b: { title: 0.5, headings: 0.5, body: 0.4 },
};

/**
 * A corpus's BM25F statistics, as the index file holds them (postings-file.ts): typed arrays that
 * may be views on one buffer per file, so a 1M-section index loads without a string or a number
 * array per posting. Built by build-lexical.ts.
 */
export interface LexicalData {
  sectionCount: number;
  /** Tokens per field of each section. */
  lengths: Record<LexicalField, Uint32Array>;
  /** Sorted; term t's postings are entries termStart[t] … termStart[t + 1] - 1. */
  terms: string[];
  termStart: Uint32Array;
  /** Per posting entry: the section (ascending within a term) and the term's count in each field. */
  postingSections: Int32Array;
  tf: Record<LexicalField, Uint16Array>;
}
