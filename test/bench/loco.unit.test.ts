import { describe, expect, it } from 'vitest';
import type { CachedQuery, CorpusRuns } from '../../bench/quality/loco-cache.js';
import { fitLeftOut } from '../../bench/quality/loco-fit.js';
import { type GridAxes, gridOf } from '../../bench/quality/loco-grid.js';
import { bestPoint, type CorpusTuning, leaveOneCorpusOut, objective } from '../../bench/quality/loco.js';
import type { SearchResult } from '../../src/search/types.js';

/** A page of 31 sections of about 450 characters: its whole window does not fit 12,000 characters. */
function page(path: string, confidence: number): SearchResult {
  const sections = Array.from({ length: 31 }, (_, p) => ({
    position: p,
    headings: ['Guide', `Part ${p}`],
    text: `## Part ${p}\n\n${`Words about part number ${p} of the ${path} guide. `.repeat(10)}`,
    isBest: p === 0,
    match: p === 0 ? 1 : 0,
    score: p === 0 ? 1 : 0,
    role: 'content' as const,
  }));
  return {
    title: path,
    source: 'kb',
    path,
    relevance: { label: 'Moderate match', stars: 0 },
    score: 1,
    confidence,
    titleMatch: 0,
    documentSections: 31,
    sections,
  };
}

function answerable(id: string, confidence: number): CachedQuery {
  const result = page(`${id}.md`, confidence);
  return {
    id,
    query: `guide part ${id}`,
    labelled: {
      id,
      style: 'keyword',
      query: `guide part ${id}`,
      relevant: [{ doc: `kb/${id}.md`, grade: 2, answers: ['part number 0 of'] }],
    },
    results: [result],
    ranking: [`kb/${id}.md`],
    confidences: [confidence],
  };
}

function offTopic(id: string): CachedQuery {
  return { id, query: `unrelated ${id}`, results: [page(`${id}.md`, 0.5)], ranking: [], confidences: [0.5] };
}

/** A corpus whose answerable questions mildly prefer the shipped cut: one in 30 sits between the two cuts. */
function covered(name: string): CorpusRuns {
  const queries = Array.from({ length: 30 }, (_, i) => answerable(`${name}-${i}`, i === 0 ? 0.5 : 0.95));
  return { name, tuning: { answerable: queries, offTopic: [] }, heldOut: { answerable: [], offTopic: [] } };
}

/** A corpus of off-topic questions only, which strongly prefers the higher cut (short answers). */
function offTopicOnly(name: string): CorpusRuns {
  const queries = Array.from({ length: 6 }, (_, i) => offTopic(`${name}-off-${i}`));
  return { name, tuning: { answerable: [], offTopic: queries }, heldOut: { answerable: [], offTopic: [] } };
}

describe('leave-one-corpus-out choice', () => {
  it('hands the fit every corpus but the left-out one, never its queries', () => {
    const corpora: CorpusTuning<string[]>[] = ['a', 'b', 'c'].map((name) => ({
      name,
      tuning: [`${name}-q1`, `${name}-q2`],
    }));
    const seen = leaveOneCorpusOut(corpora, (others) => others.flatMap((o) => o.tuning));
    for (const c of corpora) {
      expect(seen.get(c.name)!.some((id) => c.tuning.includes(id))).toBe(false);
      expect(seen.get(c.name)).toHaveLength(4);
    }
  });

  it("chooses for C what the other corpora prefer, where C's own queries would choose otherwise", () => {
    // Per corpus, Hit@5 at two grid points: A and B slightly prefer point 0, C strongly point 1.
    const hits: Record<string, number[]> = { a: [1, 0.9], b: [1, 0.9], c: [0, 1] };
    const corpora = Object.keys(hits).map((name) => ({ name, tuning: hits[name]! }));
    const score = (c: CorpusTuning<number[]>, p: number) =>
      objective({ answerable: [{ hit5: c.tuning[p]!, notCovered: false }], offTopic: [] }, 12_000);
    expect(bestPoint(corpora, 2, score).point).toBe(1);
    const left = leaveOneCorpusOut(corpora, (others) => bestPoint(others, 2, score));
    expect(left.get('c')!.point).toBe(0);
    expect(left.get('c')!.chosenOn).toEqual(['a', 'b']);
    expect(left.get('a')!.point).toBe(1);
  });

  it('fits the not-covered cut of a left-out corpus on the others alone, re-rendering cached results', () => {
    const axes: GridAxes = { passages: { coveredMin: [0.24, 0.9] }, starMinMatch: [0.5] };
    const a = covered('a');
    const b = covered('b');
    // With a second off-topic corpus among the others, their choice moves to the higher cut:
    // C's kind of questions would change the choice if C's own leaked into it.
    const swayed = fitLeftOut([a, b, offTopicOnly('c'), offTopicOnly('d')], axes);
    expect(swayed.get('c')!.fit.point.coveredMin).toBe(0.9);
    const fits = fitLeftOut([a, b, offTopicOnly('c')], axes);
    expect(fits.get('c')!.fit.point.coveredMin).toBe(0.24);
    expect(fits.get('c')!.choice.chosenOn).toEqual(['a', 'b']);
  });

  it('lists every combination once, what ships first, and refuses an option that does not exist', () => {
    const grid = gridOf({ passages: { coveredMin: [0.2, 0.24, 0.2], firstBlocks: [2, 3] }, starMinMatch: [0.5] });
    expect(grid).toEqual([
      { coveredMin: 0.2, firstBlocks: 2 },
      { coveredMin: 0.2, firstBlocks: 3 },
      { coveredMin: 0.24, firstBlocks: 2 },
      { coveredMin: 0.24, firstBlocks: 3 },
    ]);
    const typo = { passages: { coverdMin: [0.2] }, starMinMatch: [0.5] } as unknown as GridAxes;
    expect(() => gridOf(typo)).toThrow(/unknown passage option "coverdMin"/);
  });

  it('refuses to leave one out of fewer than two corpora', () => {
    expect(() => leaveOneCorpusOut([{ name: 'a', tuning: 1 }], () => 0)).toThrow(/two corpora/);
  });
});
