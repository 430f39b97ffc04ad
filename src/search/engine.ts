import { DEFAULT_MODEL_ID } from '../embedding/default-model.js';
import { loadEmbedder } from '../embedding/embedder.js';
import type { Embedder } from '../embedding/types.js';
import { LexicalIndex, type LexicalParams } from '../index/lexical-index.js';
import type { FusionSettings } from '../index/manifest.js';
import { readIndex, type LoadedIndex } from '../index/read-index.js';
import { ExactVectorIndex, type VectorIndex } from '../index/vector-index.js';
import { fuseReciprocalRank, fuseSections, rankDocuments, type DocumentHit, type SectionEvidence } from './fuse.js';
import { stem } from '../index/tokenize.js';
import { expandQuery, parseQuery, type ParsedQuery } from './query.js';
import { answeringSection } from './best-section.js';
import { profileCorpus, type KnowledgeBaseProfile } from './corpus-profile.js';
import { rewriteQuery } from './rewrite.js';
import { TypoCorrector } from './typos.js';
import { relevanceFor } from './relevance.js';
import type { IndexSummary, SearchEngine, SearchOptions, SearchResult } from './types.js';
import { windowAround } from './window.js';

/** Query → retrieve (BM25F + vectors) → fuse → rank documents → window → label. */

export const DEFAULT_RESULT_LIMIT = 5;
/** Lexical candidates beyond this many (by score) cannot reach the top results; skip their cosine. */
const MAX_LEXICAL_CANDIDATES = 2000;

export class SearchInputError extends Error {}
export class ModelMismatchError extends Error {}

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

export interface DetailedSearch {
  results: SearchResult[];
  timings: StageTimings;
  /** Terms the query was expanded with. */
  expansions: { word: string; term: string; similarity: number }[];
  /** Query terms the index lacks, and the index term each was taken for. */
  corrections: { term: string; correction: string }[];
  /** Each result's confidence (what its label is a band of), for calibration. */
  confidences: number[];
}

interface PreparedQuery {
  parsed: ParsedQuery;
  /** Weighted lexical terms: the user's own, plus expansions. */
  terms: Map<string, number>;
  expansions: DetailedSearch['expansions'];
  vector: Float32Array | undefined;
}

interface LexicalStage {
  /** Candidate sections with their lexical evidence (cosine added by the vector stage). */
  evidence: Map<number, SectionEvidence>;
  /** Each own query term's IDF share, by bit of `matched`. */
  termShare: number[];
  /** Own query terms matched, by section and by document (bit sets), over every matching section. */
  matchedBySection: Map<number, number>;
  matchedByDoc: Map<number, number>;
  /** Whether any section matched any of the user's own terms. */
  ownMatched: boolean;
  corrections: DetailedSearch['corrections'];
}

function emptyLexical(): LexicalStage {
  return { evidence: new Map(), termShare: [], matchedBySection: new Map(), matchedByDoc: new Map(), ownMatched: false, corrections: [] };
}

export interface LoadedEngine extends SearchEngine {
  searchDetailed(term: string, options?: SearchOptions): Promise<DetailedSearch>;
  readonly index: LoadedIndex;
  readonly embedder: Embedder;
  close(): Promise<void>;
}

/** Opens the current index in `indexDir` with the model it was built with. */
export async function openEngine(indexDir: string, options: EngineOptions = {}): Promise<LoadedEngine> {
  const index = await readIndex(indexDir);
  const built = index.manifest.model;
  if (options.model !== undefined && !sameModel(options.model, built.id)) {
    throw new ModelMismatchError(
      `${index.buildDir}/manifest.json was built with model ${built.id} (${built.dimensions} dims) but the server is configured for ${options.model}: run 'svc-docs index --model ${options.model}' or drop --model`,
    );
  }
  const ownsEmbedder = options.embedder === undefined;
  const embedder = options.embedder ?? (await loadEmbedder({ model: built.id, allowRemote: options.allowRemoteModels ?? false }));
  if (embedder.checksum !== built.checksum || embedder.dimensions !== built.dimensions) {
    if (ownsEmbedder) await embedder.dispose();
    throw new ModelMismatchError(
      `${index.buildDir}/manifest.json was built with model ${built.id} (${built.dimensions} dims, checksum ${built.checksum.slice(0, 12)}) but the server loads ${embedder.modelId} (${embedder.dimensions} dims, checksum ${embedder.checksum.slice(0, 12)}): run 'svc-docs index'`,
    );
  }
  return new Engine(index, embedder, ownsEmbedder, options);
}

function sameModel(a: string, b: string): boolean {
  const norm = (m: string) => (m === 'default' ? DEFAULT_MODEL_ID : m);
  return norm(a) === norm(b);
}

class Engine implements LoadedEngine {
  private readonly lexical: LexicalIndex;
  private readonly vectors: VectorIndex;
  private readonly sectionDoc: Int32Array;
  private readonly expansionRow = new Map<string, number>();
  private readonly fusion: FusionSettings;
  private readonly retrieval: Retrieval;
  private readonly rewrites: boolean;
  private readonly typoTolerance: boolean;
  private readonly typos: TypoCorrector;
  private readonly profiles: KnowledgeBaseProfile[];

  constructor(
    readonly index: LoadedIndex,
    readonly embedder: Embedder,
    private readonly ownsEmbedder: boolean,
    options: EngineOptions,
  ) {
    this.lexical = new LexicalIndex(index.lexical, { ...index.manifest.lexical, ...options.lexical });
    this.vectors = options.vectorSearch === 'exact' ? new ExactVectorIndex(index.vectors) : index.hnsw;
    this.sectionDoc = Int32Array.from(index.sections, (s) => s.doc);
    index.expansion.terms.forEach((t, i) => this.expansionRow.set(t, i));
    this.fusion = { ...index.manifest.fusion, ...options.fusion };
    this.retrieval = options.retrieval ?? 'hybrid';
    this.rewrites = options.rewrites ?? true;
    this.typoTolerance = options.typoTolerance ?? true;
    this.profiles = profileCorpus(index);
    this.typos = new TypoCorrector(
      () => this.lexical.vocabulary(),
      (t) => this.lexical.documentFrequency(t),
    );
  }

  summary(): IndexSummary {
    const m = this.index.manifest;
    return {
      profiles: this.profiles,
      formatVersion: m.formatVersion,
      modelId: m.model.id,
      dimensions: m.model.dimensions,
      documents: m.corpus.documents,
      sections: m.sections,
      knowledgeBases: m.corpus.knowledgeBases,
      builtAt: m.builtAt,
    };
  }

  async search(term: string, options?: SearchOptions): Promise<SearchResult[]> {
    return (await this.searchDetailed(term, options)).results;
  }

  async searchDetailed(term: string, options: SearchOptions = {}): Promise<DetailedSearch> {
    const text = term.trim();
    if (text === '') throw new SearchInputError('the search term is empty: pass some words or identifiers to look for');
    const limit = options.limit ?? DEFAULT_RESULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) throw new SearchInputError(`limit must be a positive whole number, got ${limit}`);
    const t0 = performance.now();
    const parsed = parseQuery(text, this.rewrites);
    const useVectors = this.retrieval !== 'lexical';
    // Without expansion the query vector is needed only after the lexical stage: the model runs
    // it on its own thread meanwhile.
    const early = this.expands() ? await this.prepareQuery(text, parsed) : undefined;
    const pendingVector = early || !useVectors ? undefined : this.embedder.embed([text]).then((v) => v[0]);
    pendingVector?.catch(() => undefined);
    const query = early ?? { parsed, terms: parsed.terms, expansions: [], vector: undefined };
    const t1 = performance.now();
    const lexical = this.retrieval === 'vector' ? emptyLexical() : this.lexicalStage(text, query);
    const t2 = performance.now();
    const vector = query.vector ?? (await pendingVector);
    // A query none of whose own words (or their spellings, typo fixes) the corpus has gets no
    // results: pages matched only through expansions or vector neighbours would be noise labelled
    // as answers (a made-up word used to return five "Somewhat relevant" pages).
    const answered = this.retrieval !== 'hybrid' || this.fusion.vectorOnlyResults || lexical.ownMatched;
    if (answered) this.vectorStage(vector, lexical.evidence);
    const t3 = performance.now();
    const ranked = answered ? this.rank(lexical, limit) : { hits: [], scores: new Map<number, number>() };
    const t4 = performance.now();
    const confidences = ranked.hits.map((hit) => confidence(hit, ranked.hits[0]!.score));
    const results = ranked.hits.map((hit, i) => this.toResult(hit, confidences[i]!, lexical, ranked.scores));
    const t5 = performance.now();
    return {
      results,
      expansions: query.expansions,
      corrections: lexical.corrections,
      confidences,
      timings: { embedMs: t1 - t0, lexicalMs: t2 - t1, vectorMs: t3 - t2, fuseMs: t4 - t3, windowMs: t5 - t4 },
    };
  }

  private expands(): boolean {
    return this.retrieval === 'hybrid' && this.fusion.expansionTerms > 0;
  }

  /** Embeds the query and the words the index has no vector for, and expands it with the model's neighbours. */
  private async prepareQuery(text: string, parsed: ParsedQuery): Promise<PreparedQuery> {
    // Words already in the corpus vocabulary have their vectors in the index; embed only the rest.
    const unknownWords = parsed.words.filter((w) => !this.expansionRow.has(w));
    const embedded = await this.embedder.embed([text, ...unknownWords]);
    const wordVectors = parsed.words.map((w) => {
      const row = this.expansionRow.get(w);
      if (row === undefined) return embedded[1 + unknownWords.indexOf(w)]!;
      const { dims, data } = this.index.expansion.vectors;
      return data.subarray(row * dims, (row + 1) * dims);
    });
    const maxIdf = this.lexical.idf('\u0000absent');
    const expanded = expandQuery(parsed, wordVectors, this.index.expansion, this.fusion, (w) => this.lexical.idf(stem(w)) / maxIdf);
    return { parsed, terms: expanded.terms, expansions: expanded.added, vector: embedded[0] };
  }

  /** BM25F over the query's terms, their rewrites and typo fixes: the candidate sections. */
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
    const hits = this.lexical.search(terms, variants);
    // A page's breadth, and each window section's match, count every section that matched, not
    // only the candidates kept below.
    const matchedBySection = new Map<number, number>();
    const matchedByDoc = new Map<number, number>();
    let ownMatched = false;
    hits.sections.forEach((section, i) => {
      const bits = hits.matched[i]!;
      if (bits === 0) return;
      ownMatched = true;
      matchedBySection.set(section, bits);
      const doc = this.sectionDoc[section]!;
      matchedByDoc.set(doc, (matchedByDoc.get(doc) ?? 0) | bits);
    });
    const evidence = new Map<number, SectionEvidence>();
    const all = Array.from(hits.sections.keys());
    const kept = all.length <= MAX_LEXICAL_CANDIDATES ? all : all.sort((a, b) => hits.scores[b]! - hits.scores[a]!).slice(0, MAX_LEXICAL_CANDIDATES);
    for (const i of kept) {
      const section = hits.sections[i]!;
      evidence.set(section, { section, lexical: hits.scores[i]!, coverage: hits.coverage[i]!, cosine: 0, matched: hits.matched[i]! });
    }
    return { evidence, termShare: hits.ownTermShare, matchedBySection, matchedByDoc, ownMatched, corrections };
  }

  /** Adds each candidate's cosine, and the vector side's own nearest sections. */
  private vectorStage(queryVector: Float32Array | undefined, evidence: Map<number, SectionEvidence>): void {
    if (queryVector === undefined) return;
    const near = this.vectors.search(queryVector, this.fusion.vectorCandidates);
    near.ids.forEach((section, i) => {
      const e = evidence.get(section);
      if (e) e.cosine = near.scores[i]!;
      else evidence.set(section, { section, lexical: 0, coverage: 0, cosine: near.scores[i]!, matched: 0 });
    });
    // Lexical candidates the vector search did not return still get their true cosine.
    const nearSet = new Set(near.ids);
    for (const e of evidence.values()) if (!nearSet.has(e.section)) e.cosine = this.cosine(queryVector, e.section);
  }

  /** Fuses the evidence per section and ranks documents; keeps each section's fused score. */
  private rank(lexical: LexicalStage, limit: number): { hits: DocumentHit[]; scores: Map<number, number> } {
    const evidence = [...lexical.evidence.values()];
    const weight = this.retrieval === 'vector' ? 1 : this.retrieval === 'lexical' ? 0 : this.fusion.vectorWeight;
    const scored = this.fusion.method === 'rrf' && this.retrieval === 'hybrid' ? fuseReciprocalRank(evidence) : fuseSections(evidence, weight);
    const hits = rankDocuments(scored, (s) => this.sectionDoc[s]!, this.fusion.documentSupportWeight, limit, {
      weight: this.fusion.documentBreadthWeight,
      termShare: lexical.termShare,
      matchedByDoc: lexical.matchedByDoc,
    });
    const docs = new Set(hits.map((h) => h.doc));
    const scores = new Map<number, number>();
    for (const s of scored) if (docs.has(this.sectionDoc[s.section]!)) scores.set(s.section, s.score);
    return { hits, scores };
  }

  private cosine(query: Float32Array, section: number): number {
    const { dims, data } = this.index.vectors;
    let dot = 0;
    for (let d = 0, base = section * dims; d < dims; d++) dot += data[base + d]! * query[d]!;
    return dot;
  }

  private toResult(hit: DocumentHit, confidence: number, lexical: LexicalStage, scores: ReadonlyMap<number, number>): SearchResult {
    const doc = this.index.documents[hit.doc]!;
    const share = (bits: number) => lexical.termShare.reduce((sum, s, i) => (bits & (1 << i) ? sum + s : sum), 0);
    const facts = Array.from({ length: doc.sectionCount }, (_, p) => {
      const section = doc.firstSection + p;
      const match = share(lexical.matchedBySection.get(section) ?? 0);
      return { headings: this.index.sections[section]!.headings, bodyTokens: this.lexical.bodyLength(section), score: scores.get(section) ?? 0, match };
    });
    const best = answeringSection(facts, hit.best.section - doc.firstSection);
    const { from, to } = windowAround(best, doc.sectionCount);
    const sections = [];
    for (let p = from; p <= to; p++) {
      const s = this.index.sections[doc.firstSection + p]!;
      sections.push({ position: p, headings: s.headings, text: s.text, isBest: p === best, match: facts[p]!.match });
    }
    return {
      title: doc.title,
      source: doc.kb,
      path: doc.path,
      relevance: relevanceFor(confidence, this.index.manifest.relevance),
      score: hit.score,
      confidence,
      documentSections: doc.sectionCount,
      sections,
    };
  }

  async close(): Promise<void> {
    if (this.ownsEmbedder) await this.embedder.dispose();
  }
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
