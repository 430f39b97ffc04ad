import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HASH_START, hashStep, PieceTable } from '../../src/embedding/piece-table.js';

describe('PieceTable', () => {
  it('answers what the Map it was made from answers, for whole strings and substrings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 6 }), fc.integer({ min: 0, max: 50 })), {
          maxLength: 60,
        }),
        fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 20 }),
        (entries, probes) => {
          const map = new Map(entries);
          const table = PieceTable.fromMap(map);
          for (const [piece] of entries) expect(table.get(piece)).toBe(map.get(piece));
          for (const probe of probes) {
            expect(table.get(probe)).toBe(map.get(probe));
            const text = `ab${probe}cd`;
            expect(table.get(text, 2, 2 + probe.length)).toBe(map.get(probe));
          }
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });

  it('keeps the last id of a repeated piece, as Map.set does, also when read back from its arrays', () => {
    const arrays = { units: new Uint16Array([97, 98, 97, 98, 99]), starts: new Uint32Array([0, 2, 4, 5]) };
    const table = PieceTable.fromArrays({ ...arrays, ids: new Int32Array([1, 2, 3]) });
    expect(table.get('ab')).toBe(2);
    expect(table.get('c')).toBe(3);
    expect(table.get('a')).toBeUndefined();
    expect(table.get('')).toBeUndefined();
  });

  it('finds a piece by a hash grown one unit at a time', () => {
    const table = PieceTable.fromMap(new Map([['sync', 7]]));
    let hash = HASH_START;
    for (const c of 'sync') hash = hashStep(hash, c.charCodeAt(0));
    expect(table.getHashed(hash, 'async', 1, 5)).toBe(7);
  });

  it('refuses arrays that do not fit together', () => {
    const units = new Uint16Array([97]);
    expect(() => PieceTable.fromArrays({ units, starts: new Uint32Array([0, 2]), ids: new Int32Array([1]) })).toThrow(
      RangeError,
    );
    expect(() =>
      PieceTable.fromArrays({ units, starts: new Uint32Array([0, 1]), ids: new Int32Array([1, 2]) }),
    ).toThrow(RangeError);
  });

  it('is read back with its stored hash slots, answering as the table they were built for', () => {
    const map = new Map([
      ['sync', 7],
      ['async', 8],
      ['▁test', 9],
    ]);
    const built = PieceTable.fromMap(map);
    const { slots } = built.arrays;
    expect(slots.some((s) => s !== 0)).toBe(true);
    const restored = PieceTable.fromArrays({ ...built.arrays, slots: slots.slice() });
    for (const probe of [...map.keys(), 'syn', 'tests', '']) expect(restored.get(probe)).toBe(map.get(probe));
  });

  it('refuses stored hash slots of the wrong size, and never hangs on damaged ones', () => {
    const { arrays } = PieceTable.fromMap(new Map([['sync', 7]]));
    expect(() => PieceTable.fromArrays({ ...arrays, slots: new Int32Array(512) })).toThrow(RangeError);
    // Every slot full (no empty one to end a probe), or naming pieces that do not exist: no match.
    for (const slots of [new Int32Array(1024).fill(1), new Int32Array(1024).fill(5), new Int32Array(1024).fill(-3)]) {
      const table = PieceTable.fromArrays({ ...arrays, slots });
      expect(table.get('async')).toBeUndefined();
    }
    expect(PieceTable.fromArrays({ ...arrays, slots: new Int32Array(1024).fill(1) }).get('sync')).toBe(7);
  });
});
