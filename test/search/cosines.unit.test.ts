import { describe, expect, it } from 'vitest';
import { cosinesOf } from '../../src/search/cosines.js';

/** A deterministic pseudo-random float32 matrix (what index vectors are stored as). */
function matrix(rows: number, dims: number): Float32Array {
  let x = 12345;
  return Float32Array.from({ length: rows * dims }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 30 - 1;
  });
}

describe('cosinesOf', () => {
  it('gives each chosen row the plain loop’s dot product bit for bit, rows in any order and count', () => {
    for (const dims of [1, 3, 100, 256]) {
      const data = matrix(50, dims);
      const query = matrix(1, dims).map((v) => v / 2);
      for (const count of [0, 1, 4, 5, 7, 13]) {
        const rows = Int32Array.from({ length: count }, (_, i) => (i * 17) % 50);
        const out = new Float64Array(count);
        cosinesOf({ dims, data }, query, rows, count, out);
        const plain = [...rows].map((row) => {
          let sum = 0;
          for (let d = 0; d < dims; d++) sum += data[row * dims + d]! * query[d]!;
          return sum;
        });
        expect([...out]).toEqual(plain);
      }
    }
  });
});
