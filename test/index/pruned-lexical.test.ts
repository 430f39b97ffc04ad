import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLexicalData } from '../../src/index/build-lexical.js';
import type { FoldedPostings } from '../../src/index/folded-postings.js';
import type { LexicalHits } from '../../src/index/lexical-accumulator.js';
import { LexicalIndex } from '../../src/index/lexical-index.js';
import type { FieldTokens, LexicalParams } from '../../src/index/lexical-data.js';
import { maxScoreTopK } from '../../src/index/max-score.js';
import { advance, type PrunedTerm, termBound } from '../../src/index/max-score-terms.js';
import { ScoreOrder } from '../../src/search/score-order.js';

/**
 * MaxScore pruning (src/index/max-score.ts) against exhaustive scoring, on small random corpora
 * where ties are common (few words, short sections of equal length): the same k sections, the same
 * scores to the last bit, in the same order, with the same coverage and matched bits; and what the
 * pruned search looks up afterwards (LexicalHits.lookup) is what exhaustive scoring recorded.
 */

const WORDS = ['sync', 'wave', 'hook', 'app', 'repo', 'helm', 'kustomize', 'diff', 'prune', 'sso'];

const sectionArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }),
  headings: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
  body: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 6 }),
});

/** A query: terms with weights (own terms at 1, expansions below 1, an occasional 0), some with other spellings. */
const queryArb = fc.record({
  terms: fc.uniqueArray(fc.constantFrom(...WORDS, 'absent'), { minLength: 1, maxLength: 5 }),
  weights: fc.array(fc.constantFrom(1, 1, 1, 0.3, 0), { minLength: 5, maxLength: 5 }),
  variant: fc.option(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS, 'absent'))),
});

const paramsArb = fc.constantFrom<LexicalParams | undefined>(undefined, {
  k1: 1.2,
  weights: { title: 0, headings: 3, body: 1 },
  b: { title: 0.5, headings: 1, body: 0.4 },
});

/** The first k of an exhaustive search's hits, as the searcher orders them (score, then hit order). */
function exhaustiveTop(hits: LexicalHits, k: number) {
  const n = hits.sections.length;
  const order = Array.from(new ScoreOrder().descending(hits.scores, n)).slice(0, Math.min(k, n));
  return {
    sections: order.map((i) => hits.sections[i]!),
    scores: order.map((i) => hits.scores[i]!),
    coverage: order.map((i) => hits.coverage[i]!),
    matched: order.map((i) => hits.matched[i]!),
  };
}

/** Exhaustive scoring against pruning on random corpora of `size` sections (windows of 4,096 sections: beyond one takes several). */
function prunedMatchesExhaustive(size: { minLength: number; maxLength: number }, maxK: number, numRuns: number): void {
  let pruned = 0;
  fc.assert(
    fc.property(
      fc.array(sectionArb, size),
      queryArb,
      fc.integer({ min: 1, max: maxK }),
      paramsArb,
      (sections: FieldTokens[], q, k, params) => {
        // Pruning from any number of postings, so these small corpora take the pruned path.
        const index = new LexicalIndex(buildLexicalData(sections), params, 0);
        const query = new Map(q.terms.map((t, i) => [t, q.weights[i]!]));
        const variants = new Map(q.variant ? [[q.variant[0], [q.variant[1]]]] : []);
        const all = index.search(query, variants);
        const top = index.search(query, variants, k);
        if (top.lookup === undefined) {
          expect(top).toEqual(all);
          return;
        }
        pruned++;
        const { ownTermShare, ownTermsFound, ownTerms } = all;
        expect({ ownTermShare, ownTermsFound, ownTerms }).toEqual({
          ownTermShare: top.ownTermShare,
          ownTermsFound: top.ownTermsFound,
          ownTerms: top.ownTerms,
        });
        expect({
          sections: Array.from(top.sections),
          scores: Array.from(top.scores),
          coverage: Array.from(top.coverage),
          matched: Array.from(top.matched),
        }).toEqual(exhaustiveTop(all, k));
        const matchedBy = new Int32Array(sections.length);
        all.sections.forEach((s, i) => (matchedBy[s] = all.matched[i]!));
        const looked = new Int32Array(sections.length);
        top.lookup.sectionBits(0, sections.length, looked);
        expect(Array.from(looked)).toEqual(Array.from(matchedBy));
        const first = Math.floor(sections.length / 3);
        const count = Math.ceil(sections.length / 3);
        expect(top.lookup.rangeBits(first, count)).toBe(
          matchedBy.subarray(first, first + count).reduce((a, b) => a | b, 0),
        );
        expect(top.lookup.anyOwnMatch()).toBe(all.matched.some((bits) => bits !== 0));
      },
    ),
    { numRuns },
  );
  // Most runs must have taken the pruned path, or this compared nothing.
  expect(pruned).toBeGreaterThan(numRuns / 2);
}

describe('pruned lexical search', () => {
  it('keeps exactly the k sections exhaustive scoring ranks first, and looks up the same matches for the rest', () => {
    prunedMatchesExhaustive({ minLength: 30, maxLength: 150 }, 20, 400);
  });

  it('does so over many windows of sections, from a first threshold taken before the walk', () => {
    prunedMatchesExhaustive({ minLength: 5000, maxLength: 14000 }, 300, 25);
  });
});

/** Folded postings from (section, tf) pairs, as folded-postings.ts makes them. */
function folded(pairs: [number, number][]): FoldedPostings {
  const sorted = [...new Map(pairs).entries()].sort((a, b) => a[0] - b[0]);
  const tf = Float64Array.from(sorted, ([, f]) => f);
  return {
    sections: Int32Array.from(sorted, ([s]) => s),
    tf,
    max: Math.max(0, ...tf),
    positives: tf.filter((f) => f > 0).length,
  };
}

const listArb = fc.array(fc.tuple(fc.nat(200), fc.double({ min: 0, max: 20, noNaN: true })), { maxLength: 60 });

describe('the pruning bound', () => {
  it('is at least what the term adds to any section it matches, over all its spellings', () => {
    fc.assert(
      fc.property(
        fc.array(listArb, { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (lists, weightedIdf) => {
          const term: PrunedTerm = { lists: lists.map(folded), weightedIdf, bit: 0 };
          const bound = termBound(term, 1.2);
          const summed = new Map<number, number>();
          for (const list of term.lists)
            list.sections.forEach((s, i) => summed.set(s, (summed.get(s) ?? 0) + list.tf[i]!));
          for (const f of summed.values())
            expect(weightedIdf * ((f * 2.2) / (f + 1.2))).toBeLessThanOrEqual(bound * (1 + 1e-12));
        },
      ),
    );
  });

  it('is zero for a term with no weight or no postings, so it never keeps a section', () => {
    expect(termBound({ lists: [folded([[1, 3]])], weightedIdf: 0, bit: 1 }, 1.2)).toBe(0);
    expect(termBound({ lists: [folded([])], weightedIdf: 2, bit: 1 }, 1.2)).toBe(0);
  });

  it('a term whose bound cannot lift a section is only looked up: the walk gives the exhaustive top k', () => {
    // A rare strong term and a common weak one: once k sections hold the rare one, the common term
    // alone cannot reach them, and its 1,000 postings are looked up, not walked.
    const common = folded(Array.from({ length: 1000 }, (_, s) => [s, 1] as [number, number]));
    const rare = folded([10, 20, 30, 40, 500].map((s) => [s, 3] as [number, number]));
    const top = maxScoreTopK(
      [
        { lists: [common], weightedIdf: 0.1, bit: 1 },
        { lists: [rare], weightedIdf: 5, bit: 2 },
      ],
      1.2,
      3,
      5.1,
    );
    expect(Array.from(top.sections)).toEqual([10, 20, 30]);
    expect(Array.from(top.matched)).toEqual([3, 3, 3]);
  });

  it('keeps a section that only ties the k-th score when exhaustive scoring touched it first', () => {
    // Every section scores the same. Exhaustive scoring touches section 50 first (the first query
    // term holds it) and keeps it; the walk meets it last, with the k held full at that score.
    const first = folded([[50, 1]]);
    const second = folded(Array.from({ length: 50 }, (_, s) => [s, 1] as [number, number]));
    const top = maxScoreTopK(
      [
        { lists: [first], weightedIdf: 2, bit: 1 },
        { lists: [second], weightedIdf: 2, bit: 2 },
      ],
      1.2,
      2,
      4,
    );
    expect(Array.from(top.sections)).toEqual([50, 0]);
  });

  it('advance finds the first posting at or after a section, from anywhere before it', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(500), { maxLength: 100 }), fc.nat(520), fc.nat(100), (raw, target, from) => {
        const sections = Int32Array.from(raw.sort((a, b) => a - b));
        const start = Math.min(from, sections.length);
        let expected = start;
        while (expected < sections.length && sections[expected]! < target) expected++;
        expect(advance(sections, start, target)).toBe(expected);
      }),
    );
  });
});
