import { FoldedTerms, type FoldedPostings } from './folded-postings.js';
import { DEFAULT_LEXICAL_PARAMS, type LexicalParams } from './lexical-data.js';
import { Accumulator, type LexicalHits } from './lexical-accumulator.js';
import { MatchLookup, type LookupTerm } from './match-lookup.js';
import { maxScoreTopK, type PrunedTerm } from './max-score.js';
import { findTerm, type LexicalParts, type PostingsSource, postingsSource } from './postings-source.js';

/**
 * BM25F over three fields of a section: the document title, the section's heading path, and the
 * body. Written by hand because scoring needs what the BM25 libraries on npm don't expose
 * together: per-field weights with one saturation (BM25F), our identifier-aware tokenizer, a
 * compact serialisable form, and every matching section's score and query-term coverage (the
 * engine adds section scores up to a document's rank and labels relevance from coverage).
 */

/** A query term resolved against the index: its spellings' postings, weight × IDF, and bit. */
interface ResolvedTerm extends PrunedTerm {
  term: string;
}

export class LexicalIndex {
  private readonly source: PostingsSource;
  private readonly folded: FoldedTerms;
  private readonly acc: Accumulator;
  private readonly params: LexicalParams;

  /**
   * From the statistics themselves, or the parts of postings.bin a server reads them by
   * (postings-source.ts). `pruneFrom`: postings per candidate kept from which a search prunes.
   */
  constructor(
    data: LexicalParts,
    params: LexicalParams = DEFAULT_LEXICAL_PARAMS,
    private readonly pruneFrom = PRUNE_FROM_POSTINGS_PER_CANDIDATE,
  ) {
    this.source = postingsSource(data);
    this.params = params;
    this.folded = new FoldedTerms(this.source, params);
    this.acc = new Accumulator(this.source.sectionCount);
  }

  get sectionCount(): number {
    return this.source.sectionCount;
  }

  /** Closes the index file (a search after it opens it again). */
  close(): void {
    this.source.close();
  }

  /** The index's ids of a term and its other spellings, those it has (in that order). */
  private spellingIds(term: string, spellings: readonly string[] | undefined): number[] {
    const ids: number[] = [];
    for (const spelling of [term, ...(spellings ?? [])]) {
      const t = findTerm(this.source, spelling);
      if (t >= 0) ids.push(t);
    }
    return ids;
  }

  /** Tokens in a section's body (its text without the heading line): 0 for a heading with nothing under it. */
  bodyLength(section: number): number {
    return this.source.lengths.body[section] ?? 0;
  }

  /** Number of sections containing the term. */
  documentFrequency(term: string): number {
    const t = findTerm(this.source, term);
    return t < 0 ? 0 : this.source.frequency(t);
  }

  idf(term: string): number {
    return this.idfOf(this.documentFrequency(term));
  }

  private idfOf(df: number): number {
    const n = this.source.sectionCount;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Every term of the index with its document frequency, in sorted order. */
  *vocabulary(): IterableIterator<readonly [string, number]> {
    for (let t = 0; t < this.source.termCount; t++) yield [this.source.termAt(t), this.source.frequency(t)];
  }

  hasTerm(term: string): boolean {
    return findTerm(this.source, term) >= 0;
  }

  /**
   * Scores the sections that match any query term; `query` maps term → weight. A term's
   * `variants` (other spellings of the same word: `admin` for `administrator`) count as that term:
   * their occurrences add to its term frequency and its IDF is that of all its spellings together
   * (an upper bound on the union), so a section that uses both spellings is not counted twice.
   *
   * With `topK`, a query that surely matches more sections than that (a term with more postings)
   * keeps only the best `topK`, found by MaxScore pruning (max-score.ts): exactly the sections,
   * scores and order exhaustive scoring would rank first; what the others matched is then looked
   * up on demand (`lookup`). Without it, or for a smaller query, every match is scored.
   */
  search(
    query: ReadonlyMap<string, number>,
    variants: ReadonlyMap<string, readonly string[]> = new Map(),
    topK?: number,
  ): LexicalHits {
    const ownIdf: number[] = [];
    const ownTerms: string[] = [];
    let ownTermsFound = 0;
    let idfMass = 0;
    const terms: ResolvedTerm[] = [];
    for (const [term, weight] of query) {
      const ids = this.spellingIds(term, variants.get(term));
      let df = 0;
      for (const t of ids) df += this.source.frequency(t);
      const idf = this.idfOf(Math.min(this.source.sectionCount, df));
      const bit = weight >= 1 && ownIdf.length < 31 ? 1 << ownIdf.length : 0;
      if (weight >= 1) {
        idfMass += idf;
        if (bit !== 0) {
          ownIdf.push(idf);
          ownTerms.push(term);
          if (df > 0) ownTermsFound |= bit;
        }
      }
      terms.push({ term, lists: ids.map((t) => this.folded.get(t)), weightedIdf: weight * idf, bit });
    }
    const own = {
      ownTermShare: ownIdf.map((idf) => (idfMass > 0 ? idf / idfMass : 0)),
      ownTermsFound,
      ownTerms,
    };
    if (topK !== undefined && this.worthPruning(terms, topK)) {
      const top = maxScoreTopK(terms, this.params.k1, topK, idfMass);
      return { ...top, ...own, lookup: new MatchLookup(terms as LookupTerm[]) };
    }
    for (const term of terms) this.accumulate(term);
    return { ...this.acc.collect(idfMass), ...own };
  }

  /**
   * Whether to prune: only when exhaustive scoring would surely keep more than `k` sections (then
   * the best k are all sections that score, which pruning finds), and only for long posting lists:
   * with 2,000 candidates on the distinct scale corpus at 123k sections (queries of 5k-200k
   * postings), pruning took 1.4-2x the CPU time of scoring every match and sorting them.
   */
  private worthPruning(terms: readonly PrunedTerm[], k: number): boolean {
    let postings = 0;
    for (const t of terms) for (const list of t.lists) postings += list.sections.length;
    return postings >= this.pruneFrom * k && surelyMoreThan(terms, k);
  }

  /** Adds one query term's postings to the accumulator: every posting of every spelling. */
  private accumulate({ lists, weightedIdf, bit }: ResolvedTerm): void {
    const { k1 } = this.params;
    if (lists.length === 1) {
      const { sections, tf } = lists[0]!;
      this.acc.addPostings(sections, tf, 0, sections.length, k1, weightedIdf, bit);
    } else if (lists.length > 1) {
      const summed = new Map<number, number>();
      for (const { sections, tf } of lists)
        for (let i = 0; i < sections.length; i++) summed.set(sections[i]!, (summed.get(sections[i]!) ?? 0) + tf[i]!);
      for (const [s, tf] of summed)
        if (tf > 0) this.acc.add(s, weightedIdf * ((tf * (k1 + 1)) / (tf + k1)), weightedIdf, bit);
    }
  }
}

/** A query prunes from this many postings per candidate kept (200,000 for the searcher's 2,000). */
export const PRUNE_FROM_POSTINGS_PER_CANDIDATE = 100;

/**
 * Whether exhaustive scoring would find more than `k` sections with a positive score: some term
 * with a positive weight has more postings with a positive pseudo term frequency. Only then are
 * the best k all scoring sections, which pruning finds; otherwise every match is kept.
 */
function surelyMoreThan(terms: readonly PrunedTerm[], k: number): boolean {
  return terms.some((t) => t.weightedIdf > 0 && t.lists.some((list: FoldedPostings) => list.positives > k));
}
