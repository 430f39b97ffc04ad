/**
 * Terms as small integers, for the renderer's per-response arithmetic: counting and weighing every
 * term of every shown passage is array indexing, not hashing strings, and a cached passage holds
 * four bytes a term instead of a string. An id means the same term until `clearTermIds`, which
 * passage-blocks.ts calls only between responses, together with dropping every cached passage
 * (so no id outlives its meaning), once the table holds `MAX_TERMS`.
 */

export const MAX_TERMS = 1_000_000;

const ids = new Map<string, number>();

/** The id of `term`, given it a new one the first time. */
export function termId(term: string): number {
  let id = ids.get(term);
  if (id === undefined) ids.set(term, (id = ids.size));
  return id;
}

/** The id of `term` when it has one: a term without one is in no cached passage. */
export function knownTermId(term: string): number | undefined {
  return ids.get(term);
}

/** The ids of `terms`, each once, in first-seen order. */
export function distinctIds(terms: readonly string[]): Int32Array {
  return Int32Array.from(new Set(terms), termId);
}

export function termIdCount(): number {
  return ids.size;
}

export function clearTermIds(): void {
  ids.clear();
}

/** A count per term id for one response, kept between responses and zeroed where it was used. */
export class TermTally {
  private counts = new Int32Array(1024);
  private readonly used: number[] = [];

  /** Counts `id` `times` more. */
  add(id: number, times = 1): void {
    if (id >= this.counts.length) {
      const grown = new Int32Array(Math.max(id + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    if (this.counts[id] === 0) this.used.push(id);
    this.counts[id]! += times;
  }

  get(id: number): number {
    return id < this.counts.length ? this.counts[id]! : 0;
  }

  /** Zeroes what this response counted. */
  reset(): void {
    for (const id of this.used) this.counts[id] = 0;
    this.used.length = 0;
  }
}
