import { describe, expect, it } from 'vitest';
import { feedbackApplies, feedbackSections, feedbackTerms, DEFAULT_FEEDBACK } from '../../src/search/feedback.js';

/** Query expansion from the best-matching sections' own words (src/search/feedback.ts). */

describe('feedbackSections', () => {
  it("takes each page's best section, best pages first, weighted against the best", () => {
    const hits = { sections: Int32Array.from([0, 1, 2, 3]), scores: Float64Array.from([2, 8, 4, 1]) };
    const docOf = (s: number) => (s < 2 ? 0 : s === 2 ? 1 : 2);
    expect(feedbackSections(hits, docOf, 2)).toEqual([
      { section: 1, weight: 1 },
      { section: 2, weight: 0.5 },
    ]);
  });
});

describe('feedbackTerms', () => {
  const settings = { terms: 2, weight: 0.4, minSections: 2 };
  const texts = [
    { text: 'Self-healing: drift is reverted when the cluster drifts from git. Reconcile often.', weight: 1 },
    { text: 'Drift detection compares live state with git; the reconcile loop repairs it.', weight: 0.5 },
  ];

  it('adds the words several best sections share, rare ones first, below the own words', () => {
    const query = new Map([['cluster', 1]]);
    const rarity = (t: string) => (t === 'git' ? 0.1 : 1);
    const added = feedbackTerms(texts, query, rarity, settings);
    expect([...added.keys()]).toEqual(['drift', 'reconcil']);
    expect(added.get('drift')).toBeCloseTo(0.4);
    expect(added.get('reconcil')!).toBeLessThan(0.4);
  });

  it("never adds the query's own terms or a word only one section uses", () => {
    const added = feedbackTerms(texts, new Map([['drift', 1]]), () => 1, { ...settings, terms: 10 });
    expect(added.has('drift')).toBe(false);
    expect(added.has('loop')).toBe(false);
  });

  it('is off by default and, when on, for questions only unless set for all', () => {
    expect(feedbackApplies(DEFAULT_FEEDBACK, true)).toBe(false);
    const on = { ...DEFAULT_FEEDBACK, sections: 5 };
    expect([feedbackApplies(on, true), feedbackApplies(on, false)]).toEqual([true, false]);
    expect(feedbackApplies({ ...on, queries: 'all' }, false)).toBe(true);
  });
});
