import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSAGES, passageOptions, UnknownPassageOptionError } from '../../src/search/passage-options.js';

describe('passage options: every fitted number in one frozen object', () => {
  it('cannot be changed in place, so a tuning run cannot leak its values into the next', () => {
    expect(Object.isFrozen(DEFAULT_PASSAGES)).toBe(true);
    expect(() => {
      (DEFAULT_PASSAGES as { rankDecay: number }).rankDecay = 9;
    }).toThrow(TypeError);
  });

  it('takes overrides as a copy and refuses a field it does not have', () => {
    const tuned = passageOptions({ rankDecay: 0.9 });
    expect(tuned.rankDecay).toBe(0.9);
    expect(DEFAULT_PASSAGES.rankDecay).not.toBe(0.9);
    expect(() => passageOptions({ rankDecy: 1 } as never)).toThrow(UnknownPassageOptionError);
  });
});
