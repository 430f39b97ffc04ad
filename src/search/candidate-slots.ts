import type { LexicalHits } from '../index/lexical-index.js';
import type { VectorHits, VectorMatrix } from '../index/vector-index.js';
import type { Candidates } from './fuse.js';

/**
 * Filling the candidate columns from both retrievers. `slotOf` maps a section to its candidate
 * slot + 1 (0 for none), so the vector side can find a section the lexical side already added.
 */

/** The lexical stage's answer when it does not run (vector-only retrieval). */
export const NO_HITS: LexicalHits = {
  sections: new Int32Array(0),
  scores: new Float64Array(0),
  coverage: new Float64Array(0),
  matched: new Int32Array(0),
  ownTermShare: [],
};

/** Lexical candidates beyond this many (by score) cannot reach the top results; skip their cosine. */
export const MAX_LEXICAL_CANDIDATES = 2000;

/** Adds the lexical hits as candidates: all of them, or the best MAX_LEXICAL_CANDIDATES by score. */
export function addLexicalCandidates(c: Candidates, slotOf: Int32Array, hits: LexicalHits): void {
  const n = hits.sections.length;
  if (n <= MAX_LEXICAL_CANDIDATES) {
    for (let i = 0; i < n; i++)
      slotOf[hits.sections[i]!] = c.add(hits.sections[i]!, hits.scores[i]!, hits.coverage[i]!, 0, hits.matched[i]!) + 1;
  } else {
    const kept = Array.from({ length: n }, (_, i) => i)
      .sort((a, b) => hits.scores[b]! - hits.scores[a]!)
      .slice(0, MAX_LEXICAL_CANDIDATES);
    for (const i of kept)
      slotOf[hits.sections[i]!] = c.add(hits.sections[i]!, hits.scores[i]!, hits.coverage[i]!, 0, hits.matched[i]!) + 1;
  }
}

/** Adds each candidate's cosine, and the vector side's own nearest sections (`near`) as new candidates. */
export function addVectorCandidates(
  c: Candidates,
  slotOf: Int32Array,
  near: VectorHits,
  vectors: VectorMatrix,
  queryVector: Float32Array,
): void {
  const lexicalCount = c.count;
  const hasCosine = new Uint8Array(lexicalCount);
  for (let i = 0; i < near.ids.length; i++) {
    const section = near.ids[i]!;
    const slot = slotOf[section]! - 1;
    if (slot >= 0) {
      c.cosine[slot] = near.scores[i]!;
      hasCosine[slot] = 1;
    } else {
      slotOf[section] = c.add(section, 0, 0, near.scores[i]!, 0) + 1;
    }
  }
  // Lexical candidates the vector search did not return still get their true cosine.
  const { dims, data } = vectors;
  for (let i = 0; i < lexicalCount; i++)
    if (hasCosine[i] === 0) c.cosine[i] = dot(data, c.section[i]! * dims, queryVector, dims);
}

/** Dot product of a row of `data` (from `base`) with `query`: the cosine, as the vectors are unit length. */
function dot(data: Float32Array, base: number, query: Float32Array, dims: number): number {
  let sum = 0;
  let d = 0;
  // Unrolled, but summed in the same order as a plain loop: the same double result, bit for bit.
  for (; d + 4 <= dims; d += 4) {
    sum += data[base + d]! * query[d]!;
    sum += data[base + d + 1]! * query[d + 1]!;
    sum += data[base + d + 2]! * query[d + 2]!;
    sum += data[base + d + 3]! * query[d + 3]!;
  }
  for (; d < dims; d++) sum += data[base + d]! * query[d]!;
  return sum;
}
