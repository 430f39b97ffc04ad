import type { LexicalHits } from '../index/lexical-accumulator.js';

/**
 * Which of the user's own query terms each section and each page matched, over every matching
 * section, not only the candidates kept: a page's breadth and each window section's match count
 * them all. From an exhaustive search's hits, recorded in arrays reused from query to query; from
 * a pruned one's, looked up in the postings for the pages asked about (LexicalHits.lookup).
 */
export class OwnMatches {
  private readonly sectionBits: Int32Array;
  private readonly docBits: Int32Array;
  private scratch = new Int32Array(64);
  private hits: LexicalHits | undefined;

  constructor(
    sections: number,
    documents: number,
    private readonly sectionDoc: Int32Array,
  ) {
    this.sectionBits = new Int32Array(sections);
    this.docBits = new Int32Array(documents);
  }

  /** Takes a query's hits; whether any of its own terms matched at all. */
  mark(hits: LexicalHits): boolean {
    this.hits = hits;
    if (hits.lookup) return hits.lookup.anyOwnMatch();
    let ownMatched = false;
    for (let i = 0; i < hits.sections.length; i++) {
      const bits = hits.matched[i]!;
      if (bits === 0) continue;
      ownMatched = true;
      const section = hits.sections[i]!;
      this.sectionBits[section] = bits;
      this.docBits[this.sectionDoc[section]!]! |= bits;
    }
    return ownMatched;
  }

  /** The own terms document `doc` (sections `first` … `first + count - 1`) matched anywhere. */
  ofDocument(doc: number, first: number, count: number): number {
    const lookup = this.hits?.lookup;
    return lookup ? lookup.rangeBits(first, count) : this.docBits[doc]!;
  }

  /** The own terms each of sections `first` … `first + count - 1` matched; valid until the next call. */
  ofSections(first: number, count: number): Int32Array {
    if (this.scratch.length < count) this.scratch = new Int32Array(Math.max(count, 2 * this.scratch.length));
    const lookup = this.hits?.lookup;
    if (lookup) lookup.sectionBits(first, count, this.scratch);
    else this.scratch.set(this.sectionBits.subarray(first, first + count));
    return this.scratch;
  }

  /** Clears what `mark` recorded, so the next query starts from zeros. */
  clear(): void {
    const hits = this.hits;
    this.hits = undefined;
    if (!hits || hits.lookup) return;
    for (let i = 0; i < hits.sections.length; i++) {
      this.sectionBits[hits.sections[i]!] = 0;
      this.docBits[this.sectionDoc[hits.sections[i]!]!] = 0;
    }
  }
}
