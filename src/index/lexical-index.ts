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

/** A term's postings: the sections holding it and its BM25F pseudo term frequency in each. */
interface Postings {
  sections: Int32Array;
  tf: Float64Array;
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
  private readonly postings = new Map<string, Postings>();
  private readonly acc: Accumulator;

  constructor(
    private readonly data: LexicalData,
    private readonly params: LexicalParams = DEFAULT_LEXICAL_PARAMS,
  ) {
    const mean = (xs: number[]) => (xs.length === 0 ? 1 : Math.max(1e-9, xs.reduce((a, b) => a + b, 0) / xs.length));
    const avg = { title: mean(data.lengths.title), headings: mean(data.lengths.headings), body: mean(data.lengths.body) };
    const { weights, b } = params;
    const { lengths } = data;
    // Field weights and length normalisation are fixed per index: fold them into one number per posting now.
    const norm = (field: LexicalField, s: number) => 1 - b[field] + (b[field] * lengths[field][s]!) / avg[field];
    data.terms.forEach((term, t) => {
      const quads = data.postings[t]!;
      const n = quads.length / 4;
      const sections = new Int32Array(n);
      const tf = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const s = quads[4 * i]!;
        sections[i] = s;
        tf[i] =
          (weights.title * quads[4 * i + 1]!) / norm('title', s) +
          (weights.headings * quads[4 * i + 2]!) / norm('headings', s) +
          (weights.body * quads[4 * i + 3]!) / norm('body', s);
      }
      this.postings.set(term, { sections, tf });
    });
    this.acc = new Accumulator(data.sectionCount);
  }

  get sectionCount(): number {
    return this.data.sectionCount;
  }

  /** Tokens in a section's body (its text without the heading line): 0 for a heading with nothing under it. */
  bodyLength(section: number): number {
    return this.data.lengths.body[section] ?? 0;
  }

  /** Number of sections containing the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.sections.length ?? 0;
  }

  idf(term: string): number {
    return this.idfOf(this.documentFrequency(term));
  }

  private idfOf(df: number): number {
    const n = this.data.sectionCount;
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
   * their occurrences add to its term frequency and its IDF is that of all its spellings together
   * (an upper bound on the union), so a section that uses both spellings is not counted twice.
   */
  search(query: ReadonlyMap<string, number>, variants: ReadonlyMap<string, readonly string[]> = new Map()): LexicalHits {
    const { k1 } = this.params;
    const acc = this.acc;
    const ownIdf: number[] = [];
    let idfMass = 0;
    for (const [term, weight] of query) {
      const lists = [term, ...(variants.get(term) ?? [])].map((t) => this.postings.get(t)).filter((p) => p !== undefined);
      const idf = this.idfOf(Math.min(this.data.sectionCount, lists.reduce((sum, p) => sum + p.sections.length, 0)));
      const bit = weight >= 1 && ownIdf.length < 31 ? 1 << ownIdf.length : 0;
      if (weight >= 1) {
        idfMass += idf;
        if (bit !== 0) ownIdf.push(idf);
      }
      const saturated = (tf: number) => weight * idf * ((tf * (k1 + 1)) / (tf + k1));
      if (lists.length === 1) {
        const { sections, tf } = lists[0]!;
        for (let i = 0; i < sections.length; i++) if (tf[i]! > 0) acc.add(sections[i]!, saturated(tf[i]!), weight * idf, bit);
      } else if (lists.length > 1) {
        const summed = new Map<number, number>();
        for (const { sections, tf } of lists) for (let i = 0; i < sections.length; i++) summed.set(sections[i]!, (summed.get(sections[i]!) ?? 0) + tf[i]!);
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
    return { sections, scores, coverage, matched, ownTermShare: ownIdf.map((idf) => (idfMass > 0 ? idf / idfMass : 0)) };
  }
}
