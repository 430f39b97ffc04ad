import { describe, expect, it } from 'vitest';
import { answerOutcome, summarise, type AnswerSystem, type QueryOutcome } from '../../bench/quality/answers.js';
import type { LabelledQuery } from '../../bench/queries.js';
import type { SearchResult } from '../../src/search/types.js';

/** A page of `count` long sections, the best one at `best`; only the best matches the query. */
function page(path: string, count: number, best: number): SearchResult {
  const sections = Array.from({ length: count }, (_, p) => ({
    position: p,
    headings: ['Guide', `Part ${p}`],
    text: `## Part ${p}\n\n${`Words about part number ${p} of the ${path} guide. `.repeat(60)}`,
    isBest: p === best,
    match: p === best ? 1 : 0,
    score: p === best ? 1 : 0,
    role: 'content' as const,
  }));
  const result = {
    title: path,
    source: 'kb',
    path,
    relevance: { label: 'Excellent match' as const, stars: 3 },
    score: 1,
    confidence: 1,
    titleMatch: 0,
    documentSections: count,
    sections,
  };
  return result;
}

function system(results: SearchResult[]): AnswerSystem {
  return { name: 'fake', search: async (_q, limit) => results.slice(0, limit), close: async () => {} };
}

const query = (answers: string[]): LabelledQuery => ({
  id: 'q',
  style: 'keyword',
  query: 'guide part',
  relevant: [{ doc: 'kb/guide.md', grade: 2, answers }],
});

describe('answer outcomes', () => {
  it('counts the answer as shown only if the budgeted response still shows its section', async () => {
    const results = [page('guide.md', 31, 0)];
    // The labelled section is 20 sections away from the best one: in the full window, not in a small budget.
    const far = await answerOutcome(query(['part number 20 of']), system(results), {
      budgetChars: 4000,
      resultCount: 5,
    });
    expect(far.hit5Full).toBe(1);
    expect(far.hit5).toBe(0);
    expect(far.hit1).toBe(0);
    expect(far.rr).toBe(0);
    expect(far.chars).toBeLessThan(8000);
    const near = await answerOutcome(query(['part number 0 of']), system(results), {
      budgetChars: 4000,
      resultCount: 5,
    });
    expect([near.hit1, near.hit5, near.hit5Full, near.rr]).toEqual([1, 1, 1, 1]);
    // With room for everything both agree, and the response is longer.
    const roomy = await answerOutcome(query(['part number 20 of']), system(results), {
      budgetChars: 1_000_000,
      resultCount: 5,
    });
    expect(roomy.hit5).toBe(1);
    expect(roomy.chars).toBeGreaterThan(far.chars);
  });

  it('ranks the first result that shows the answer, and scores nDCG@10 on pages', async () => {
    const results = [page('other.md', 1, 0), page('guide.md', 1, 0)];
    const o = await answerOutcome(query(['part number 0 of']), system(results), {
      budgetChars: 1_000_000,
      resultCount: 5,
    });
    expect([o.hit1, o.hit5, o.rr]).toEqual([0, 1, 0.5]);
    expect(o.ndcg10).toBeCloseTo(1 / Math.log2(3), 6);
  });

  it('summarises means and the median response length', () => {
    const o = (hit1: number, chars: number): QueryOutcome => ({
      id: String(chars),
      style: 'keyword',
      hit1,
      hit5: chars === 200 ? 0 : 1,
      hit1Full: 1,
      hit5Full: 1,
      hit5At: [0, 1, 1, 1],
      rr: hit1,
      ndcg10: hit1,
      chars,
      repeats: chars > 150 ? 1 : 0,
      covered: chars === 300 ? 0 : 1,
    });
    const s = summarise([o(1, 100), o(0, 300), o(1, 200)]);
    expect(s.queries).toBe(3);
    expect(s.hit1).toBeCloseTo(2 / 3, 9);
    expect(s.medianChars).toBe(200);
    expect(s.hit5At).toEqual([0, 1, 1, 1]);
    expect(s.withRepeats).toBeCloseTo(2 / 3, 9);
    expect(s.falseNotCovered).toBeCloseTo(1 / 3, 9);
    expect(s.foundThenDropped).toBeCloseTo(1 / 3, 9);
  });
});
