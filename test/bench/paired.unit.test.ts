import { describe, expect, it } from 'vitest';
import {
  bootstrapInterval,
  EXACT_LIMIT,
  PairedInputError,
  pairedByQuery,
  pairedTest,
  signFlipP,
} from '../../bench/lib/paired.js';

describe('paired sign-flip test', () => {
  it('finds no difference between identical systems', () => {
    const t = pairedTest([1, 0, 1, 0.5], [1, 0, 1, 0.5]);
    expect(t.meanDifference).toBe(0);
    expect(t.p).toBe(1);
    expect(t.ci95).toEqual([0, 0]);
  });

  it('gives the exact two-sided p-value for a small sample', () => {
    // Five wins of 1: only all-plus and all-minus are as extreme, 2 of 32 assignments.
    expect(signFlipP([1, 1, 1, 1, 1])).toEqual({ p: 2 / 32, exact: true });
    // Wins of 1, 1 and a loss of 1: |sum| ≥ 1 in every one of the 8 assignments.
    expect(signFlipP([1, 1, -1]).p).toBe(1);
    // Zero differences carry no sign: they neither count nor dilute.
    expect(signFlipP([0, 1, 0, 1, 1, 0, 1, 1])).toEqual({ p: 2 / 32, exact: true });
  });

  it('reports the mean difference, wins and losses of b over a', () => {
    const t = pairedTest([0, 0, 1, 1], [1, 1, 1, 0]);
    expect(t.meanA).toBe(0.5);
    expect(t.meanB).toBe(0.75);
    expect(t.meanDifference).toBe(0.25);
    expect([t.better, t.worse]).toEqual([2, 1]);
  });

  it('samples large inputs deterministically and separates a clear effect from noise', () => {
    const n = 60;
    const a = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const clear = a.map(() => 1);
    const t1 = pairedTest(a, clear, { seed: 7 });
    const t2 = pairedTest(a, clear, { seed: 7 });
    expect(t1.exact).toBe(false);
    expect(t1).toEqual(t2);
    expect(t1.p).toBeLessThan(0.001);
    expect(t1.ci95[0]).toBeGreaterThan(0.5);
    // Half the queries gain, half lose the same: no effect.
    const mixed = a.map((x, i) => (i < n / 2 ? x + 1 : x - 1));
    expect(pairedTest(a, mixed).p).toBeGreaterThan(0.9);
  });

  it('switches from enumeration to sampling beyond the exact limit', () => {
    expect(signFlipP(Array(EXACT_LIMIT).fill(1)).exact).toBe(true);
    const sampled = signFlipP(Array(EXACT_LIMIT + 1).fill(1), { rounds: 999 });
    expect(sampled.exact).toBe(false);
    // No random assignment beats all-plus except all-plus/all-minus themselves: p is about 1 / 1000.
    expect(sampled.p).toBeLessThan(0.01);
  });

  it('brackets the mean difference with the bootstrap interval', () => {
    const d = [0.1, 0.3, -0.2, 0.4, 0.0, 0.2, 0.1, -0.1, 0.3, 0.2];
    const [lo, hi] = bootstrapInterval(d, { seed: 3 });
    const m = d.reduce((s, x) => s + x, 0) / d.length;
    expect(lo).toBeLessThan(m);
    expect(hi).toBeGreaterThan(m);
    expect(hi - lo).toBeLessThan(0.4);
  });

  it('pairs per-query records by id, not by position', () => {
    const a = [
      { id: 'x', s: 0 },
      { id: 'y', s: 1 },
    ];
    const b = [
      { id: 'y', s: 1 },
      { id: 'x', s: 1 },
    ];
    expect(pairedByQuery(a, b, (r) => r.s).meanDifference).toBe(0.5);
    expect(() => pairedByQuery(a, [b[0]!], (r) => r.s)).toThrow(PairedInputError);
    expect(() => pairedTest([1], [1, 2])).toThrow(PairedInputError);
  });
});
