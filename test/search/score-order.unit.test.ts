import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScoreOrder } from '../../src/search/score-order.js';

/** The order the candidates were taken in before: a stable sort by descending score. */
const comparatorOrder = (scores: number[]) =>
  Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]!);

/** Scores as BM25 gives them: non-negative doubles, with many exact ties (and zeros). */
const scoreList = fc.array(
  fc.oneof(
    fc.constantFrom(0, 0.5, 1, 2.25, 17.125),
    fc.double({ min: 0, max: 1e6, noNaN: true }),
    fc.double({ min: 0, max: 1e-300, noNaN: true }),
  ),
  { maxLength: 600 },
);

describe('ScoreOrder', () => {
  it('orders by score, highest first, equal scores by index: as the stable comparator sort did', () => {
    const order = new ScoreOrder();
    fc.assert(
      fc.property(scoreList, (scores) => {
        expect([...order.descending(Float64Array.from(scores), scores.length)]).toEqual(comparatorOrder(scores));
      }),
      { numRuns: 500, seed: 20261123 },
    );
  });

  it('orders only the first n scores, reusing its arrays from a longer call to a shorter one', () => {
    const order = new ScoreOrder();
    const long = Float64Array.from({ length: 3000 }, (_, i) => (i * 7919) % 1000);
    expect([...order.descending(long, 3000)]).toEqual(comparatorOrder([...long]));
    expect([...order.descending(Float64Array.of(1, 3, 2, 3, 9), 4)]).toEqual([1, 3, 2, 0]);
  });

  it('orders scores that differ only in their last bits, and equal ones by index', () => {
    // 1 + k·2⁻⁴⁰ share sign, exponent and the high 20 bits of mantissa: only the low word tells them apart.
    const scores = [3, 7, 1, 7, 0, 5, 2, 5, 6, 4].map((k) => 1 + k * 2 ** -40);
    expect([...new ScoreOrder().descending(Float64Array.from(scores), scores.length)]).toEqual(comparatorOrder(scores));
  });

  it('puts −0 with 0, not above every score', () => {
    expect([...new ScoreOrder().descending(Float64Array.of(-0, 1, 0), 3)]).toEqual([1, 0, 2]);
  });
});
