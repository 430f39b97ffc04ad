import type { LexicalField, LexicalParams } from './lexical-data.js';
import type { PostingsSource } from './postings-source.js';

/**
 * A term's postings ready to score: each posting's BM25F pseudo term frequency, with the field
 * weights and length normalisation of the index's parameters folded in (one number per posting),
 * and the largest of them, which bounds what the term can add to any section's score (max-score.ts).
 * Folded when a query first needs the term, and kept in a cache bounded by bytes, least recently
 * used first out: a server holds the postings its queries touch, not the whole index.
 */

export interface FoldedPostings {
  /** Sections, ascending. */
  sections: Int32Array;
  tf: Float64Array;
  /** The largest tf (0 for none). */
  max: number;
  /** How many postings have tf > 0 (all, unless a field weight is 0). */
  positives: number;
}

/**
 * What the cache of folded postings may hold, in bytes (12 per posting). With 256 MiB, the
 * labelled queries run over and over on the 123k-section scale index folded terms again and
 * again (7.5 % of the lexical stage's CPU time in a profile); a million sections hold eight
 * times the postings.
 */
export const FOLDED_CACHE_BYTES = 1024 * 2 ** 20;

function mean(xs: ArrayLike<number>): number {
  if (xs.length === 0) return 1;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  return Math.max(1e-9, sum / xs.length);
}

export class FoldedTerms {
  private readonly avg: Record<LexicalField, number>;
  private readonly cache = new Map<number, FoldedPostings>();
  private bytes = 0;

  constructor(
    private readonly source: PostingsSource,
    private readonly params: LexicalParams,
    private readonly budget = FOLDED_CACHE_BYTES,
  ) {
    const { lengths } = source;
    this.avg = { title: mean(lengths.title), headings: mean(lengths.headings), body: mean(lengths.body) };
  }

  get(t: number): FoldedPostings {
    const hit = this.cache.get(t);
    if (hit !== undefined) {
      this.cache.delete(t);
      this.cache.set(t, hit);
      return hit;
    }
    const folded = this.fold(t);
    this.cache.set(t, folded);
    this.bytes += 12 * folded.sections.length;
    for (const [old, entry] of this.cache) {
      if (this.bytes <= this.budget || old === t) break;
      this.cache.delete(old);
      this.bytes -= 12 * entry.sections.length;
    }
    return folded;
  }

  /** The stored counts to pseudo term frequencies: the same doubles as the exhaustive scorer has always used. */
  private fold(t: number): FoldedPostings {
    const raw = this.source.postings(t);
    const { weights, b } = this.params;
    const { lengths } = this.source;
    const avg = this.avg;
    const norm = (field: LexicalField, s: number) => 1 - b[field] + (b[field] * lengths[field][s]!) / avg[field];
    const n = raw.sections.length;
    const tf = new Float64Array(n);
    let max = 0;
    let positives = 0;
    for (let at = 0; at < n; at++) {
      const s = raw.sections[at]!;
      const f =
        (weights.title * raw.tf.title[at]!) / norm('title', s) +
        (weights.headings * raw.tf.headings[at]!) / norm('headings', s) +
        (weights.body * raw.tf.body[at]!) / norm('body', s);
      tf[at] = f;
      if (f > 0) positives++;
      if (f > max) max = f;
    }
    return { sections: raw.sections, tf, max, positives };
  }
}
