import { describe, expect, it } from 'vitest';
import type { LexicalHits } from '../../src/index/lexical-accumulator.js';
import { CandidateFiller, MAX_LEXICAL_CANDIDATES } from '../../src/search/candidate-slots.js';
import { Candidates } from '../../src/search/fuse.js';

/** Lexical hits on sections 0 … n−1 whose scores repeat (ties), in a scrambled section order. */
function hits(n: number): LexicalHits {
  const sections = Int32Array.from({ length: n }, (_, i) => (i * 7) % n);
  return {
    sections,
    scores: Float64Array.from(sections, (s) => (s % 50) / 4),
    coverage: Float64Array.from(sections, (s) => (s % 3) / 3),
    matched: Int32Array.from(sections, (s) => s % 4),
    ownTermShare: [0.5, 0.5],
    ownTermsFound: 3,
    ownTerms: ['a', 'b'],
  };
}

describe('CandidateFiller', () => {
  it(`keeps all lexical hits in hit order, or the best ${MAX_LEXICAL_CANDIDATES} by score with ties in hit order`, () => {
    const filler = new CandidateFiller();
    for (const n of [10, MAX_LEXICAL_CANDIDATES, 2 * MAX_LEXICAL_CANDIDATES + 1]) {
      const h = hits(n);
      const c = new Candidates();
      const slotOf = new Int32Array(n);
      filler.addLexical(c, slotOf, h);
      const expected = Array.from({ length: n }, (_, i) => i);
      if (n > MAX_LEXICAL_CANDIDATES)
        expected.sort((a, b) => h.scores[b]! - h.scores[a]!).splice(MAX_LEXICAL_CANDIDATES);
      expect(Array.from(c.section.subarray(0, c.count))).toEqual(expected.map((i) => h.sections[i]));
      expect(Array.from(c.lexical.subarray(0, c.count))).toEqual(expected.map((i) => h.scores[i]));
      for (let slot = 0; slot < c.count; slot++) expect(slotOf[c.section[slot]!]).toBe(slot + 1);
    }
  });

  it("gives a candidate the vector search's cosine when it returned the section, its dot product otherwise", () => {
    const dims = 3;
    const data = Float32Array.of(1, 0, 0, 0, 1, 0, 0.6, 0.8, 0, 0, 0, 1);
    const query = Float32Array.of(0.6, 0.8, 0);
    const c = new Candidates();
    const slotOf = new Int32Array(4);
    const filler = new CandidateFiller();
    filler.addLexical(c, slotOf, { ...hits(3), sections: Int32Array.of(0, 1, 3) });
    // The vector side returns section 2 (new) and section 1 (a lexical candidate), with its own scores.
    filler.addVector(c, slotOf, { ids: [2, 1], scores: [0.99, 0.75] }, { dims, data }, query);
    expect(Array.from(c.section.subarray(0, c.count))).toEqual([0, 1, 3, 2]);
    expect(Array.from(c.cosine.subarray(0, c.count))).toEqual([Math.fround(0.6) * 1, 0.75, 0, 0.99]);
    expect(c.lexical[3]).toBe(0);
  });
});
