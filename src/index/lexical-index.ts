/**
 * BM25F over three fields of a section: the document title, the section's heading path, and the
 * body. Written by hand because scoring needs what the BM25 libraries on npm don't expose
 * together: per-field weights with one saturation (BM25F), our identifier-aware tokenizer, a
 * compact serialisable form, and every matching section's score and query-term coverage (the
 * engine adds section scores up to a document's rank and labels relevance from coverage).
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

export interface LexicalHits {
  /** Sections with any matching term, and their BM25F scores, unordered. */
  sections: Int32Array;
  scores: Float64Array;
  /**
   * How much of the query the section answers, in [0, 1]: the IDF mass it matched (expansion
   * terms credited at their weight) over the IDF mass of the user's own terms (weight ≥ 1).
   */
  coverage: Float64Array;
  /** Which of the user's own terms (bit i = `ownTerms[i]`, the first 31) each section matched. */
  matched: Int32Array;
  /** The user's own terms' IDF share of the query, in query order: what a matched bit is worth. */
  ownTermShare: number[];
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

/**
 * Per-query scratch space, reused: one slot per section, and the list of sections touched, so a
 * query allocates nothing per candidate and clears only what it used.
 */
class Accumulator {
  readonly score: Float64Array;
  readonly covered: Float64Array;
  readonly bits: Int32Array;
  readonly seen: Uint8Array;
  touched: Int32Array;
  count = 0;

  constructor(size: number) {
    this.score = new Float64Array(size);
    this.covered = new Float64Array(size);
    this.bits = new Int32Array(size);
    this.seen = new Uint8Array(size);
    this.touched = new Int32Array(Math.min(size, 1024));
  }

  add(section: number, score: number, covered: number, bit: number): void {
    if (this.seen[section] === 0) {
      this.seen[section] = 1;
      if (this.count === this.touched.length) {
        const grown = new Int32Array(Math.min(this.score.length, this.touched.length * 2));
        grown.set(this.touched);
        this.touched = grown;
      }
      this.touched[this.count++] = section;
    }
    this.score[section]! += score;
    this.covered[section]! += covered;
    this.bits[section]! |= bit;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) {
      const s = this.touched[i]!;
      this.seen[s] = 0;
      this.score[s] = 0;
      this.covered[s] = 0;
      this.bits[s] = 0;
    }
    this.count = 0;
  }
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

  private postings(term: string): Postings | undefined {
    const t = this.termIds.get(term);
    if (t === undefined) return undefined;
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
    let idfMass = 0;
    for (const [term, weight] of query) {
      const lists = [term, ...(variants.get(term) ?? [])].map((t) => this.postings(t)).filter((p) => p !== undefined);
      const idf = this.idfOf(
        Math.min(
          this.compact.sectionCount,
          lists.reduce((sum, p) => sum + p.sections.length, 0),
        ),
      );
      const bit = weight >= 1 && ownIdf.length < 31 ? 1 << ownIdf.length : 0;
      if (weight >= 1) {
        idfMass += idf;
        if (bit !== 0) ownIdf.push(idf);
      }
      const saturated = (tf: number) => weight * idf * ((tf * (k1 + 1)) / (tf + k1));
      if (lists.length === 1) {
        const { sections, tf } = lists[0]!;
        for (let i = 0; i < sections.length; i++)
          if (tf[i]! > 0) acc.add(sections[i]!, saturated(tf[i]!), weight * idf, bit);
      } else if (lists.length > 1) {
        const summed = new Map<number, number>();
        for (const { sections, tf } of lists)
          for (let i = 0; i < sections.length; i++) summed.set(sections[i]!, (summed.get(sections[i]!) ?? 0) + tf[i]!);
        for (const [s, tf] of summed) if (tf > 0) acc.add(s, saturated(tf), weight * idf, bit);
      }
    }
    const n = acc.count;
    const sections = acc.touched.slice(0, n);
    const scores = new Float64Array(n);
    const coverage = new Float64Array(n);
    const matched = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const s = sections[i]!;
      scores[i] = acc.score[s]!;
      coverage[i] = idfMass > 0 ? Math.min(1, acc.covered[s]! / idfMass) : 0;
      matched[i] = acc.bits[s]!;
    }
    acc.clear();
    return {
      sections,
      scores,
      coverage,
      matched,
      ownTermShare: ownIdf.map((idf) => (idfMass > 0 ? idf / idfMass : 0)),
    };
  }
}
