import levenshtein from 'damerau-levenshtein';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EditDistance } from '../../src/search/edit-distance.js';

/** Short strings over a small alphabet, so transpositions, repeats and near misses are common. */
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'e', 'é', '😀'), maxLength: 12 });

describe('EditDistance', () => {
  it("is the damerau-levenshtein package's steps up to the bound, and bound + 1 beyond it", () => {
    const distance = new EditDistance();
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 14 }), (a, b, bound) => {
        expect(distance.atMost(a, b, bound)).toBe(Math.min(levenshtein(a, b).steps, bound + 1));
      }),
      { numRuns: 5000, seed: 20261123 },
    );
  });

  it('counts a swap of neighbours as one edit, a swap across a letter as two', () => {
    const distance = new EditDistance();
    expect(distance.atMost('signiture', 'signature', 2)).toBe(1);
    expect(distance.atMost('entityeventsequnce', 'entityeventsequence', 2)).toBe(1);
    expect(distance.atMost('kutsomize', 'kustomize', 2)).toBe(1);
    expect(distance.atMost('abc', 'cba', 5)).toBe(2);
    expect(distance.atMost('ca', 'abc', 5)).toBe(3);
  });
});
