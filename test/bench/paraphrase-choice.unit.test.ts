import { describe, expect, it } from 'vitest';
import { chooseFor, judge, LeakedCorpusError, merit, type Outcome } from '../../bench/quality/paraphrase-choice.js';

/** The leave-one-corpus-out choice of bench/quality/paraphrase-loco.ts: only other corpora steer it. */

const q = (style: string, hit5Full: number, hit1 = 1, hit5 = 1): Outcome => ({
  id: `${style}-${hit5Full}`,
  style,
  hit1,
  hit5,
  hit5Full,
});
const base = [q('paraphrase', 0), q('paraphrase', 1), q('keyword', 1)];
const better = [q('paraphrase', 1), q('paraphrase', 1), q('keyword', 1)];
const costly = [q('paraphrase', 1), q('paraphrase', 1), q('keyword', 1, 0, 0)];

describe('paraphrase LOCO choice', () => {
  it('credits paraphrase whole-window hits and charges what the other styles lose', () => {
    expect(merit(base, base)).toBe(0.5);
    expect(merit(better, base)).toBe(1);
    expect(merit(costly, base)).toBe(-1);
  });

  it('chooses on the other corpora: the variant that wins there, the baseline on a tie', () => {
    const training = [
      { corpus: 'a', byVariant: [base, better, costly] },
      { corpus: 'b', byVariant: [base, better, base] },
    ];
    expect(chooseFor('c', training)).toBe(1);
    expect(chooseFor('c', [{ corpus: 'a', byVariant: [base, base] }])).toBe(0);
  });

  it("refuses a choice that was handed the left-out corpus's own queries", () => {
    const training = [
      { corpus: 'a', byVariant: [base, better] },
      { corpus: 'c', byVariant: [base, better] },
    ];
    expect(() => chooseFor('c', training)).toThrow(LeakedCorpusError);
  });

  it('judges paraphrases and the other styles apart', () => {
    const j = judge(costly);
    expect([j.paraHit5Full, j.otherHit1, j.otherHit5, j.paraphrases, j.queries]).toEqual([1, 0, 0, 2, 3]);
  });
});
