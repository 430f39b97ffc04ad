import { describe, expect, it } from 'vitest';
import { Candidates, fuseSections as fuseInto, type SectionEvidence } from '../../src/search/fuse.js';
import { rankDocuments } from './rank-documents.js';
import { relevanceFor } from '../../src/search/relevance.js';
import { DEFAULT_PASSAGES } from '../../src/search/passage-options.js';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '../../src/search/relevance.js';

const e = (section: number, lexical: number, cosine: number, coverage = 0.5, matched = 0): SectionEvidence => ({
  section,
  lexical,
  cosine,
  coverage,
  matched,
});

/** Fuses `evidence` into candidate columns, returning them and each candidate's score in order. */
function fuseSections(evidence: SectionEvidence[], vectorWeight: number): Candidates & { scores: number[] } {
  const c = Candidates.of(evidence);
  fuseInto(c, vectorWeight);
  return Object.assign(c, { scores: Array.from(c.score.subarray(0, c.count)) });
}

describe('fuseSections', () => {
  it('lets a small vector weight break a lexical tie but not overturn a clear lexical lead', () => {
    const tie = fuseSections([e(0, 10, 0.2), e(1, 10, 0.9)], 0.1);
    expect(tie.scores[1]!).toBeGreaterThan(tie.scores[0]!);
    const lead = fuseSections([e(0, 10, 0.2), e(1, 6, 0.9)], 0.1);
    expect(lead.scores[0]!).toBeGreaterThan(lead.scores[1]!);
  });

  it('falls back to the vector side entirely when no term matched', () => {
    const fused = fuseSections([e(0, 0, 0.3), e(1, 0, 0.8)], 0.1);
    expect(fused.scores[1]!).toBe(1);
    expect(fused.scores[0]!).toBe(0);
  });

  it('keeps scores in [0, 1]', () => {
    for (const score of fuseSections([e(0, 3, -0.2), e(1, 7, 0.4), e(2, 0, 0.99)], 0.3).scores) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });
});

describe('rankDocuments', () => {
  const docOf = (s: number) => Math.floor(s / 10);

  it('returns one hit per document with its best section', () => {
    const fused = fuseSections([e(1, 5, 0), e(2, 9, 0), e(11, 7, 0)], 0);
    const hits = rankDocuments(fused, docOf, 0, 10);
    expect(hits.map((h) => [h.doc, h.best.section])).toEqual([
      [0, 2],
      [1, 11],
    ]);
  });

  it('adds supporting sections at the given weight, so breadth breaks near-ties', () => {
    const fused = fuseSections([e(1, 10, 0), e(11, 10, 0), e(12, 8, 0), e(13, 8, 0)], 0);
    expect(rankDocuments(fused, docOf, 0.2, 10)[0]!.doc).toBe(1);
    expect(rankDocuments(fused, docOf, 0, 10).map((h) => h.score)).toEqual([1, 1]);
  });

  it("adds the share of the query's own terms a page matches across its sections, each term once", () => {
    // Query terms a, b, c worth 0.5, 0.3, 0.2. Page 0: one strong section matching a. Page 1: a
    // weaker section matching a and b, another matching c (and a again).
    const termShare = [0.5, 0.3, 0.2];
    const fused = fuseSections([e(1, 10, 0, 0.5, 0b001), e(11, 9, 0, 0.8, 0b011), e(12, 2, 0, 0.7, 0b101)], 0);
    expect(rankDocuments(fused, docOf, 0, 10)[0]!.doc).toBe(0);
    const hits = rankDocuments(fused, docOf, 0, 10, { weight: 0.3, termShare });
    expect(hits[0]!.doc).toBe(1);
    expect(hits[0]!.score).toBeCloseTo(0.9 + 0.3 * 1.0);
    expect(hits[1]!.score).toBeCloseTo(1 + 0.3 * 0.5);
    // Terms a page matched in sections cut from the candidates still count, once.
    const withCut = rankDocuments(fused, docOf, 0, 10, {
      weight: 0.3,
      termShare,
      matchedByDoc: (doc) =>
        new Map([
          [0, 0b101],
          [1, 0b001],
        ]).get(doc) ?? 0,
    });
    expect(withCut.find((h) => h.doc === 0)!.score).toBeCloseTo(1 + 0.3 * 0.7);
    expect(withCut.find((h) => h.doc === 1)!.score).toBeCloseTo(0.9 + 0.3 * 1.0);
  });

  it('honours the limit', () => {
    const fused = fuseSections([e(1, 1, 0), e(11, 2, 0), e(21, 3, 0)], 0);
    expect(rankDocuments(fused, docOf, 0, 2)).toHaveLength(2);
  });
});

describe('relevanceFor', () => {
  it('maps confidence bands to labels and stars', () => {
    const t = DEFAULT_RELEVANCE_THRESHOLDS;
    expect(relevanceFor(1, t)).toEqual({ label: 'Excellent match', stars: 3 });
    expect(relevanceFor(t.veryRelevant, t)).toEqual({ label: 'Very relevant', stars: 2 });
    expect(relevanceFor(t.relevant, t)).toEqual({ label: 'Relevant', stars: 1 });
    expect(relevanceFor(t.moderate, t)).toEqual({ label: 'Moderate match', stars: 0 });
    expect(relevanceFor(0, t)).toEqual({ label: 'Somewhat relevant', stars: 0 });
  });

  it('stars a result only when its best section holds more than the star rule asks, the shipped rule by default', () => {
    const t = DEFAULT_RELEVANCE_THRESHOLDS;
    const moderate = { label: 'Moderate match', stars: 0 };
    const shipped = DEFAULT_PASSAGES.starMinMatch;
    expect(relevanceFor(1, t, shipped)).toEqual(moderate);
    expect(relevanceFor(1, t, shipped + 0.01)).toEqual({ label: 'Excellent match', stars: 3 });
    // The value a fit chose reaches the label: a looser rule stars the same result.
    expect(relevanceFor(1, t, shipped, shipped - 0.1)).toEqual({ label: 'Excellent match', stars: 3 });
    expect(relevanceFor(1, t, 0.9, 0.95)).toEqual(moderate);
  });
});
