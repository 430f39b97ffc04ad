import type { Candidates } from './fuse.js';

/** Sections to documents: each document's best sections, support and breadth, ranked. */

export interface Breadth {
  weight: number;
  /** Each own query term's IDF share, by bit of `matched`. */
  termShare: readonly number[];
  /** Terms matched per document by sections beyond the candidates ranked here (by document), if any were cut. */
  matchedByDoc?: (doc: number) => number;
}

/** A ranked document's best section, copied out of the candidates. */
interface BestSection {
  section: number;
  lexical: number;
  coverage: number;
  vectorNorm: number;
  score: number;
}

export interface DocumentHit {
  doc: number;
  best: BestSection;
  score: number;
}

/** Per document, its three best candidate slots: what ranking needs, kept in reusable arrays. */
export class DocumentRanker {
  private readonly top: Int32Array;
  private readonly union: Int32Array;
  private readonly seen: Uint8Array;
  private touched: Int32Array;

  constructor(documents: number) {
    this.top = new Int32Array(documents * 3).fill(-1);
    this.union = new Int32Array(documents);
    this.seen = new Uint8Array(documents);
    this.touched = new Int32Array(64);
  }

  /**
   * One hit per document: its best section's score plus `supportWeight` × the mean of its next
   * two best sections, so a page that treats the topic in several sections edges out a page that
   * mentions it once, without long pages winning on length alone; plus its breadth: how much of
   * the query (IDF share of the user's own terms) the page matches across all its sections. A
   * long question's words are often spread over a page's title, intro and the section that
   * answers; a page that matches them all is the better answer than one that repeats one of them
   * (on the Argo CD set: paraphrased questions 0.459 → 0.482 nDCG@10, symptoms 0.885 → 0.916).
   */
  rank(
    c: Candidates,
    docOf: (section: number) => number,
    supportWeight: number,
    limit: number,
    /** `weight` × the share of the query's own terms (`termShare`, by bit) a document matches anywhere. */
    breadth: Breadth = { weight: 0, termShare: [] },
  ): DocumentHit[] {
    const docs = this.collectTops(c, docOf);
    const docScore = this.scoreDocuments(c, docs, supportWeight, breadth);
    const hits: DocumentHit[] = [];
    for (const d of this.best(docScore, docs, limit)) {
      const doc = this.touched[d]!;
      const b = this.top[3 * doc]!;
      hits.push({
        doc,
        best: {
          section: c.section[b]!,
          lexical: c.lexical[b]!,
          coverage: c.coverage[b]!,
          vectorNorm: c.vectorNorm[b]!,
          score: c.score[b]!,
        },
        score: docScore[d]!,
      });
    }
    this.reset(docs);
    return hits;
  }

  /**
   * The `limit` best of the touched documents, best first: higher score, then the one touched
   * first. A selection into a short sorted list, where sorting every touched document (hundreds,
   * with a comparator call per comparison) was most of ranking's time.
   */
  private best(docScore: Float64Array, docs: number, limit: number): number[] {
    const before = (a: number, b: number) =>
      docScore[a]! > docScore[b]! || (docScore[a] === docScore[b] && this.touched[a]! < this.touched[b]!);
    const top: number[] = [];
    for (let d = 0; d < docs; d++) {
      if (top.length === limit && (limit === 0 || !before(d, top[limit - 1]!))) continue;
      let at = top.length === limit ? limit - 1 : top.length;
      while (at > 0 && before(d, top[at - 1]!)) {
        top[at] = top[at - 1]!;
        at--;
      }
      top[at] = d;
    }
    return top;
  }

  /** Fills each scoring document's three best slots and matched-term union; how many documents (in `touched`). */
  private collectTops(c: Candidates, docOf: (section: number) => number): number {
    const { top, union, seen } = this;
    // Better: higher score, then the earlier section.
    const better = (a: number, b: number) =>
      c.score[a]! > c.score[b]! || (c.score[a] === c.score[b] && c.section[a]! < c.section[b]!);
    let docs = 0;
    for (let i = 0; i < c.count; i++) {
      if (c.score[i]! <= 0) continue;
      const doc = docOf(c.section[i]!);
      if (seen[doc] === 0) {
        seen[doc] = 1;
        if (docs === this.touched.length) {
          const grown = new Int32Array(docs * 2);
          grown.set(this.touched);
          this.touched = grown;
        }
        this.touched[docs++] = doc;
      }
      union[doc]! |= c.matched[i]!;
      const t = 3 * doc;
      if (top[t]! < 0 || better(i, top[t]!)) {
        top[t + 2] = top[t + 1]!;
        top[t + 1] = top[t]!;
        top[t] = i;
      } else if (top[t + 1]! < 0 || better(i, top[t + 1]!)) {
        top[t + 2] = top[t + 1]!;
        top[t + 1] = i;
      } else if (top[t + 2]! < 0 || better(i, top[t + 2]!)) {
        top[t + 2] = i;
      }
    }
    return docs;
  }

  /** Each touched document's score: best section, plus support from the next two, plus breadth. */
  private scoreDocuments(c: Candidates, docs: number, supportWeight: number, breadth: Breadth): Float64Array {
    const { top, union } = this;
    const docScore = new Float64Array(docs);
    for (let d = 0; d < docs; d++) {
      const doc = this.touched[d]!;
      const t = 3 * doc;
      const second = top[t + 1]!;
      const third = top[t + 2]!;
      const supportSum = second < 0 ? 0 : third < 0 ? 0 + c.score[second]! : 0 + c.score[second]! + c.score[third]!;
      const supportMean = second < 0 ? 0 : supportSum / 2;
      const matched = (breadth.matchedByDoc?.(doc) ?? 0) | union[doc]!;
      let covered = 0;
      for (let bit = 0; bit < breadth.termShare.length; bit++)
        if (matched & (1 << bit)) covered += breadth.termShare[bit]!;
      docScore[d] = c.score[top[t]!]! + supportWeight * supportMean + breadth.weight * covered;
    }
    return docScore;
  }

  /** Clears the arrays for the documents this call touched, ready for the next. */
  private reset(docs: number): void {
    for (let d = 0; d < docs; d++) {
      const doc = this.touched[d]!;
      this.seen[doc] = 0;
      this.union[doc] = 0;
      this.top.fill(-1, 3 * doc, 3 * doc + 3);
    }
  }
}
