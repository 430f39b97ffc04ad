/**
 * Indices ordered by score, highest first, equal scores in index order: exactly what a stable
 * `Array.prototype.sort((a, b) => scores[b] - scores[a])` gives, without a comparator call per
 * comparison. On the Argo CD queries with over 2,000 lexical hits that sort took about 1 ms of a
 * 2 ms search; this takes a fifth of it.
 *
 * How: a least-significant-digit radix sort, one byte of the score's IEEE 754 bits per pass. For
 * scores ≥ 0 (BM25 scores are) the bits, read as an unsigned integer, order as the values do;
 * each pass is stable, so equal scores keep index order. A pass whose byte is the same for every
 * score (the exponent's, mostly) is skipped. The arrays are reused from call to call.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Which 32-bit half of a float64 holds its low bits. */
const LOW_WORD = LITTLE_ENDIAN ? 0 : 1;

export class ScoreOrder {
  private order = new Int32Array(0);
  private spare = new Int32Array(0);
  private bits = new Float64Array(0);
  private readonly buckets = new Int32Array(256);

  /**
   * `0 … n − 1` by `scores` (each ≥ 0, not NaN), highest first; the returned array is valid
   * until the next call.
   */
  descending(scores: ArrayLike<number>, n: number): Int32Array {
    this.reserve(n);
    const bits = this.bits;
    // + 0 turns a −0 (sign bit set: it would sort above everything) into 0.
    for (let i = 0; i < n; i++) bits[i] = scores[i]! + 0;
    const words = new Uint32Array(bits.buffer, 0, 2 * n);
    let order = this.order;
    let spare = this.spare;
    for (let i = 0; i < n; i++) order[i] = i;
    for (let byte = 0; byte < 8; byte++) {
      const word = byte < 4 ? LOW_WORD : 1 - LOW_WORD;
      const shift = (byte & 3) * 8;
      if (this.countDigits(words, n, word, shift)) continue;
      const buckets = this.buckets;
      // Highest digit first: bucket d starts after every bucket above it.
      let start = 0;
      for (let d = 255; d >= 0; d--) {
        const size = buckets[d]!;
        buckets[d] = start;
        start += size;
      }
      for (let i = 0; i < n; i++) {
        const at = order[i]!;
        spare[buckets[(words[2 * at + word]! >>> shift) & 255]!++] = at;
      }
      const swapped = order;
      order = spare;
      spare = swapped;
    }
    this.order = order;
    this.spare = spare;
    return order.subarray(0, n);
  }

  /** Counts each digit's scores into `buckets`; whether all n share one digit (the pass changes nothing). */
  private countDigits(words: Uint32Array, n: number, word: number, shift: number): boolean {
    const buckets = this.buckets;
    buckets.fill(0);
    for (let i = 0; i < n; i++) buckets[(words[2 * i + word]! >>> shift) & 255]!++;
    return n === 0 || buckets[(words[word]! >>> shift) & 255] === n;
  }

  private reserve(n: number): void {
    if (this.order.length >= n) return;
    const size = Math.max(n, 2 * this.order.length, 64);
    this.order = new Int32Array(size);
    this.spare = new Int32Array(size);
    this.bits = new Float64Array(size);
  }
}
