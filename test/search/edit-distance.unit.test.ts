import levenshtein from 'damerau-levenshtein';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { characterMask, distanceAtLeast, EditDistance } from '../../src/search/edit-distance.js';

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

describe('distanceAtLeast', () => {
  it('never exceeds the distance, so the strings it rules out are never the nearest', () => {
    const wide = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'q', '1', 'A', '-', 'é', '😀'), maxLength: 12 });
    fc.assert(
      fc.property(wide, wide, (a, b) => {
        expect(distanceAtLeast(characterMask(a), characterMask(b))).toBeLessThanOrEqual(levenshtein(a, b).steps);
      }),
      { numRuns: 5000, seed: 20261124 },
    );
  });

  it('rules out words that share few letters, and keeps near misses', () => {
    expect(distanceAtLeast(characterMask('signiture'), characterMask('signature'))).toBe(1);
    expect(distanceAtLeast(characterMask('kutsomize'), characterMask('kustomize'))).toBe(0);
    expect(distanceAtLeast(characterMask('webhook'), characterMask('zebrafish'))).toBeGreaterThan(2);
    // Every bit, the sign bit included: 32 bits apart is 16 edits at least.
    expect(distanceAtLeast(0, -1)).toBe(16);
    expect(distanceAtLeast(characterMask('\u001f'), characterMask('@'))).toBe(1);
  });
});
