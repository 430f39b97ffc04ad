import { Accumulator, type LexicalHits } from './lexical-accumulator.js';

/**
 * BM25F over three fields of a section: the document title, the section's heading path, and the
 * body. Written by hand because scoring needs what the BM25 libraries on npm don't expose
 * together: per-field weights with one saturation (BM25F), our identifier-aware tokenizer, a
 * compact serialisable form, and every matching section's score and query-term coverage (the
 * engine adds section scores up to a document's rank and labels relevance from coverage).
 */

export const LEXICAL_FIELDS = ['title', 'headings', 'body'] as const;
type LexicalField = (typeof LEXICAL_FIELDS)[number];
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

/** A term's postings: the sections holding it and its BM25F pseudo term frequency in each. */
interface Postings {
  sections: Int32Array;
  tf: Float64Array;
}

/**
 * The index as a few flat typed arrays (term t's postings are `sections`/`tf` from `offsets[t]`
 * to `offsets[t + 1]`), backed by SharedArrayBuffers so worker threads search one copy. Field
 * weights and length normalisation are folded into `tf` for the params it was built with.
 */
export interface CompactLexical {
  sectionCount: number;
  params: LexicalParams;
  /** Sorted, as in LexicalData. */
  terms: string[];
  offsets: Int32Array;
  sections: Int32Array;
  tf: Float64Array;
  bodyLengths: Int32Array;
}

function sharedArray<T extends Int32Array | Float64Array>(
  Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Kind(new SharedArrayBuffer(length * Kind.BYTES_PER_ELEMENT));
}

export function compactLexical(data: LexicalData, params: LexicalParams = DEFAULT_LEXICAL_PARAMS): CompactLexical {
  const mean = (xs: ArrayLike<number>) => {
    if (xs.length === 0) return 1;
    let sum = 0;
    for (let i = 0; i < xs.length; i++) sum += xs[i]!;
    return Math.max(1e-9, sum / xs.length);
  };
  const avg = { title: mean(data.lengths.title), headings: mean(data.lengths.headings), body: mean(data.lengths.body) };
  const { weights, b } = params;
  const { lengths } = data;
  const norm = (field: LexicalField, s: number) => 1 - b[field] + (b[field] * lengths[field][s]!) / avg[field];
  const total = data.postingSections.length;
  const offsets = sharedArray(Int32Array, data.terms.length + 1);
  offsets.set(data.termStart.subarray(0, data.terms.length + 1));
  const sections = sharedArray(Int32Array, total);
  sections.set(data.postingSections);
  // Field weights and length normalisation are fixed per index: fold them into one number per posting now.
  const tf = sharedArray(Float64Array, total);
  for (let at = 0; at < total; at++) {
    const s = sections[at]!;
    tf[at] =
      (weights.title * data.tf.title[at]!) / norm('title', s) +
      (weights.headings * data.tf.headings[at]!) / norm('headings', s) +
      (weights.body * data.tf.body[at]!) / norm('body', s);
  }
  const bodyLengths = sharedArray(Int32Array, data.sectionCount);
  bodyLengths.set(lengths.body.subarray(0, data.sectionCount));
  return { sectionCount: data.sectionCount, params, terms: data.terms, offsets, sections, tf, bodyLengths };
}

export class LexicalIndex {
  private readonly termIds = new Map<string, number>();
  private readonly compact: CompactLexical;
  private readonly acc: Accumulator;

  /** From the on-disk data (folded with `params`), or from a compact form built elsewhere (a worker's shared copy). */
  constructor(data: LexicalData | CompactLexical, params: LexicalParams = DEFAULT_LEXICAL_PARAMS) {
    this.compact = 'termStart' in data ? compactLexical(data, params) : data;
    this.compact.terms.forEach((term, t) => this.termIds.set(term, t));
    this.acc = new Accumulator(this.compact.sectionCount);
  }

  get sectionCount(): number {
    return this.compact.sectionCount;
  }

  /** The index's ids of a term and its other spellings, those it has (in that order). */
  private spellingIds(term: string, spellings: readonly string[] | undefined): number[] {
    const ids: number[] = [];
    for (const spelling of [term, ...(spellings ?? [])]) {
      const t = this.termIds.get(spelling);
      if (t !== undefined) ids.push(t);
    }
    return ids;
  }

  private postingsOf(t: number): Postings {
    const { offsets, sections, tf } = this.compact;
    return { sections: sections.subarray(offsets[t]!, offsets[t + 1]!), tf: tf.subarray(offsets[t]!, offsets[t + 1]!) };
  }

  /** Tokens in a section's body (its text without the heading line): 0 for a heading with nothing under it. */
  bodyLength(section: number): number {
    return this.compact.bodyLengths[section] ?? 0;
  }

  /** Number of sections containing the term. */
  documentFrequency(term: string): number {
    const t = this.termIds.get(term);
    return t === undefined ? 0 : this.compact.offsets[t + 1]! - this.compact.offsets[t]!;
  }

  idf(term: string): number {
    return this.idfOf(this.documentFrequency(term));
  }

  private idfOf(df: number): number {
    const n = this.compact.sectionCount;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Every term of the index. */
  vocabulary(): IterableIterator<string> {
    return this.termIds.keys();
  }

  hasTerm(term: string): boolean {
    return this.termIds.has(term);
  }

  /**
   * Scores every section that matches any query term; `query` maps term → weight. A term's
   * `variants` (other spellings of the same word: `admin` for `administrator`) count as that term:
   * their occurrences add to its term frequency and its IDF is that of all its spellings together
   * (an upper bound on the union), so a section that uses both spellings is not counted twice.
   */
  search(
    query: ReadonlyMap<string, number>,
    variants: ReadonlyMap<string, readonly string[]> = new Map(),
  ): LexicalHits {
    const { k1 } = this.compact.params;
    const acc = this.acc;
    const ownIdf: number[] = [];
    const ownTerms: string[] = [];
    let ownTermsFound = 0;
    let idfMass = 0;
    for (const [term, weight] of query) {
      const ids = this.spellingIds(term, variants.get(term));
      let df = 0;
      for (const t of ids) df += this.compact.offsets[t + 1]! - this.compact.offsets[t]!;
      const idf = this.idfOf(Math.min(this.compact.sectionCount, df));
      const bit = weight >= 1 && ownIdf.length < 31 ? 1 << ownIdf.length : 0;
      if (weight >= 1) {
        idfMass += idf;
        if (bit !== 0) {
          ownIdf.push(idf);
          ownTerms.push(term);
          if (df > 0) ownTermsFound |= bit;
        }
      }
      if (ids.length === 1) {
        const { offsets, sections, tf } = this.compact;
        acc.addPostings(sections, tf, offsets[ids[0]!]!, offsets[ids[0]! + 1]!, k1, weight * idf, bit);
      } else if (ids.length > 1) {
        const summed = new Map<number, number>();
        for (const t of ids) {
          const { sections, tf } = this.postingsOf(t);
          for (let i = 0; i < sections.length; i++) summed.set(sections[i]!, (summed.get(sections[i]!) ?? 0) + tf[i]!);
        }
        for (const [s, tf] of summed)
          if (tf > 0) acc.add(s, weight * idf * ((tf * (k1 + 1)) / (tf + k1)), weight * idf, bit);
      }
    }
    return {
      ...acc.collect(idfMass),
      ownTermShare: ownIdf.map((idf) => (idfMass > 0 ? idf / idfMass : 0)),
      ownTermsFound,
      ownTerms,
    };
  }
}
