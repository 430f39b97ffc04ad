import type { LexicalHits } from '../index/lexical-accumulator.js';
import { LexicalIndex } from '../index/lexical-index.js';
import type { FusionSettings } from '../index/manifest.js';
import type { VectorIndex } from '../index/vector-index.js';
import { DEFAULT_EXCERPT_CANDIDATES, type ExcerptSettings } from './excerpts.js';
import { CandidateFiller, MAX_LEXICAL_CANDIDATES, NO_HITS, NO_NEIGHBOURS } from './candidate-slots.js';
import { Candidates, fuseSections } from './fuse.js';
import { DocumentRanker, type DocumentHit } from './document-ranker.js';
import { type ParsedQuery, parseQuery } from './query.js';
import { creditParents, type ParentCredit, parentCreditFor } from './parent-credit.js';
import { relevanceFor } from './relevance.js';
import { confidence, NAMES_TOPIC, windowOf } from './result-window.js';
import { rewriteQuery } from './rewrite.js';
import { checkSearchInput } from './search-input.js';
import { type Retrieval, type SearchPolicy, searchesGraph } from './search-policy.js';
import type { DetailedSearch, Embed, RankedResult, SearchParts, StageTimings } from './searcher-types.js';
import { TypoCorrector } from './typos.js';
import { discounted, foundOwnTerms } from './coverage.js';
import type { SectionFacts } from './best-section.js';
import type { ExcerptFacts } from './excerpts.js';
import { SECTION_ROLES } from '../index/format.js';
import { SectionStore } from '../index/section-store.js';
import { tokenize } from '../index/tokenize.js';
import { OwnMatches } from './own-matches.js';
import type { SearchOptions } from './types.js';
import { hitsWithin, KnowledgeBaseScope, neighboursWithin, type SectionFilter } from './scope.js';

/** Query → retrieve (BM25F + vectors) → fuse → rank documents → window → label. */

interface LexicalStage {
  hits: LexicalHits;
  corrections: DetailedSearch['corrections'];
}

/**
 * The search itself, over `SearchParts`: what the in-process engine and each pool worker run.
 * Candidates, per-section bits and document tops live in scratch arrays reused across queries:
 * they are filled and cleared within one synchronous stretch (after the query vector has
 * arrived), so searches interleaved at their awaits never see each other's state.
 */
export class Searcher {
  private readonly lexical: LexicalIndex;
  private readonly fusion: FusionSettings;
  private readonly retrieval: Retrieval;
  private readonly lexicalCandidates: number;
  /** Whether the lexical stage may keep only its best candidates (pruned), rather than score every match. */
  private readonly pruning: boolean;
  /** Whether the vector graph's nearest sections join the candidates (always, but in hybrid search as set). */
  private readonly graphCandidates: boolean;
  private readonly rewrites: boolean;
  private readonly typoTolerance: boolean;
  private readonly excerpts: ExcerptSettings;
  private readonly parentCredit: ParentCredit;
  private readonly typos: TypoCorrector;
  private readonly candidates = new Candidates(MAX_LEXICAL_CANDIDATES + 128);
  private readonly filler = new CandidateFiller();
  private readonly ranker: DocumentRanker;
  /** Candidate slot + 1 by section, 0 for none. */
  private readonly slotOf: Int32Array;
  private readonly matches: OwnMatches;
  /** Headings of the sections of the pages ranked, read when a result needs them. */
  private readonly sections: SectionStore;
  private readonly sectionDoc: Int32Array;
  private readonly scope: KnowledgeBaseScope;

  constructor(
    private readonly parts: SearchParts,
    private readonly vectors: VectorIndex,
    policy: SearchPolicy,
  ) {
    const m = parts.manifest;
    this.lexical = new LexicalIndex(
      parts.lexical,
      { ...m.lexical, ...policy.lexical },
      policy.lexicalPruning === 'always' ? 0 : undefined,
    );
    this.fusion = { ...m.fusion, ...policy.fusion };
    this.retrieval = policy.retrieval ?? 'hybrid';
    this.graphCandidates = searchesGraph(this.fusion, policy);
    this.lexicalCandidates = policy.lexicalCandidates ?? MAX_LEXICAL_CANDIDATES;
    this.pruning = policy.lexicalPruning !== false;
    this.rewrites = policy.rewrites ?? true;
    this.typoTolerance = policy.typoTolerance ?? true;
    this.excerpts = { count: policy.excerptCandidates ?? DEFAULT_EXCERPT_CANDIDATES };
    this.parentCredit = parentCreditFor(policy, parts.parents);
    this.typos = new TypoCorrector(() => this.lexical.vocabulary());
    this.sections = new SectionStore(parts.sections);
    this.sectionDoc = parts.sections.doc;
    this.ranker = new DocumentRanker(parts.documents.length);
    this.slotOf = new Int32Array(this.sectionDoc.length);
    this.matches = new OwnMatches(this.sectionDoc.length, parts.documents.length, this.sectionDoc);
    this.scope = new KnowledgeBaseScope(parts.documents, this.sectionDoc);
  }

  /** Closes the index files it reads (a search after it opens them again). */
  close(): void {
    this.lexical.close();
    this.sections.close();
  }

  async search(term: string, options: SearchOptions, embed: Embed): Promise<DetailedSearch<RankedResult>> {
    const { text, limit } = checkSearchInput(term, options);
    const keep = this.scope.filter(options.knowledgeBase);
    const t0 = performance.now();
    const parsed = parseQuery(text, this.rewrites);
    // The query vector is needed only after the lexical stage: the model runs it on its own thread meanwhile.
    const pendingVector = this.retrieval === 'lexical' ? undefined : embed([text]).then((v) => v[0]);
    pendingVector?.catch(() => undefined);
    const t1 = performance.now();
    const lexical =
      this.retrieval === 'vector' ? { hits: NO_HITS, corrections: [] } : this.lexicalStage(text, parsed, keep);
    const t2 = performance.now();
    const vector = await pendingVector;
    // From here to the end nothing awaits: the scratch arrays are this query's alone.
    const ranked = this.rank(lexical.hits, vector, { limit, keep, text }, t2, parsed.question);
    return {
      results: ranked.results,
      corrections: lexical.corrections,
      confidences: ranked.results.map((r) => r.confidence),
      timings: { embedMs: t1 - t0, lexicalMs: t2 - t1, ...ranked.timings },
    };
  }

  /** BM25F over the query's terms, their rewrites and typo fixes: the matching sections. */
  private lexicalStage(text: string, query: ParsedQuery, keep: SectionFilter | undefined): LexicalStage {
    let terms = query.terms;
    let variants = new Map<string, string[]>();
    if (this.rewrites) {
      const rewritten = rewriteQuery(text, query.terms, (t) => this.lexical.hasTerm(t));
      variants = rewritten.variants;
      terms = new Map(terms);
      for (const [t, w] of rewritten.terms) terms.set(t, Math.max(w, terms.get(t) ?? 0));
    }
    const corrections: DetailedSearch['corrections'] = [];
    if (this.typoTolerance) {
      // A misspelt term counts as the index term it was meant as: same weight, same coverage.
      const own = [...query.terms].filter(([, w]) => w >= 1).map(([t]) => t);
      for (const [term, correction] of this.typos.corrections(text, own, (t) => this.lexical.hasTerm(t))) {
        variants.set(term, [...(variants.get(term) ?? []), correction]);
        corrections.push({ term, correction });
      }
    }
    // A scoped search scores every match: the best of the whole index may all lie elsewhere.
    const topK = this.pruning && keep === undefined ? this.lexicalCandidates : undefined;
    const hits = this.lexical.search(terms, variants, topK);
    return { hits: keep === undefined ? hits : hitsWithin(hits, keep), corrections };
  }

  /** Candidates → cosines → fusion → documents → windows, in one synchronous stretch; the scratch is clear again after. */
  private rank(
    hits: LexicalHits,
    vector: Float32Array | undefined,
    { limit, keep, text }: { limit: number; keep: SectionFilter | undefined; text: string },
    t2: number,
    question: boolean,
  ): { results: RankedResult[]; timings: Omit<StageTimings, 'embedMs' | 'lexicalMs'> } {
    const c = this.candidates;
    c.clear();
    const ownMatched = this.matches.mark(hits);
    this.filler.addLexical(c, this.slotOf, hits, this.lexicalCandidates);
    // A query none of whose own words (or their spellings, typo fixes) the corpus has gets no
    // results: pages matched only through rewrites or vector neighbours would be noise labelled
    // as answers (a made-up word used to return five "Somewhat relevant" pages).
    const answered = this.retrieval !== 'hybrid' || this.fusion.vectorOnlyResults || ownMatched;
    if (answered && vector !== undefined)
      this.filler.addVector(
        c,
        this.slotOf,
        this.graphCandidates ? this.neighbours(vector, keep) : NO_NEIGHBOURS,
        this.parts.vectors,
        vector,
      );
    const t3 = performance.now();
    let results: RankedResult[] = [];
    let t4 = t3;
    if (answered) {
      const ranked = this.rankDocuments(hits, limit, question);
      t4 = performance.now();
      const confidences = discounted(
        ranked.map((hit) => confidence(hit, ranked[0]!.score)),
        absentShare(hits, text, (t) => this.lexical.hasTerm(t)),
      );
      results = ranked.map((hit, i) => this.toResult(hit, confidences[i]!, hits));
    }
    const t5 = performance.now();
    this.clearScratch();
    return { results, timings: { vectorMs: t3 - t2, fuseMs: t4 - t3, windowMs: t5 - t4 } };
  }

  /** The graph's nearest sections; a scoped search asks for more, as it keeps only its knowledge base's. */
  private neighbours(vector: Float32Array, keep: SectionFilter | undefined) {
    if (keep === undefined) return this.vectors.search(vector, this.fusion.vectorCandidates);
    return neighboursWithin(this.vectors.search(vector, SCOPED_NEIGHBOURS * this.fusion.vectorCandidates), keep);
  }

  /** Fuses the candidates' lexical and vector scores, and ranks their documents. */
  private rankDocuments(hits: LexicalHits, limit: number, question: boolean): DocumentHit[] {
    const { sectionDoc } = this;
    const { documents } = this.parts;
    const c = this.candidates;
    const weight = this.retrieval === 'vector' ? 1 : this.retrieval === 'lexical' ? 0 : this.fusion.vectorWeight;
    fuseSections(c, weight);
    creditParents(c, this.slotOf, this.parentCredit, question);
    return this.ranker.rank(c, (s) => sectionDoc[s]!, this.fusion.documentSupportWeight, limit, {
      weight: this.fusion.documentBreadthWeight,
      termShare: hits.ownTermShare,
      matchedByDoc: (doc) => this.matches.ofDocument(doc, documents[doc]!.firstSection, documents[doc]!.sectionCount),
    });
  }

  /** Clears the slots and match bits this query set, so the next query starts from zeros. */
  private clearScratch(): void {
    const c = this.candidates;
    for (let i = 0; i < c.count; i++) this.slotOf[c.section[i]!] = 0;
    this.matches.clear();
    c.clear();
  }

  private toResult(hit: DocumentHit, confidence: number, hits: LexicalHits): RankedResult {
    const doc = this.parts.documents[hit.doc]!;
    const share = (bits: number) => shareOf(bits, hits.ownTermShare);
    const titleMatch = share(termsIn(doc.title, hits.ownTerms));
    const facts = new Array<SectionFacts & ExcerptFacts>(doc.sectionCount);
    const headings = this.sections.headingsOf(doc.firstSection, doc.firstSection + doc.sectionCount);
    const matched = this.matches.ofSections(doc.firstSection, doc.sectionCount);
    for (let p = 0; p < doc.sectionCount; p++) {
      const section = doc.firstSection + p;
      const slot = this.slotOf[section]! - 1;
      facts[p] = {
        headings: headings[p]!,
        bodyTokens: this.lexical.bodyLength(section),
        score: slot >= 0 ? this.candidates.score[slot]! : 0,
        match: share(matched[p]!),
        role: SECTION_ROLES[this.parts.sections.roles[section]!] ?? 'content',
      };
    }
    const window = windowOf(facts, hit.best.section - doc.firstSection, this.excerpts, titleMatch >= NAMES_TOPIC);
    const bestMatch = window.window.find((s) => s.isBest)?.match ?? 0;
    return {
      doc: hit.doc,
      title: doc.title,
      source: doc.kb,
      path: doc.path,
      ...(doc.url !== undefined && { url: doc.url }),
      relevance: relevanceFor(confidence, this.parts.manifest.relevance, bestMatch),
      score: hit.score,
      confidence,
      titleMatch,
      documentSections: doc.sectionCount,
      ...window,
    };
  }
}

/** How many times the usual nearest sections a scoped search asks the graph for. */
const SCOPED_NEIGHBOURS = 4;

/** The IDF share of the query's own terms whose bits are set in `bits`. */
function shareOf(bits: number, termShare: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < termShare.length; i++) if (bits & (1 << i)) sum += termShare[i]!;
  return sum;
}

/** The IDF share of the query's own terms that no section holds, in any spelling (a compound counts by its parts). */
function absentShare(hits: LexicalHits, text: string, hasTerm: (term: string) => boolean): number {
  return shareOf(~foundOwnTerms(text, hits.ownTerms, hits.ownTermsFound, hasTerm), hits.ownTermShare);
}

/** Which of `terms` (bit i for terms[i]) the text's tokens include. */
function termsIn(text: string, terms: readonly string[]): number {
  const tokens = new Set(tokenize(text));
  let bits = 0;
  terms.forEach((t, i) => {
    if (tokens.has(t)) bits |= 1 << i;
  });
  return bits;
}
