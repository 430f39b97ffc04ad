import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitToBudget, MAX_RADIUS, renderedSize, renderSearch, searchDocsOutputSchema, trimWindow, type FittedResult } from '../../src/mcp/render.js';
import { RELEVANCE_LABELS, type Relevance, type SearchResult } from '../../src/search/types.js';

/** render.ts is a pure function of engine results, so its inputs are written out here. */

const STARS = [3, 2, 1, 0, 0];
function relevance(band: number): Relevance {
  return { label: RELEVANCE_LABELS[band]!, stars: STARS[band]! };
}

/** A result whose window holds `count` sections starting at document position `first`, best at index `best`. */
function result(name: string, count: number, best: number, options: { first?: number; band?: number; textChars?: number } = {}): SearchResult {
  const first = options.first ?? 0;
  return {
    title: `${name} guide`,
    source: 'kb',
    path: `${name}.md`,
    relevance: relevance(options.band ?? 0),
    score: 1,
    sections: Array.from({ length: count }, (_, i) => ({
      position: first + i,
      headings: [`${name} guide`, `Part ${first + i}`],
      text: `## Part ${first + i}\n\n${`${name} text ${first + i}. `.repeat(Math.max(1, Math.floor((options.textChars ?? 40) / 12)))}`,
      isBest: i === best,
    })),
  };
}

const fresh = (r: SearchResult): FittedResult => ({ result: r, omittedBefore: 0, omittedAfter: 0 });
const sizeOf = (term: string) => (fitted: FittedResult[]) => renderedSize({ text: fitted.map((f) => f.result.sections.map((s) => s.text).join('')).join(''), structured: { query: term, results: [], omittedResults: 0 } });

describe('renderSearch: the text an agent reads', () => {
  it('shows title, source, path, relevance with stars, and every section in order with the best one marked', () => {
    const { text } = renderSearch('webhook', [result('webhooks', 5, 2, { first: 3 })], 100_000);
    expect(text).toContain('Found 1 result for "webhook"');
    expect(text).toContain('Title: webhooks guide');
    expect(text).toContain('Source: kb');
    expect(text).toContain('Path: webhooks.md');
    expect(text).toContain('Relevance: ★★★ Excellent match');
    expect(text).toContain('sections 4-8 of the document (5 consecutive)');
    const order = [3, 4, 5, 6, 7].map((p) => text.indexOf(`## Part ${p}`));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(text.match(/>>>>> BEST MATCH/g)).toHaveLength(2); // the Content line names the marker once
    expect(text).toMatch(/>>>>> BEST MATCH \| section 6 \| webhooks guide > Part 5 <<<<<\n## Part 5/);
    expect(text).toContain('----- section 4 | webhooks guide > Part 3 -----');
  });

  it('writes each label with its number of stars, none for the two lowest', () => {
    const texts = RELEVANCE_LABELS.map((_, band) => renderSearch('q', [result('a', 1, 0, { band })], 100_000).text);
    expect(texts[0]).toContain('Relevance: ★★★ Excellent match');
    expect(texts[1]).toContain('Relevance: ★★ Very relevant');
    expect(texts[2]).toContain('Relevance: ★ Relevant');
    expect(texts[3]).toContain('Relevance: Somewhat relevant');
    expect(texts[4]).toContain('Relevance: Moderate match');
  });

  it('says plainly when nothing matched', () => {
    const { text, structured } = renderSearch('zzz', [], 100_000);
    expect(text).toMatch(/^No documentation matched "zzz"\. This is not an error/);
    expect(structured).toEqual({ query: 'zzz', results: [], omittedResults: 0 });
  });

  it('returns structured content that matches the declared output schema and the text', () => {
    const { structured } = renderSearch('q', [result('a', 3, 1), result('b', 2, 0, { band: 3 })], 100_000);
    expect(searchDocsOutputSchema.parse(structured)).toEqual(structured);
    expect(structured.results.map((r) => [r.rank, r.path, r.relevance.label])).toEqual([
      [1, 'a.md', 'Excellent match'],
      [2, 'b.md', 'Somewhat relevant'],
    ]);
  });

  it('never shows more than 15 sections on either side of the best one', () => {
    const { structured } = renderSearch('q', [result('long', 45, 20)], 10_000_000);
    const sections = structured.results[0]!.sections;
    expect(sections).toHaveLength(2 * MAX_RADIUS + 1);
    expect(sections[MAX_RADIUS]!.isBest).toBe(true);
  });
});

describe('fitToBudget', () => {
  it('leaves results alone when they fit', () => {
    const results = [result('a', 9, 4), result('b', 3, 1)];
    const { fitted, omittedResults } = fitToBudget(results, 1_000_000, sizeOf('q'));
    expect(fitted.map((f) => f.result)).toEqual(results);
    expect(omittedResults).toBe(0);
  });

  it('narrows windows symmetrically around the best section, widest for the best-ranked, then drops the lowest-ranked results', () => {
    const results = [result('a', 31, 15, { textChars: 200 }), result('b', 31, 15, { textChars: 200 })];
    const full = sizeOf('q')(results.map(fresh));
    const half = fitToBudget(results, Math.floor(full / 2), sizeOf('q'));
    expect(half.omittedResults).toBe(0);
    for (const f of half.fitted) {
      expect(f.omittedBefore).toBe(f.omittedAfter);
      expect(f.omittedBefore).toBeGreaterThan(0);
      expect(f.result.sections.filter((s) => s.isBest)).toHaveLength(1);
    }
    expect(sizeOf('q')(half.fitted)).toBeLessThanOrEqual(Math.floor(full / 2));
    // Room for one more section on each side of one window goes to the best-ranked result.
    const room = sizeOf('q')([trimWindow(fresh(results[0]!), 8), trimWindow(fresh(results[1]!), 7)]);
    const priority = fitToBudget(results, room, sizeOf('q'));
    expect(priority.fitted.map((f) => f.result.sections.length)).toEqual([17, 15]);
    const tiny = fitToBudget(results, 10, sizeOf('q'));
    expect(tiny.omittedResults).toBe(1);
    expect(tiny.fitted).toHaveLength(1);
    expect(tiny.fitted[0]!.result.sections).toEqual([results[0]!.sections[15]]);
  });

  it('trims the long side first when the window is clamped at the start of a document', () => {
    const trimmed = trimWindow(fresh(result('a', 20, 2)), 5);
    expect(trimmed.result.sections.map((s) => s.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect([trimmed.omittedBefore, trimmed.omittedAfter]).toEqual([0, 12]);
  });

  it('for any results and budget: keeps the top best section, keeps windows contiguous and centred, and fits unless only that section is left', () => {
    const arbResult = fc
      .record({ count: fc.integer({ min: 1, max: 31 }), bestFrac: fc.double({ min: 0, max: 1, noNaN: true }), first: fc.integer({ min: 0, max: 50 }), chars: fc.integer({ min: 1, max: 400 }) })
      .map(({ count, bestFrac, first, chars }) => result('d', count, Math.min(count - 1, Math.floor(bestFrac * count)), { first, textChars: chars }));
    fc.assert(
      fc.property(fc.array(arbResult, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 40_000 }), (results, budget) => {
        const rendered = renderSearch('property', results, budget);
        const { results: shown, omittedResults } = rendered.structured;
        expect(shown.length + omittedResults).toBe(results.length);
        expect(shown.length).toBeGreaterThanOrEqual(1);
        const topBest = results[0]!.sections.find((s) => s.isBest)!;
        expect(shown[0]!.sections.find((s) => s.isBest)).toEqual(topBest);
        shown.forEach((r, i) => {
          const original = results[i]!.sections;
          const best = r.sections.findIndex((s) => s.isBest);
          expect(best).toBeGreaterThanOrEqual(0);
          const positions = r.sections.map((s) => s.position);
          expect(positions).toEqual(positions.map((_, k) => positions[0]! + k));
          // Symmetric: a side is cut only while it is at least as long as the other one.
          const before = best;
          const after = r.sections.length - 1 - best;
          if (r.omittedBefore > 0) expect(before).toBeGreaterThanOrEqual(after);
          if (r.omittedAfter > 0) expect(after).toBeGreaterThanOrEqual(before);
          expect(r.sections.length + r.omittedBefore + r.omittedAfter).toBe(original.length);
        });
        const onlyTopBestLeft = shown.length === 1 && shown[0]!.sections.length === 1;
        if (!onlyTopBestLeft) expect(renderedSize(rendered)).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 200 },
    );
  });

  it('for any results and budget: leaves no room to show one more section on each side of any window', () => {
    const arbResult = fc
      .record({ count: fc.integer({ min: 1, max: 31 }), best: fc.nat(), chars: fc.integer({ min: 1, max: 300 }) })
      .map(({ count, best, chars }) => result('d', count, best % count, { textChars: chars }));
    fc.assert(
      fc.property(fc.array(arbResult, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 30_000 }), (results, budget) => {
        const measure = sizeOf('q');
        const { fitted } = fitToBudget(results, budget, measure);
        fitted.forEach((f, i) => {
          if (f.omittedBefore + f.omittedAfter === 0) return;
          const best = f.result.sections.findIndex((s) => s.isBest);
          const radius = Math.max(best, f.result.sections.length - 1 - best);
          if (radius >= MAX_RADIUS) return;
          const wider = fitted.with(i, trimWindow(fresh(results[i]!), radius + 1));
          expect(measure(wider)).toBeGreaterThan(budget);
        });
      }),
      { numRuns: 200 },
    );
  });
});
