import type { StoredDocument } from '../index/format.js';
import type { LexicalParts } from '../index/postings-source.js';
import type { SectionStoreParts } from '../index/section-store.js';
import type { Manifest } from '../index/manifest.js';
import type { VectorMatrix } from '../index/vector-index.js';
import type { SearchResult, WindowSection } from './types.js';

/** What a searcher is given (index parts, an embed function) and what it hands back. */

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
  /** Each section's document and role, and where its headings are (a window's best section is chosen on them). */
  sections: SectionStoreParts;
  /** Each section's parent section, −1 for none (src/index/section-parents.ts). */
  parents: Int32Array;
  vectors: VectorMatrix;
  lexical: LexicalParts;
}

export type Embed = (texts: string[]) => Promise<Float32Array[]>;
