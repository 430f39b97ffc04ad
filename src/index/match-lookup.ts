import type { FoldedPostings } from './folded-postings.js';
import { advance } from './max-score-terms.js';

/**
 * What the user's own query terms matched in sections a pruned search did not keep (max-score.ts):
 * a page's breadth counts every section of it that matched, and a result's window shows how much
 * of the query each of its sections matches. Looked up in the terms' postings by bisection, for
 * the few pages ranking asks about, with exactly the test exhaustive scoring applies (the term's
 * pseudo term frequencies, summed over its spellings, above 0).
 */

export interface LookupTerm {
  lists: FoldedPostings[];
  /** The term's bit among the user's own terms; 0 for none (not looked up). */
  bit: number;
}

export class MatchLookup {
  private readonly terms: LookupTerm[];
  private sums = new Float64Array(64);

  constructor(terms: readonly LookupTerm[]) {
    this.terms = terms.filter((t) => t.bit !== 0);
  }

  /** Whether any section matches any of the user's own terms. */
  anyOwnMatch(): boolean {
    return this.terms.some((t) => t.lists.some((list) => list.positives > 0));
  }

  /** The own-term bits of sections `first` … `first + count - 1`, into `out` (cleared first). */
  sectionBits(first: number, count: number, out: Int32Array): void {
    out.fill(0, 0, count);
    if (this.sums.length < count) this.sums = new Float64Array(Math.max(count, 2 * this.sums.length));
    const sums = this.sums;
    for (const { lists, bit } of this.terms) {
      sums.fill(-1, 0, count);
      for (const { sections, tf } of lists) {
        for (let at = advance(sections, 0, first); at < sections.length && sections[at]! < first + count; at++) {
          const p = sections[at]! - first;
          sums[p] = sums[p]! < 0 ? tf[at]! : sums[p]! + tf[at]!;
        }
      }
      for (let p = 0; p < count; p++) if (sums[p]! > 0) out[p]! |= bit;
    }
  }

  /** The own-term bits matched anywhere in sections `first` … `first + count - 1`. */
  rangeBits(first: number, count: number): number {
    let bits = 0;
    for (const { lists, bit } of this.terms) {
      for (const { sections, tf } of lists) {
        if ((bits & bit) !== 0) break;
        for (let at = advance(sections, 0, first); at < sections.length && sections[at]! < first + count; at++) {
          if (tf[at]! > 0) {
            bits |= bit;
            break;
          }
        }
      }
    }
    return bits;
  }
}
