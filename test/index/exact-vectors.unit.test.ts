import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactVectorIndex } from '../../src/index/vector-index.js';

/** The reference: every row's dot product, sorted best first, equal scores by row. */
function reference(data: Float32Array, dims: number, query: Float32Array, k: number): number[] {
  const rows = data.length / dims;
  const scores = Array.from({ length: rows }, (_, row) => {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += data[row * dims + d]! * query[d]!;
    return dot;
  });
  return scores
    .map((score, row) => ({ score, row }))
    .sort((a, b) => b.score - a.score || a.row - b.row)
    .slice(0, k)
    .map((x) => x.row);
}

describe('ExactVectorIndex', () => {
  it('returns the k best rows, best first, equal scores by row, like sorting every row', () => {
    // Small integers make many exact ties, the case a heap gets wrong first.
    const value = fc.integer({ min: -2, max: 2 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 50 }),
        fc.array(value, { minLength: 160, maxLength: 160 }),
        fc.array(value, { minLength: 4, maxLength: 4 }),
        (dims, rows, k, pool, q) => {
          const data = Float32Array.from(pool.slice(0, dims * rows));
          const usable = Math.floor(data.length / dims) * dims;
          const matrix = { dims, data: data.subarray(0, usable) };
          const query = Float32Array.from(q.slice(0, dims));
          const hits = new ExactVectorIndex(matrix).search(query, k);
          expect(hits.ids).toEqual(reference(matrix.data, dims, query, k));
          const dot = (row: number) => query.reduce((sum, x, d) => sum + x * matrix.data[row * dims + d]!, 0);
          expect(hits.scores).toEqual(hits.ids.map(dot));
        },
      ),
      { numRuns: 500, seed: 11 },
    );
  });
});
