import { lexicalFields } from '../../indexer/write/section-text.js';
import type { RelevanceThresholds } from '../../src/index/manifest.js';
import { IndexError, type StoredDocument, type StoredSection } from '../../src/index/format.js';
import { currentBuildDir, readBuildSections } from '../../src/index/read-index.js';
import { tokenize } from '../../src/index/tokenize.js';
import { DEFAULT_RELEVANCE_THRESHOLDS, relevanceFor } from '../../src/search/relevance.js';
import type { SearchResult, WindowSection } from '../../src/search/types.js';
import { windowAround } from '../../src/search/window.js';

/**
 * The floor both quality and speed are measured against: textbook BM25 (k1 1.2, b 0.75) over the
 * sections the engine indexes, each section's text being its heading path and body as the
 * indexer tokenizes them, with no field weights, rewrites, typo tolerance, vectors or breadth.
 * One result per page, by its best section, with the same ±15-section window the engine shows.
 * Postings are flat typed arrays and a query allocates only its result list, so its latency is a
 * fair floor for what lexical search over this index must cost.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface FloorHit {
  /** Index into the documents. */
  doc: number;
  /** Global index of the page's best section. */
  section: number;
  score: number;
}

export class Bm25Floor {
  private readonly termIds = new Map<string, number>();
  /** Postings of term t: entries offsets[t] … offsets[t + 1] − 1, sections ascending. */
  private readonly offsets: Int32Array;
  private readonly postingSection: Int32Array;
  private readonly postingTf: Float32Array;
  private readonly idf: Float64Array;
  /** k1 · (1 − b + b · length / average length), per section. */
  private readonly lengthNorm: Float32Array;
  private readonly sectionDoc: Int32Array;
  private readonly sectionScore: Float64Array;
  private readonly touchedSections: Int32Array;
  private readonly docScore: Float64Array;
  private readonly docBest: Int32Array;
  private readonly touchedDocs: Int32Array;

  constructor(
    private readonly documents: readonly StoredDocument[],
    private readonly sections: readonly StoredSection[],
    private readonly thresholds: RelevanceThresholds = DEFAULT_RELEVANCE_THRESHOLDS,
  ) {
    const n = sections.length;
    const perSection: Map<number, number>[] = [];
    const df: number[] = [];
    const lengths = new Float32Array(n);
    let postings = 0;
    sections.forEach((s, i) => {
      const fields = lexicalFields('', s);
      const tokens = [...fields.headings, ...fields.body];
      lengths[i] = tokens.length;
      const counts = new Map<number, number>();
      for (const token of tokens) {
        let id = this.termIds.get(token);
        if (id === undefined) {
          id = df.length;
          this.termIds.set(token, id);
          df.push(0);
        }
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      for (const id of counts.keys()) df[id]!++;
      postings += counts.size;
      perSection.push(counts);
    });
    this.offsets = new Int32Array(df.length + 1);
    for (let t = 0; t < df.length; t++) this.offsets[t + 1] = this.offsets[t]! + df[t]!;
    this.postingSection = new Int32Array(postings);
    this.postingTf = new Float32Array(postings);
    const fill = this.offsets.slice(0, df.length);
    perSection.forEach((counts, s) => {
      for (const [id, tf] of counts) {
        const at = fill[id]!++;
        this.postingSection[at] = s;
        this.postingTf[at] = tf;
      }
    });
    this.idf = Float64Array.from(df, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
    const average = n === 0 ? 0 : lengths.reduce((a, b) => a + b, 0) / n;
    this.lengthNorm = Float32Array.from(
      lengths,
      (l) => BM25_K1 * (1 - BM25_B + (average > 0 ? (BM25_B * l) / average : 0)),
    );
    this.sectionDoc = Int32Array.from(sections, (s) => s.doc);
    this.sectionScore = new Float64Array(n);
    this.touchedSections = new Int32Array(n);
    this.docScore = new Float64Array(documents.length);
    this.docBest = new Int32Array(documents.length);
    this.touchedDocs = new Int32Array(documents.length);
  }

  /** Reads the current build's documents and sections (src/index/read-index.ts). */
  static async open(indexDir: string): Promise<Bm25Floor> {
    const buildDir = await currentBuildDir(indexDir);
    if (buildDir === undefined) throw new IndexError(`no index in ${indexDir}: build it first`);
    const { manifest, documents, sections } = await readBuildSections(buildDir);
    return new Bm25Floor(documents, sections, manifest.relevance);
  }

  /** Distinct known terms of a query, by id. */
  private queryTerms(query: string): number[] {
    const ids = new Set<number>();
    for (const token of tokenize(query)) {
      const id = this.termIds.get(token);
      if (id !== undefined) ids.add(id);
    }
    return [...ids];
  }

  /** The best `limit` pages, best first (ties: lower document index first). */
  rank(query: string, limit: number): FloorHit[] {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit must be a positive whole number, got ${limit}`);
    const terms = this.queryTerms(query);
    let nSections = 0;
    for (const t of terms) {
      const idf = this.idf[t]!;
      for (let p = this.offsets[t]!, end = this.offsets[t + 1]!; p < end; p++) {
        const s = this.postingSection[p]!;
        const tf = this.postingTf[p]!;
        if (this.sectionScore[s] === 0) this.touchedSections[nSections++] = s;
        this.sectionScore[s]! += (idf * tf * (BM25_K1 + 1)) / (tf + this.lengthNorm[s]!);
      }
    }
    let nDocs = 0;
    for (let i = 0; i < nSections; i++) {
      const s = this.touchedSections[i]!;
      const d = this.sectionDoc[s]!;
      const score = this.sectionScore[s]!;
      this.sectionScore[s] = 0;
      if (this.docScore[d] === 0) this.touchedDocs[nDocs++] = d;
      if (score > this.docScore[d]! || (score === this.docScore[d] && s < this.docBest[d]!)) {
        this.docScore[d] = score;
        this.docBest[d] = s;
      }
    }
    const top: FloorHit[] = [];
    for (let i = 0; i < nDocs; i++) {
      const d = this.touchedDocs[i]!;
      const score = this.docScore[d]!;
      this.docScore[d] = 0;
      if (top.length === limit) {
        if (!better(score, d, top[limit - 1]!)) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && better(score, d, top[at - 1]!)) at--;
      top.splice(at, 0, { doc: d, section: this.docBest[d]!, score });
    }
    return top;
  }

  /** The pages as the engine would return them: windows of ±15 sections around the best one. */
  search(query: string, limit: number): SearchResult[] {
    const hits = this.rank(query, limit);
    if (hits.length === 0) return [];
    const terms = this.queryTerms(query);
    const totalIdf = terms.reduce((a, t) => a + this.idf[t]!, 0);
    const match = (section: number) =>
      totalIdf === 0 ? 0 : terms.reduce((a, t) => a + (this.contains(t, section) ? this.idf[t]! : 0), 0) / totalIdf;
    const topScore = hits[0]!.score;
    return hits.map((hit) => {
      const doc = this.documents[hit.doc]!;
      const best = hit.section - doc.firstSection;
      const { from, to } = windowAround(best, doc.sectionCount);
      const sections: WindowSection[] = [];
      for (let p = from; p <= to; p++) {
        const s = this.sections[doc.firstSection + p]!;
        const shown = {
          position: p,
          headings: s.headings,
          text: s.text,
          isBest: p === best,
          match: match(doc.firstSection + p),
          // The floor ranks sections by BM25 alone: no fused score per section, no roles.
          score: p === best ? 1 : 0,
          role: 'content' as const,
        };
        sections.push(shown);
      }
      // Labels for the renderer, shaped like the engine's: query share matched × a steep rank damping.
      const confidence = match(hit.section) * (hit.score / topScore) ** 4;
      const result = {
        title: doc.title,
        source: doc.kb,
        path: doc.path,
        relevance: relevanceFor(confidence, this.thresholds),
        score: hit.score,
        confidence,
        titleMatch: 0,
        documentSections: doc.sectionCount,
        sections,
      };
      return result;
    });
  }

  private contains(term: number, section: number): boolean {
    let lo = this.offsets[term]!;
    let hi = this.offsets[term + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.postingSection[mid]!;
      if (s === section) return true;
      if (s < section) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

function better(score: number, doc: number, than: FloorHit): boolean {
  return score > than.score || (score === than.score && doc < than.doc);
}
