import { describe, expect, it } from 'vitest';
import { DEFAULT_FIT, fitToBudget, type FitMeasure } from '../../../src/mcp/render/fit-budget.js';
import type { SearchResult, WindowSection } from '../../../src/search/types.js';

/** fitToBudget with every section costing 100 characters and nothing else costing anything. */

const measure: FitMeasure = { overhead: 0, result: () => 0, section: () => 100, excerpt: () => 100 };

function section(position: number, match: number, isBest = false): WindowSection {
  return { position, headings: ['Page', `Part ${position}`], text: `Part ${position}`, isBest, match };
}

function page(count: number, best: number, match: Record<number, number>, excerpts: number[]): SearchResult {
  const sections = Array.from({ length: count }, (_, p) => section(p, match[p] ?? 0, p === best));
  return {
    title: 'Page',
    source: 'kb',
    path: 'page.md',
    relevance: { label: 'Excellent match', stars: 3 },
    score: 1,
    confidence: 1,
    documentSections: count,
    sections,
    excerpts: excerpts.map((p) => sections[p]!),
  };
}

describe('separate excerpts', () => {
  it("spend the budget on a matching section past the window's reach before non-matching neighbours", () => {
    const r = page(20, 15, { 15: 1, 2: 0.8 }, [2]);
    const { fitted } = fitToBudget([r], { ...DEFAULT_FIT, budgetChars: 300 }, measure);
    expect(fitted[0]!.excerpts.map((s) => s.position)).toEqual([2]);
    expect(fitted[0]!.to - fitted[0]!.from).toBe(1);
    const off = fitToBudget([r], { ...DEFAULT_FIT, budgetChars: 300, maxExcerpts: 0 }, measure);
    expect(off.fitted[0]!.excerpts).toEqual([]);
    expect(off.fitted[0]!.to - off.fitted[0]!.from).toBe(2);
  });

  it('need a share of the query: a weak match stays out', () => {
    expect(DEFAULT_FIT.excerptMinMatch).toBeGreaterThan(0.2);
    const r = page(20, 15, { 15: 1, 2: 0.2 }, [2]);
    const { fitted } = fitToBudget([r], { ...DEFAULT_FIT, budgetChars: 300 }, measure);
    expect(fitted[0]!.excerpts).toEqual([]);
    const lower = fitToBudget([r], { ...DEFAULT_FIT, budgetChars: 300, excerptMinMatch: 0.1 }, measure);
    expect(lower.fitted[0]!.excerpts.map((s) => s.position)).toEqual([2]);
  });

  it('join the window when it grows next to them', () => {
    // Best 8, excerpt 3: the excerpt goes in first (it matches), then the window grows 9, 7, 6, 5, 4
    // and the budget ends there; section 3 is already shown, so it becomes part of the window.
    const r = page(10, 8, { 8: 1, 3: 0.9 }, [3]);
    const { fitted } = fitToBudget([r], { ...DEFAULT_FIT, budgetChars: 700 }, measure);
    expect(fitted[0]).toMatchObject({ from: 3, to: 9, excerpts: [] });
  });
});
