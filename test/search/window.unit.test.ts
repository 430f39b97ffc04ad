import { describe, expect, it } from 'vitest';
import { windowAround, WINDOW_RADIUS } from '../../src/search/window.js';

describe('windowAround', () => {
  it('is centred with 15 sections on each side when the document allows', () => {
    expect(WINDOW_RADIUS).toBe(15);
    expect(windowAround(50, 100)).toEqual({ from: 35, to: 65 });
  });

  it('never holds more than 31 sections', () => {
    for (const [best, n] of [
      [0, 1],
      [15, 31],
      [40, 200],
      [199, 200],
    ] as const) {
      const w = windowAround(best, n);
      expect(w.to - w.from + 1).toBeLessThanOrEqual(31);
      expect(w.from).toBeLessThanOrEqual(best);
      expect(w.to).toBeGreaterThanOrEqual(best);
    }
  });

  it('is clamped at both ends of the document', () => {
    expect(windowAround(3, 100)).toEqual({ from: 0, to: 18 });
    expect(windowAround(97, 100)).toEqual({ from: 82, to: 99 });
    expect(windowAround(0, 1)).toEqual({ from: 0, to: 0 });
  });

  it('rejects a best section outside the document', () => {
    expect(() => windowAround(5, 5)).toThrow(RangeError);
    expect(() => windowAround(-1, 5)).toThrow(RangeError);
  });
});
