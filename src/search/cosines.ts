import type { VectorMatrix } from '../index/vector-index.js';

/**
 * Cosines of a query vector with chosen rows of the section matrix (the vectors are unit length,
 * so a dot product is the cosine). Each row's sum is taken in the same order as a plain loop over
 * the dimensions, so every value is the same double, bit for bit, as `Σ row[d] × query[d]`; but
 * four rows are summed side by side, which keeps the processor busy while each addition waits
 * on the one before it, and reads each query value once for the four.
 */

/** The query's values as doubles (exact: every float32 is a double), reused from call to call. */
let queryScratch = new Float64Array(0);

/** `out[i]` = cosine of `query` with row `rows[i]` of `matrix`, for i < `count`. */
export function cosinesOf(
  matrix: VectorMatrix,
  query: Float32Array,
  rows: Int32Array,
  count: number,
  out: Float64Array,
): void {
  const { dims, data } = matrix;
  if (queryScratch.length < dims) queryScratch = new Float64Array(dims);
  const q = queryScratch;
  for (let d = 0; d < dims; d++) q[d] = query[d]!;
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const a = rows[i]! * dims;
    const b = rows[i + 1]! * dims;
    const c = rows[i + 2]! * dims;
    const e = rows[i + 3]! * dims;
    let sumA = 0;
    let sumB = 0;
    let sumC = 0;
    let sumE = 0;
    for (let d = 0; d < dims; d++) {
      const x = q[d]!;
      sumA += data[a + d]! * x;
      sumB += data[b + d]! * x;
      sumC += data[c + d]! * x;
      sumE += data[e + d]! * x;
    }
    out[i] = sumA;
    out[i + 1] = sumB;
    out[i + 2] = sumC;
    out[i + 3] = sumE;
  }
  for (; i < count; i++) {
    const base = rows[i]! * dims;
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += data[base + d]! * q[d]!;
    out[i] = sum;
  }
}
