import type { Embedder } from '../embedding/types.js';
import type { StoredDocument } from '../index/format.js';
import {
  LexicalIndex,
  type CompactLexical,
  type LexicalData,
  type LexicalHits,
  type LexicalParams,
} from '../index/lexical-index.js';
import type { FusionSettings, Manifest } from '../index/manifest.js';
import { stem } from '../index/tokenize.js';
import type { VectorIndex, VectorMatrix } from '../index/vector-index.js';
import { answeringSection } from './best-section.js';
import { Candidates, DocumentRanker, fuseReciprocalRank, fuseSections, type DocumentHit } from './fuse.js';
import { expandQuery, parseQuery, type ParsedQuery } from './query.js';
import { relevanceFor } from './relevance.js';
import { rewriteQuery } from './rewrite.js';
import { TypoCorrector } from './typos.js';
import type { SearchOptions, SearchResult, WindowSection } from './types.js';
import { windowAround } from './window.js';

/** Query → retrieve (BM25F + vectors) → fuse → rank documents → window → label. */

export const DEFAULT_RESULT_LIMIT = 5;
/** Lexical candidates beyond this many (by score) cannot reach the top results; skip their cosine. */
const MAX_LEXICAL_CANDIDATES = 2000;

export class SearchInputError extends Error {}

export type Retrieval = 'hybrid' | 'lexical' | 'vector';

export interface EngineOptions {
  /** An embedder already loaded (tests, benchmarks, reload); otherwise the manifest's model is loaded. */
  embedder?: Embedder;
  /** The model the caller expects; a different one in the manifest is an error. */
  model?: string;
  allowRemoteModels?: boolean;
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
export interface RankedResult extends Omit<SearchResult, 'sections'> {
  doc: number;
  window: Omit<WindowSection, 'headings' | 'text'>[];
}

/** What a window needs of the index: every document, and every section's headings and text. */
export interface WindowSource {
  readonly documents: readonly Pick<StoredDocument, 'firstSection'>[];
  readonly sections: readonly { headings: string[]; text: string }[];
}

export function withSections(ranked: RankedResult, index: WindowSource): SearchResult {
  const { doc, window, ...rest } = ranked;
  const first = index.documents[doc]!.firstSection;
  return {
    ...rest,
    sections: window.map((w) => {
      const s = index.sections[first + w.position]!;
      return { position: w.position, headings: s.headings, text: s.text, isBest: w.isBest, match: w.match };
    }),
  };
}

interface PreparedQuery {
  parsed: ParsedQuery;
  /** Weighted lexical terms: the user's own, plus expansions. */
  terms: Map<string, number>;
  expansions: DetailedSearch['expansions'];
  vector: Float32Array | undefined;
}

interface LexicalStage {
  hits: LexicalHits;
  corrections: DetailedSearch['corrections'];
}

const NO_HITS: LexicalHits = {
  sections: new Int32Array(0),
  scores: new Float64Array(0),
  coverage: new Float64Array(0),
  matched: new Int32Array(0),
  ownTermShare: [],
};

/** Everything a search needs of an index, in the form a worker thread can be handed (big arrays shared). */
export interface SearchParts {
  manifest: Manifest;
  documents: readonly StoredDocument[];
  /** Each section's heading path (a window's best section is chosen on it). */
  headings: readonly (readonly string[])[];
  sectionDoc: Int32Array;
  vectors: VectorMatrix;
  expansion: { terms: string[]; vectors: VectorMatrix };
  lexical: LexicalData | CompactLexical;
}

/** The trimmed term and the limit, or a SearchInputError saying what to pass instead. */
export function checkSearchInput(term: string, options: SearchOptions): { text: string; limit: number } {
  const text = term.trim();
  if (text === '') throw new SearchInputError('the search term is empty: pass some words or identifiers to look for');
  const limit = options.limit ?? DEFAULT_RESULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new SearchInputError(`limit must be a positive whole number, got ${limit}`);
  return { text, limit };
}

/** Whether a search embeds exactly its own text and nothing else (no query expansion): what a pool can embed up front. */
export function embedsQueryOnly(fusion: FusionSettings, options: EngineOptions): boolean {
  const retrieval = options.retrieval ?? 'hybrid';
  return retrieval !== 'lexical' && !(retrieval === 'hybrid' && fusion.expansionTerms > 0);
}

export type Embed = (texts: string[]) => Promise<Float32Array[]>;

/**
 * The search itself, over `SearchParts`: what the in-process engine and each pool worker run.
 * Candidates, per-section bits and document tops live in scratch arrays reused across queries:
 * they are filled and cleared within one synchronous stretch (after the query vector has
 * arrived), so searches interleaved at their awaits never see each other's state.
 */
export class Searcher {
  private readonly lexical: LexicalIndex;
  private readonly expansionRow = new Map<string, number>();
  private readonly fusion: FusionSettings;
  private readonly retrieval: Retrieval;
  private readonly rewrites: boolean;
  private readonly typoTolerance: boolean;
  private readonly typos: TypoCorrector;
  private readonly candidates = new Candidates(MAX_LEXICAL_CANDIDATES + 128);
  private readonly ranker: DocumentRanker;
  /** Candidate slot + 1 by section, 0 for none. */
  private readonly slotOf: Int32Array;
  /** Own query terms matched, by section and by document (bit sets), over every matching section. */
  private readonly sectionBits: Int32Array;
  private readonly docBits: Int32Array;

  constructor(
    private readonly parts: SearchParts,
    private readonly vectors: VectorIndex,
    options: EngineOptions,
  ) {
    const m = parts.manifest;
    this.lexical = new LexicalIndex(parts.lexical, { ...m.lexical, ...options.lexical });
    parts.expansion.terms.forEach((t, i) => this.expansionRow.set(t, i));
    this.fusion = { ...m.fusion, ...options.fusion };
    this.retrieval = options.retrieval ?? 'hybrid';
    this.rewrites = options.rewrites ?? true;
    this.typoTolerance = options.typoTolerance ?? true;
    this.typos = new TypoCorrector(
      () => this.lexical.vocabulary(),
      (t) => this.lexical.documentFrequency(t),
    );
    const sections = parts.sectionDoc.length;
    this.ranker = new DocumentRanker(parts.documents.length);
    this.slotOf = new Int32Array(sections);
    this.sectionBits = new Int32Array(sections);
    this.docBits = new Int32Array(parts.documents.length);
  }

  async search(term: string, options: SearchOptions, embed: Embed): Promise<DetailedSearch<RankedResult>> {
    const { text, limit } = checkSearchInput(term, options);
    const t0 = performance.now();
    const parsed = parseQuery(text, this.rewrites);
    const useVectors = this.retrieval !== 'lexical';
    // Without expansion the query vector is needed only after the lexical stage: the model runs
    // it on its own thread meanwhile.
    const early = this.expands() ? await this.prepareQuery(text, parsed, embed) : undefined;
    const pendingVector = early || !useVectors ? undefined : embed([text]).then((v) => v[0]);
    pendingVector?.catch(() => undefined);
    const query = early ?? { parsed, terms: parsed.terms, expansions: [], vector: undefined };
    const t1 = performance.now();
    const lexical = this.retrieval === 'vector' ? { hits: NO_HITS, corrections: [] } : this.lexicalStage(text, query);
    const t2 = performance.now();
    const vector = query.vector ?? (await pendingVector);
    // From here to the end nothing awaits: the scratch arrays are this query's alone.
    const ranked = this.rank(lexical.hits, vector, limit, t2);
    return {
      results: ranked.results,
      expansions: query.expansions,
      corrections: lexical.corrections,
      confidences: ranked.results.map((r) => r.confidence),
      timings: { embedMs: t1 - t0, lexicalMs: t2 - t1, ...ranked.timings },
    };
  }

  private expands(): boolean {
    return this.retrieval === 'hybrid' && this.fusion.expansionTerms > 0;
  }

  /** Embeds the query and the words the index has no vector for, and expands it with the model's neighbours. */
  private async prepareQuery(text: string, parsed: ParsedQuery, embed: Embed): Promise<PreparedQuery> {
    // Words already in the corpus vocabulary have their vectors in the index; embed only the rest.
    const unknownWords = parsed.words.filter((w) => !this.expansionRow.has(w));
    const embedded = await embed([text, ...unknownWords]);
    const wordVectors = parsed.words.map((w) => {
      const row = this.expansionRow.get(w);
      if (row === undefined) return embedded[1 + unknownWords.indexOf(w)]!;
      const { dims, data } = this.parts.expansion.vectors;
      return data.subarray(row * dims, (row + 1) * dims);
    });
    const maxIdf = this.lexical.idf('\u0000absent');
    const expanded = expandQuery(
      parsed,
      wordVectors,
      this.parts.expansion,
      this.fusion,
      (w) => this.lexical.idf(stem(w)) / maxIdf,
    );
    return { parsed, terms: expanded.terms, expansions: expanded.added, vector: embedded[0] };
  }

  /** BM25F over the query's terms, their rewrites and typo fixes: the matching sections. */
  private lexicalStage(text: string, query: PreparedQuery): LexicalStage {
    let terms = query.terms;
    let variants = new Map<string, string[]>();
    if (this.rewrites) {
      const rewritten = rewriteQuery(text, query.parsed.terms, (t) => this.lexical.hasTerm(t));
      variants = rewritten.variants;
      terms = new Map(terms);
      for (const [t, w] of rewritten.terms) terms.set(t, Math.max(w, terms.get(t) ?? 0));
    }
    const corrections: DetailedSearch['corrections'] = [];
    if (this.typoTolerance) {
      // A misspelt term counts as the index term it was meant as: same weight, same coverage.
      const own = [...query.parsed.terms].filter(([, w]) => w >= 1).map(([t]) => t);
      for (const [term, correction] of this.typos.corrections(text, own, (t) => this.lexical.hasTerm(t))) {
        variants.set(term, [...(variants.get(term) ?? []), correction]);
        corrections.push({ term, correction });
      }
    }
    return { hits: this.lexical.search(terms, variants), corrections };
  }

  /** Candidates → cosines → fusion → documents → windows, in one synchronous stretch; the scratch is clear again after. */
  private rank(
    hits: LexicalHits,
    vector: Float32Array | undefined,
    limit: number,
    t2: number,
  ): { results: RankedResult[]; timings: Omit<StageTimings, 'embedMs' | 'lexicalMs'> } {
    const { sectionDoc } = this.parts;
    const { sectionBits, docBits, slotOf } = this;
    const c = this.candidates;
    c.clear();
    // A page's breadth, and each window section's match, count every section that matched, not
    // only the candidates kept below.
    let ownMatched = false;
    for (let i = 0; i < hits.sections.length; i++) {
      const bits = hits.matched[i]!;
      if (bits === 0) continue;
      ownMatched = true;
      const section = hits.sections[i]!;
      sectionBits[section] = bits;
      docBits[sectionDoc[section]!]! |= bits;
    }
    const n = hits.sections.length;
    if (n <= MAX_LEXICAL_CANDIDATES) {
      for (let i = 0; i < n; i++)
        slotOf[hits.sections[i]!] =
          c.add(hits.sections[i]!, hits.scores[i]!, hits.coverage[i]!, 0, hits.matched[i]!) + 1;
    } else {
      const kept = Array.from({ length: n }, (_, i) => i)
        .sort((a, b) => hits.scores[b]! - hits.scores[a]!)
        .slice(0, MAX_LEXICAL_CANDIDATES);
      for (const i of kept)
        slotOf[hits.sections[i]!] =
          c.add(hits.sections[i]!, hits.scores[i]!, hits.coverage[i]!, 0, hits.matched[i]!) + 1;
    }
    // A query none of whose own words (or their spellings, typo fixes) the corpus has gets no
    // results: pages matched only through expansions or vector neighbours would be noise labelled
    // as answers (a made-up word used to return five "Somewhat relevant" pages).
    const answered = this.retrieval !== 'hybrid' || this.fusion.vectorOnlyResults || ownMatched;
    if (answered) this.vectorStage(vector);
    const t3 = performance.now();
    let results: RankedResult[] = [];
    let t4 = t3;
    if (answered) {
      const weight = this.retrieval === 'vector' ? 1 : this.retrieval === 'lexical' ? 0 : this.fusion.vectorWeight;
      if (this.fusion.method === 'rrf' && this.retrieval === 'hybrid') fuseReciprocalRank(c);
      else fuseSections(c, weight);
      const ranked = this.ranker.rank(c, (s) => sectionDoc[s]!, this.fusion.documentSupportWeight, limit, {
        weight: this.fusion.documentBreadthWeight,
        termShare: hits.ownTermShare,
        matchedByDoc: (doc) => docBits[doc]!,
      });
      t4 = performance.now();
      results = ranked.map((hit) => this.toResult(hit, confidence(hit, ranked[0]!.score), hits.ownTermShare));
    }
    const t5 = performance.now();
    for (let i = 0; i < c.count; i++) slotOf[c.section[i]!] = 0;
    for (let i = 0; i < n; i++) {
      sectionBits[hits.sections[i]!] = 0;
      docBits[sectionDoc[hits.sections[i]!]!] = 0;
    }
    c.clear();
    return { results, timings: { vectorMs: t3 - t2, fuseMs: t4 - t3, windowMs: t5 - t4 } };
  }

  /** Adds each candidate's cosine, and the vector side's own nearest sections. */
  private vectorStage(queryVector: Float32Array | undefined): void {
    if (queryVector === undefined) return;
    const c = this.candidates;
    const near = this.vectors.search(queryVector, this.fusion.vectorCandidates);
    const lexicalCount = c.count;
    const hasCosine = new Uint8Array(lexicalCount);
    for (let i = 0; i < near.ids.length; i++) {
      const section = near.ids[i]!;
      const slot = this.slotOf[section]! - 1;
      if (slot >= 0) {
        c.cosine[slot] = near.scores[i]!;
        hasCosine[slot] = 1;
      } else {
        this.slotOf[section] = c.add(section, 0, 0, near.scores[i]!, 0) + 1;
      }
    }
    // Lexical candidates the vector search did not return still get their true cosine.
    const { dims, data } = this.parts.vectors;
    for (let i = 0; i < lexicalCount; i++)
      if (hasCosine[i] === 0) c.cosine[i] = dot(data, c.section[i]! * dims, queryVector, dims);
  }

  private toResult(hit: DocumentHit, confidence: number, termShare: readonly number[]): RankedResult {
    const doc = this.parts.documents[hit.doc]!;
    const share = (bits: number) => {
      let sum = 0;
      for (let i = 0; i < termShare.length; i++) if (bits & (1 << i)) sum += termShare[i]!;
      return sum;
    };
    const facts = new Array<{ headings: readonly string[]; bodyTokens: number; score: number; match: number }>(
      doc.sectionCount,
    );
    for (let p = 0; p < doc.sectionCount; p++) {
      const section = doc.firstSection + p;
      const slot = this.slotOf[section]! - 1;
      facts[p] = {
        headings: this.parts.headings[section]!,
        bodyTokens: this.lexical.bodyLength(section),
        score: slot >= 0 ? this.candidates.score[slot]! : 0,
        match: share(this.sectionBits[section]!),
      };
    }
    const best = answeringSection(facts, hit.best.section - doc.firstSection);
    const { from, to } = windowAround(best, doc.sectionCount);
    const window = [];
    for (let p = from; p <= to; p++) window.push({ position: p, isBest: p === best, match: facts[p]!.match });
    return {
      doc: hit.doc,
      title: doc.title,
      source: doc.kb,
      path: doc.path,
      relevance: relevanceFor(confidence, this.parts.manifest.relevance),
      score: hit.score,
      confidence,
      documentSections: doc.sectionCount,
      window,
    };
  }
}

/** Dot product of a row of `data` (from `base`) with `query`: the cosine, as the vectors are unit length. */
function dot(data: Float32Array, base: number, query: Float32Array, dims: number): number {
  let sum = 0;
  let d = 0;
  // Unrolled, but summed in the same order as a plain loop: the same double result, bit for bit.
  for (; d + 4 <= dims; d += 4) {
    sum += data[base + d]! * query[d]!;
    sum += data[base + d + 1]! * query[d + 1]!;
    sum += data[base + d + 2]! * query[d + 2]!;
    sum += data[base + d + 3]! * query[d + 3]!;
  }
  for (; d < dims; d++) sum += data[base + d]! * query[d]!;
  return sum;
}

/**
 * How sure we are that a result answers the query, in [0, 1]: how much of the query its best
 * section matches (IDF-weighted, expansions at their weight), damped steeply for results scoring
 * below the top one (on the labelled sets a result at 90 % of the top score is relevant a quarter
 * of the time). Matches found by the vector side alone count as half-covered at best.
 */
export function confidence(hit: DocumentHit, topScore: number): number {
  const coverage = Math.max(hit.best.coverage, 0.5 * hit.best.vectorNorm * (hit.best.lexical > 0 ? 1 : 0.6));
  const rank = topScore > 0 ? Math.min(1, hit.score / topScore) : 0;
  return coverage * rank ** 4;
}
