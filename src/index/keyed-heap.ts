/**
 * The k best sections a pruned search has seen (max-score.ts), by score and then by the order
 * exhaustive scoring touches them (a lower key first), with what each matched; exact vector
 * search (vector-index.ts) keeps its best rows in one too. A binary heap whose root is the worst
 * held: the score a section must beat to get in.
 */

/** The k best, as a lexical search returns them. */
export interface TopSections {
  /** Best first: higher score, then the section the accumulator touched first. */
  sections: Int32Array;
  scores: Float64Array;
  coverage: Float64Array;
  matched: Int32Array;
}

export class KeyedHeap {
  private readonly sections: Int32Array;
  private readonly scores: Float64Array;
  private readonly keys: Float64Array;
  private readonly covered: Float64Array;
  private readonly bits: Int32Array;
  private count = 0;

  constructor(readonly size: number) {
    this.sections = new Int32Array(size);
    this.scores = new Float64Array(size);
    this.keys = new Float64Array(size);
    this.covered = new Float64Array(size);
    this.bits = new Int32Array(size);
  }

  get full(): boolean {
    return this.count === this.size;
  }

  get threshold(): number {
    return this.scores[0]!;
  }

  /** Adds the entry if it is among the best; true when it was. */
  offer(section: number, score: number, key: number, covered: number, bits: number): boolean {
    if (this.size === 0) return false;
    if (this.count < this.size) {
      this.siftUp(this.count++, section, score, key, covered, bits);
      return true;
    }
    if (!ranksAbove(score, key, this.scores[0]!, this.keys[0]!)) return false;
    this.siftDown(section, score, key, covered, bits);
    return true;
  }

  /** Empties the heap into its entries best first (popping the worst into the last free place). */
  sorted(idfMass: number): TopSections {
    const n = this.count;
    const out: TopSections = {
      sections: new Int32Array(n),
      scores: new Float64Array(n),
      coverage: new Float64Array(n),
      matched: new Int32Array(n),
    };
    for (let r = n - 1; r >= 0; r--) {
      out.sections[r] = this.sections[0]!;
      out.scores[r] = this.scores[0]!;
      out.coverage[r] = idfMass > 0 ? Math.min(1, this.covered[0]! / idfMass) : 0;
      out.matched[r] = this.bits[0]!;
      const last = --this.count;
      if (last > 0)
        this.siftDown(
          this.sections[last]!,
          this.scores[last]!,
          this.keys[last]!,
          this.covered[last]!,
          this.bits[last]!,
        );
    }
    return out;
  }

  private move(to: number, from: number): void {
    this.sections[to] = this.sections[from]!;
    this.scores[to] = this.scores[from]!;
    this.keys[to] = this.keys[from]!;
    this.covered[to] = this.covered[from]!;
    this.bits[to] = this.bits[from]!;
  }

  private place(at: number, section: number, score: number, key: number, covered: number, bits: number): void {
    this.sections[at] = section;
    this.scores[at] = score;
    this.keys[at] = key;
    this.covered[at] = covered;
    this.bits[at] = bits;
  }

  /** Fills the hole at `at` with the entry: parents that rank above it move down into the hole. */
  private siftUp(at: number, section: number, score: number, key: number, covered: number, bits: number): void {
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!ranksAbove(this.scores[parent]!, this.keys[parent]!, score, key)) break;
      this.move(i, parent);
      i = parent;
    }
    this.place(i, section, score, key, covered, bits);
  }

  /** Replaces the root (the worst) with the entry: the worse child moves up while the entry ranks above it. */
  private siftDown(section: number, score: number, key: number, covered: number, bits: number): void {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.count) break;
      const right = left + 1;
      const worse =
        right < this.count && ranksAbove(this.scores[left]!, this.keys[left]!, this.scores[right]!, this.keys[right]!)
          ? right
          : left;
      if (!ranksAbove(score, key, this.scores[worse]!, this.keys[worse]!)) break;
      this.move(i, worse);
      i = worse;
    }
    this.place(i, section, score, key, covered, bits);
  }
}

/** Whether entry a ranks above entry b: a higher score, or an equal one touched first (a lower key). */
function ranksAbove(scoreA: number, keyA: number, scoreB: number, keyB: number): boolean {
  return scoreA > scoreB || (scoreA === scoreB && keyA < keyB);
}
