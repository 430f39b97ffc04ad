/**
 * Optimal-string-alignment distance between two strings, by UTF-16 code unit: insertions,
 * deletions, substitutions and transpositions of adjacent characters, no substring edited twice.
 * It is the `steps` of the damerau-levenshtein package, which typo correction called once per
 * candidate term: that allocates a fresh matrix of arrays each time, while this keeps three rows
 * of typed arrays, reused, and gives up once the distance must exceed the bound its caller cares
 * about. (A row's smallest entry is never below the smaller of the two rows before it, so when
 * two rows in a row exceed the bound, so does the distance.)
 */
export class EditDistance {
  private rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];

  /** The distance between `a` and `b` when it is at most `bound`, otherwise `bound + 1`. */
  atMost(a: string, b: string, bound: number): number {
    const m = b.length;
    if (this.rows[0].length <= m) this.rows = [new Int32Array(m + 1), new Int32Array(m + 1), new Int32Array(m + 1)];
    // Rows i − 2, i − 1 and i of the distance matrix.
    let [older, previous, current] = this.rows;
    for (let j = 0; j <= m; j++) previous[j] = j;
    let previousMin = 0;
    for (let i = 1; i <= a.length; i++) {
      const ai = a.charCodeAt(i - 1);
      current[0] = i;
      let rowMin = i;
      for (let j = 1; j <= m; j++) {
        const bj = b.charCodeAt(j - 1);
        const cost = ai === bj ? 0 : 1;
        let best = previous[j]! + 1;
        if (current[j - 1]! + 1 < best) best = current[j - 1]! + 1;
        if (previous[j - 1]! + cost < best) best = previous[j - 1]! + cost;
        if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && older[j - 2]! + cost < best)
          best = older[j - 2]! + cost;
        current[j] = best;
        if (best < rowMin) rowMin = best;
      }
      if (rowMin > bound && previousMin > bound) return bound + 1;
      previousMin = rowMin;
      [older, previous, current] = [previous, current, older];
    }
    return Math.min(previous[m]!, bound + 1);
  }
}

/**
 * Which characters a string holds, as 32 bits (a code unit's bit is its value mod 32: `a`–`z`
 * each have their own). Compared by `distanceAtLeast` before the distance itself is worked out.
 */
export function characterMask(s: string): number {
  let mask = 0;
  for (let i = 0; i < s.length; i++) mask |= 1 << (s.charCodeAt(i) & 31);
  return mask;
}

/**
 * A lower bound on the distance of two strings, from their character masks: an insertion or
 * deletion sets or clears at most one bit, a substitution at most two, a transposition none, so
 * masks that differ in n bits are at least ⌈n / 2⌉ edits apart. Most of a vocabulary differs from
 * a word in far more letters than two edits can explain, and is ruled out without a matrix.
 */
export function distanceAtLeast(maskA: number, maskB: number): number {
  let bits = maskA ^ maskB;
  bits -= (bits >>> 1) & 0x55555555;
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  const count = Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  return (count + 1) >> 1;
}
