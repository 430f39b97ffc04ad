/**
 * Indices ordered by score, highest first, equal scores in index order: exactly what a stable
 * `Array.prototype.sort((a, b) => scores[b] - scores[a])` gives, without a comparator call per
 * comparison. On the Argo CD queries with over 2,000 lexical hits that sort took about 1 ms of a
 * 2 ms search.
 *
 * How: for scores ≥ 0 (BM25 scores are) the IEEE 754 bits, read as an unsigned integer, order as
 * the values do. A least-significant-digit radix sort on the high 32 bits (sign, exponent and 20
 * bits of mantissa: one byte per pass, all four bytes counted in one pass, a pass whose byte is
 * the same for every score skipped) orders the scores up to their low 32 bits; each pass is
 * stable, so the rare run of scores equal in their high bits stays in index order, and one
 * insertion pass by the full score finishes it. The arrays are reused from call to call.
 */

/** The float64 half holding sign, exponent and high mantissa: the second (little-endian only: src/index/columns.ts). */
const HIGH_WORD = 1;

export class ScoreOrder {
  private order = new Int32Array(0);
  private spare = new Int32Array(0);
  private values = new Float64Array(0);
  /** Count of each byte value, for each of the high word's four bytes. */
  private readonly counts = new Int32Array(4 * 256);

  /**
   * `0 … n − 1` by `scores` (each ≥ 0, not NaN), highest first; the returned array is valid
   * until the next call.
   */
  descending(scores: ArrayLike<number>, n: number): Int32Array {
    this.reserve(n);
    const values = this.values;
    // + 0 turns a −0 (sign bit set: it would sort above everything) into 0.
    for (let i = 0; i < n; i++) values[i] = scores[i]! + 0;
    const words = new Uint32Array(values.buffer, 0, 2 * n);
    const counts = this.countBytes(words, n);
    let order = this.order;
    let spare = this.spare;
    for (let i = 0; i < n; i++) order[i] = i;
    for (let byte = 0; byte < 4; byte++) {
      const shift = 8 * byte;
      const base = 256 * byte;
      if (n === 0 || counts[base + ((words[HIGH_WORD]! >>> shift) & 255)] === n) continue;
      // Highest byte value first: bucket d starts after every bucket above it.
      let start = 0;
      for (let d = base + 255; d >= base; d--) {
        const size = counts[d]!;
        counts[d] = start;
        start += size;
      }
      for (let i = 0; i < n; i++) {
        const at = order[i]!;
        spare[counts[base + ((words[2 * at + HIGH_WORD]! >>> shift) & 255)]!++] = at;
      }
      const swapped = order;
      order = spare;
      spare = swapped;
    }
    this.order = order;
    this.spare = spare;
    finishByFullScore(order, values, n);
    return order.subarray(0, n);
  }

  /** Counts every score's four high-word bytes, each into its own 256 buckets. */
  private countBytes(words: Uint32Array, n: number): Int32Array {
    const counts = this.counts;
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const high = words[2 * i + HIGH_WORD]!;
      counts[high & 255]!++;
      counts[256 + ((high >>> 8) & 255)]!++;
      counts[512 + ((high >>> 16) & 255)]!++;
      counts[768 + (high >>> 24)]!++;
    }
    return counts;
  }

  private reserve(n: number): void {
    if (this.order.length >= n) return;
    const size = Math.max(n, 2 * this.order.length, 64);
    this.order = new Int32Array(size);
    this.spare = new Int32Array(size);
    this.values = new Float64Array(size);
  }
}

/**
 * Insertion sort by descending value, stable: after the radix passes only scores equal in their
 * high 32 bits can be out of order, and those are neighbours, so this is one pass over the list.
 */
function finishByFullScore(order: Int32Array, values: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const at = order[i]!;
    const value = values[at]!;
    let j = i - 1;
    while (j >= 0 && values[order[j]!]! < value) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = at;
  }
}
