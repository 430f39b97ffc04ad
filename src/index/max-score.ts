import { KeyedHeap, type TopSections } from './keyed-heap.js';
import { advance, hitKey, type PrunedTerm, SLACK, termBound, warmUpFloor } from './max-score-terms.js';

export type { PrunedTerm } from './max-score-terms.js';

/**
 * The best k sections of a BM25F query without scoring every posting: MaxScore (Turtle & Flood
 * 1995), in windows of sections as Lucene's MaxScoreBulkScorer does it. Each term's largest
 * possible contribution (its idf × the saturation of its largest pseudo term frequency) bounds
 * what it can add; once k sections are held, the terms whose bounds together stay below the k-th
 * score cannot lift a section on their own ("non-essential"). Window by window, the other terms'
 * postings are added up term at a time into small arrays (cheap, in cache); a section they touched
 * that can still reach the k-th score then has the non-essential terms looked up (galloping
 * search), and a section that only non-essential terms hold is never looked at.
 *
 * The result is exactly what exhaustive scoring would keep (LexicalIndex.search's accumulator and
 * the searcher's ordering): the same k sections, scored by the same doubles added in query order,
 * ties broken by the order the accumulator first touched them (`hitKey`).
 */

/** Sections per window: the per-term arrays of a window stay in cache. */
const WINDOW = 4096;
/** The longest list a first threshold is taken from (its sections are each looked up in every term). */
const WARM_UP_MAX = 50_000;

/** The k best sections by score, then by the order exhaustive scoring first touches them. */
export function maxScoreTopK(terms: PrunedTerm[], k1: number, k: number, idfMass: number): TopSections {
  const walk = new MaxScoreWalk(terms, k1, k);
  walk.run();
  return walk.result(idfMass);
}

class MaxScoreWalk {
  /** Term indices by bound, smallest first; the first `nonEssential` are only looked up. */
  private readonly order: number[];
  /** Bounds of order[0 … j - 1], with slack. */
  private readonly prefix: Float64Array;
  private nonEssential = 0;
  /** Per term and spelling: the next posting not yet passed. */
  private readonly pos: Int32Array[];
  private readonly heap: KeyedHeap;
  /** Per term (× WINDOW) and window offset: its summed tf, and the first spelling holding the section (−1: none). */
  private readonly tf: Float64Array;
  private readonly first: Int8Array;
  private readonly touched = new Uint8Array(WINDOW);
  /** The window's touched offsets, ascending (lookups gallop forward). */
  private readonly offsets = new Int32Array(WINDOW);
  /** Whether each term's postings of the current window are in `tf` (essential when the window began). */
  private readonly inWindow: Uint8Array;
  /**
   * Per window offset: the gathered single-spelling terms' contributions, added as they are
   * gathered (for bounds only: the exact score is summed in query order when a section is offered).
   */
  private readonly partial = new Float64Array(WINDOW);
  /** Gathered terms with other spellings: their contribution needs the summed tf, so it is added when a section is considered. */
  private readonly summedLater: number[] = [];
  private readonly spellings: number;

  constructor(
    private readonly terms: PrunedTerm[],
    private readonly k1: number,
    k: number,
  ) {
    const m = terms.length;
    const bound = terms.map((t) => termBound(t, k1) * (1 + SLACK));
    this.order = terms.map((_, i) => i).sort((a, b) => bound[a]! - bound[b]! || a - b);
    this.prefix = new Float64Array(m + 1);
    for (let j = 0; j < m; j++) this.prefix[j + 1] = this.prefix[j]! + bound[this.order[j]!]!;
    this.pos = terms.map((t) => new Int32Array(t.lists.length));
    this.heap = new KeyedHeap(k);
    this.tf = new Float64Array(m * WINDOW);
    this.first = new Int8Array(m * WINDOW).fill(-1);
    this.inWindow = new Uint8Array(m);
    this.spellings = Math.max(1, ...terms.map((t) => t.lists.length)) + 1;
  }

  run(): void {
    this.floor = this.warmUp();
    this.raiseNonEssential();
    const { touched, offsets, first } = this;
    for (let base = this.nextWindow(); base >= 0; base = this.nextWindow()) {
      this.inWindow.fill(0);
      this.summedLater.length = 0;
      for (let j = this.nonEssential; j < this.order.length; j++) this.gather(this.order[j]!, base);
      const windowNonEssential = this.nonEssential;
      let count = 0;
      for (let off = 0; off < WINDOW; off++) {
        if (touched[off] === 0) continue;
        touched[off] = 0;
        offsets[count++] = off;
      }
      for (let i = 0; i < count; i++) this.consider(base, offsets[i]!, windowNonEssential);
      for (let i = 0; i < count; i++) this.partial[offsets[i]!] = 0;
      for (let t = 0; t < this.terms.length; t++) {
        if (this.inWindow[t] === 0) continue;
        for (let i = 0; i < count; i++) first[t * WINDOW + offsets[i]!] = -1;
      }
    }
  }

  result(idfMass: number): TopSections {
    return this.heap.sorted(idfMass);
  }

  /** Whether a section whose score is at most `bound` cannot enter the k held. */
  private cannotReach(bound: number): boolean {
    const threshold = this.heap.full ? Math.max(this.heap.threshold, this.floor) : this.floor;
    return bound < threshold * (1 - SLACK);
  }

  /** Terms whose bounds together cannot reach the threshold become look-up only. */
  private raiseNonEssential(): void {
    while (this.nonEssential < this.order.length && this.cannotReach(this.prefix[this.nonEssential + 1]!))
      this.nonEssential++;
  }

  /** A score the k-th best surely reaches, known before the walk (−∞ when none is). */
  private floor = Number.NEGATIVE_INFINITY;

  /** A first threshold, so that the walk prunes from its first window (see warmUpFloor). */
  private warmUp(): number {
    return warmUpFloor(
      this.terms,
      this.terms[this.order[this.order.length - 1]!]!,
      this.k1,
      this.heap.size,
      WARM_UP_MAX,
    );
  }

  /** The first section of the next window holding an essential posting, or −1 when none is left. */
  private nextWindow(): number {
    let next = Number.POSITIVE_INFINITY;
    for (let j = this.nonEssential; j < this.order.length; j++) {
      const t = this.order[j]!;
      const { lists } = this.terms[t]!;
      for (let l = 0; l < lists.length; l++) {
        const at = this.pos[t]![l]!;
        if (at < lists[l]!.sections.length) next = Math.min(next, lists[l]!.sections[at]!);
      }
    }
    return next === Number.POSITIVE_INFINITY ? -1 : next - (next % WINDOW);
  }

  /** Adds term t's postings of the window at `base` into its arrays, spelling by spelling. */
  private gather(t: number, base: number): void {
    const { lists, weightedIdf } = this.terms[t]!;
    const { tf, first, touched, partial, k1 } = this;
    const row = t * WINDOW;
    const end = base + WINDOW;
    this.inWindow[t] = 1;
    if (lists.length === 1) {
      // The common case, in one tight loop: its contribution goes straight into the bound.
      const { sections, tf: f } = lists[0]!;
      let at = this.pos[t]![0]!;
      for (; at < sections.length && sections[at]! < end; at++) {
        const off = sections[at]! - base;
        const x = f[at]!;
        first[row + off] = 0;
        tf[row + off] = x;
        touched[off] = 1;
        if (x > 0) partial[off]! += weightedIdf * ((x * (k1 + 1)) / (x + k1));
      }
      this.pos[t]![0] = at;
      return;
    }
    this.summedLater.push(t);
    for (let l = 0; l < lists.length; l++) {
      const { sections, tf: f } = lists[l]!;
      let at = this.pos[t]![l]!;
      for (; at < sections.length && sections[at]! < end; at++) {
        const off = sections[at]! - base;
        if (first[row + off]! < 0) {
          first[row + off] = l;
          tf[row + off] = f[at]!;
        } else {
          tf[row + off]! += f[at]!;
        }
        touched[off] = 1;
      }
      this.pos[t]![l] = at;
    }
  }

  /** A section the window's essential terms touched: bounded, then looked up and offered if it can still make it. */
  private consider(base: number, off: number, windowNonEssential: number): void {
    let partial = this.partial[off]!;
    for (const t of this.summedLater) partial += this.contribution(t, off);
    if (this.cannotReach(partial + this.prefix[windowNonEssential]!)) return;
    for (let j = windowNonEssential - 1; j >= 0; j--) {
      if (this.cannotReach(partial + this.prefix[j + 1]!)) return;
      const t = this.order[j]!;
      this.lookUp(t, base + off, off);
      partial += this.contribution(t, off);
    }
    if (!this.cannotReach(partial)) this.offer(base + off, off);
  }

  /**
   * Term t's pseudo term frequency at a section, found by galloping, into its window arrays (a
   * term not gathered in this window: its entry is set afresh on every lookup).
   */
  private lookUp(t: number, section: number, off: number): void {
    const { lists } = this.terms[t]!;
    const row = t * WINDOW;
    this.first[row + off] = -1;
    for (let l = 0; l < lists.length; l++) {
      const { sections, tf } = lists[l]!;
      const at = advance(sections, this.pos[t]![l]!, section);
      this.pos[t]![l] = at;
      if (at >= sections.length || sections[at] !== section) continue;
      if (this.first[row + off]! < 0) {
        this.first[row + off] = l;
        this.tf[row + off] = tf[at]!;
      } else {
        this.tf[row + off]! += tf[at]!;
      }
    }
  }

  private contribution(t: number, off: number): number {
    const at = t * WINDOW + off;
    if (this.first[at]! < 0) return 0;
    const f = this.tf[at]!;
    return f > 0 ? this.terms[t]!.weightedIdf * ((f * (this.k1 + 1)) / (f + this.k1)) : 0;
  }

  /** Scores a fully looked-up section as the accumulator would (query order) and offers it to the heap. */
  private offer(section: number, off: number): void {
    let score = 0;
    let covered = 0;
    let bits = 0;
    let key = -1;
    for (let t = 0; t < this.terms.length; t++) {
      const at = t * WINDOW + off;
      if (this.first[at]! < 0 || !(this.tf[at]! > 0)) continue;
      score += this.contribution(t, off);
      covered += this.terms[t]!.weightedIdf;
      bits |= this.terms[t]!.bit;
      if (key < 0) key = hitKey(t, this.first[at]!, this.spellings, section);
    }
    if (key < 0) return;
    if (this.heap.offer(section, score, key, covered, bits)) this.raiseNonEssential();
  }
}
