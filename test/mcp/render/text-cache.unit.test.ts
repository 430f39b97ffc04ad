import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearPassageCache,
  headingTerms,
  type Passage,
  passageCacheSize,
  sectionPassages,
} from '../../../src/mcp/render/passage-blocks.js';
import { renderSearch } from '../../../src/mcp/render/render.js';
import { MAX_TERMS, termId, termIdCount } from '../../../src/mcp/render/term-ids.js';
import { TextCache } from '../../../src/mcp/render/text-cache.js';
import { RELEVANCE_LABELS, type SearchResult, type WindowSection } from '../../../src/search/types.js';

/** The renderer's per-text cache (text-cache.ts, passage-blocks.ts): bounded, and invisible in what a response says. */

function section(position: number, text: string, extra: Partial<WindowSection> = {}): WindowSection {
  return {
    position,
    headings: ['Guide', `Part ${position}`],
    text,
    isBest: false,
    match: 0,
    score: 0,
    role: 'content',
    ...extra,
  };
}

const BODY = 'The retry policy (RP) decides how often a sync is tried again after it fails. ';

function page(title: string, texts: string[]): SearchResult {
  return {
    title,
    source: 'kb',
    path: `${title}.md`,
    relevance: { label: RELEVANCE_LABELS[1], stars: 2 },
    score: 1,
    confidence: 0.8,
    titleMatch: 0,
    documentSections: texts.length,
    sections: texts.map((t, p) => section(p, t, p === 1 ? { isBest: true, match: 1, score: 1 } : {})),
  };
}

beforeEach(() => clearPassageCache());

describe('TextCache', () => {
  it('holds at most its characters, the least recently used out first', () => {
    const made: string[] = [];
    const cache = new TextCache<number>(10);
    const get = (text: string) => cache.get(text, (t) => (made.push(t), t.length));
    get('aaaa');
    get('bbbb');
    get('aaaa');
    get('cccc');
    expect(cache.size()).toEqual({ entries: 2, chars: 8 });
    // 'bbbb' was the least recently used: made again; 'aaaa' and 'cccc' were kept.
    get('aaaa');
    get('bbbb');
    expect(made).toEqual(['aaaa', 'bbbb', 'cccc', 'bbbb']);
    // A text over the whole bound is made, never held.
    expect(get('x'.repeat(11))).toBe(11);
    expect(cache.size().chars).toBeLessThanOrEqual(10);
  });
});

describe('the passage cache', () => {
  it('gives two sections of one response with one text passages of their own, and another response the cached ones', () => {
    const used = new Set<readonly Passage[]>();
    const [a, b] = [sectionPassages(section(0, BODY), used), sectionPassages(section(1, BODY), used)];
    expect(passageCacheSize().entries).toBe(1);
    expect(a.passages[0]).toEqual(b.passages[0]);
    expect(a.passages[0]).not.toBe(b.passages[0]);
    expect(sectionPassages(section(2, BODY), new Set()).passages[0]).toBe(a.passages[0]);
  });

  it("counts each term once per passage that holds it, in the section's first-seen order", () => {
    const text = `## Retries\n\n${BODY}\n\nA failed sync is retried.\n\n- the policy applies to every sync`;
    const { passages, df } = sectionPassages(section(0, text), new Set());
    const expected = new Map<number, number>();
    for (const p of passages) for (const t of p.terms) expected.set(t, (expected.get(t) ?? 0) + 1);
    expect([...df]).toEqual([...expected].flat());
    expect(Math.max(...df.filter((_, i) => i % 2 === 1))).toBeGreaterThan(1);
  });

  it('gives a headings array seen before the term ids started again its new ids', () => {
    const headings = ['Retry policy', 'Failed syncs'];
    headingTerms(headings);
    clearPassageCache();
    // Another term takes the first id of the new table.
    termId('unrelated');
    expect(headingTerms(headings)).toEqual(headingTerms([...headings]));
  });

  it('renders a page the same after other pages were cached as with nothing cached', () => {
    const long = (n: number) =>
      `## Part ${n}\n\n${Array.from({ length: 8 }, (_, k) => `${BODY}Step ${n}.${k} of the guide.`).join('\n\n')}`;
    const texts = Array.from({ length: 12 }, (_, i) => long(i));
    // The same headings and positions, other texts at every other section.
    const other = [
      page(
        'a',
        texts.map((t, i) => (i % 2 === 0 ? t : long(i + 100))),
      ),
    ];
    const render = (results: SearchResult[]) =>
      renderSearch('how often is a failed sync retried RP', results, { budgetChars: 6_000 });
    const cold = render([page('a', texts)]);
    expect(cold.text).toContain('[…]');
    clearPassageCache();
    render(other);
    expect(passageCacheSize().entries).toBeGreaterThan(0);
    expect(render([page('a', texts)])).toEqual(cold);
  });

  it('starts the term ids again, with the passages using them, once the table is full', () => {
    const texts = Array.from(
      { length: 12 },
      (_, i) =>
        `## Part ${i}\n\n${Array.from({ length: 8 }, (_, k) => `Step ${i}.${k} ${k === 5 ? BODY : 'of the guide.'}`).join('\n\n')}`,
    );
    const render = () =>
      renderSearch('how often is a failed sync retried RP', [page('a', texts)], { budgetChars: 2_500 });
    const before = render();
    expect(before.text).toContain('[…]');
    for (let i = termIdCount(); i < MAX_TERMS; i++) termId(`filler${i}`);
    expect(render()).toEqual(before);
    expect(termIdCount()).toBeLessThan(1_000);
  });
});
