import { z } from 'zod';

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

export const lexicalParamsSchema = z.object({
  k1: z.number().positive(),
  weights: z.object({ title: z.number().nonnegative(), headings: z.number().nonnegative(), body: z.number().nonnegative() }),
  b: z.object({ title: z.number().min(0).max(1), headings: z.number().min(0).max(1), body: z.number().min(0).max(1) }),
});
export type LexicalParams = z.infer<typeof lexicalParamsSchema>;

export const DEFAULT_LEXICAL_PARAMS: LexicalParams = {
  k1: 1.2,
  weights: { title: 2, headings: 3, body: 1 },
  // Sections are already bounded in length, so body length is normalised only lightly (b 0.4
  // beat 0.75 on both labelled sets: bench/results/tuning.md).
  b: { title: 0.5, headings: 0.5, body: 0.4 },
};

/** On-disk form: per term, a flat list of [section, tf(title), tf(headings), tf(body)] quads. */
export const lexicalDataSchema = z.object({
  sectionCount: z.number().int().nonnegative(),
  lengths: z.object({ title: z.array(z.number()), headings: z.array(z.number()), body: z.array(z.number()) }),
  terms: z.array(z.string()),
  postings: z.array(z.array(z.number().int().nonnegative())),
});
export type LexicalData = z.infer<typeof lexicalDataSchema>;

export function buildLexicalData(sections: FieldTokens[]): LexicalData {
  const byTerm = new Map<string, number[]>();
  const lengths = { title: [] as number[], headings: [] as number[], body: [] as number[] };
  sections.forEach((fields, sectionId) => {
    const counts = new Map<string, [number, number, number]>();
    LEXICAL_FIELDS.forEach((field, f) => {
      lengths[field].push(fields[field].length);
      for (const term of fields[field]) {
        let c = counts.get(term);
        if (!c) counts.set(term, (c = [0, 0, 0]));
        c[f]! += 1;
      }
    });
    for (const [term, [t, h, b]] of counts) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = []));
      list.push(sectionId, t, h, b);
    }
  });
  const terms = [...byTerm.keys()].sort();
  return { sectionCount: sections.length, lengths, terms, postings: terms.map((t) => byTerm.get(t)!) };
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

export class LexicalIndex {
  private readonly postings = new Map<string, Int32Array>();
  private readonly avg: Record<LexicalField, number>;

  constructor(
    private readonly data: LexicalData,
    private readonly params: LexicalParams = DEFAULT_LEXICAL_PARAMS,
  ) {
    data.terms.forEach((term, i) => this.postings.set(term, Int32Array.from(data.postings[i]!)));
    const mean = (xs: number[]) => (xs.length === 0 ? 1 : Math.max(1e-9, xs.reduce((a, b) => a + b, 0) / xs.length));
    this.avg = { title: mean(data.lengths.title), headings: mean(data.lengths.headings), body: mean(data.lengths.body) };
  }

  get sectionCount(): number {
    return this.data.sectionCount;
  }

  /** Number of sections containing the term. */
  documentFrequency(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 4;
  }

  idf(term: string): number {
    const n = this.data.sectionCount;
    const df = this.documentFrequency(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** The BM25F pseudo term frequency of the posting at `i` (fields weighted and length-normalised). */
  private withFieldTf(list: Int32Array, i: number, use: (section: number, tf: number) => void): void {
    const { weights, b } = this.params;
    const { lengths } = this.data;
    const s = list[i]!;
    const tf =
      (weights.title * list[i + 1]!) / (1 - b.title + (b.title * lengths.title[s]!) / this.avg.title) +
      (weights.headings * list[i + 2]!) / (1 - b.headings + (b.headings * lengths.headings[s]!) / this.avg.headings) +
      (weights.body * list[i + 3]!) / (1 - b.body + (b.body * lengths.body[s]!) / this.avg.body);
    if (tf > 0) use(s, tf);
  }

  /** IDF of a word written several ways: sections holding any of them (an upper bound on the union). */
  private idfOfAny(terms: readonly string[]): number {
    const n = this.data.sectionCount;
    const df = Math.min(n, terms.reduce((sum, t) => sum + this.documentFrequency(t), 0));
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Every term of the index. */
  vocabulary(): IterableIterator<string> {
    return this.postings.keys();
  }

  hasTerm(term: string): boolean {
    return this.postings.has(term);
  }

  /**
   * Scores every section that matches any query term; `query` maps term → weight. A term's
   * `variants` (other spellings of the same word: `admin` for `administrator`) count as that term:
   * their occurrences add to its term frequency and its IDF is that of all its spellings together,
   * so a section that uses both spellings is not counted twice.
   */
  search(query: ReadonlyMap<string, number>, variants: ReadonlyMap<string, readonly string[]> = new Map()): LexicalHits {
    const { k1 } = this.params;
    const scores = new Map<number, number>();
    const covered = new Map<number, number>();
    const bits = new Map<number, number>();
    const ownIdf: number[] = [];
    let idfMass = 0;
    for (const [term, weight] of query) {
      const spellings = [term, ...(variants.get(term) ?? [])];
      const idf = spellings.length === 1 ? this.idf(term) : this.idfOfAny(spellings);
      const bit = weight >= 1 && ownIdf.length < 31 ? 1 << ownIdf.length : 0;
      if (weight >= 1) {
        idfMass += idf;
        if (bit !== 0) ownIdf.push(idf);
      }
      const add = (s: number, t: number) => {
        scores.set(s, (scores.get(s) ?? 0) + weight * idf * ((t * (k1 + 1)) / (t + k1)));
        covered.set(s, (covered.get(s) ?? 0) + weight * idf);
        if (bit !== 0) bits.set(s, (bits.get(s) ?? 0) | bit);
      };
      if (spellings.length === 1) {
        const list = this.postings.get(term);
        if (list) for (let i = 0; i < list.length; i += 4) this.withFieldTf(list, i, add);
        continue;
      }
      const tf = new Map<number, number>();
      for (const spelling of spellings) {
        const list = this.postings.get(spelling);
        if (list) for (let i = 0; i < list.length; i += 4) this.withFieldTf(list, i, (s, t) => tf.set(s, (tf.get(s) ?? 0) + t));
      }
      for (const [s, t] of tf) add(s, t);
    }
    const sections = Int32Array.from(scores.keys());
    const out = new Float64Array(sections.length);
    const coverage = new Float64Array(sections.length);
    const matched = new Int32Array(sections.length);
    sections.forEach((s, i) => {
      out[i] = scores.get(s)!;
      coverage[i] = idfMass > 0 ? Math.min(1, (covered.get(s) ?? 0) / idfMass) : 0;
      matched[i] = bits.get(s) ?? 0;
    });
    return { sections, scores: out, coverage, matched, ownTermShare: ownIdf.map((idf) => (idfMass > 0 ? idf / idfMass : 0)) };
  }
}
