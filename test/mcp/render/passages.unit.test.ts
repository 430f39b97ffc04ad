import { describe, expect, it } from 'vitest';
import { renderSearch } from '../../../src/mcp/render/render.js';
import { RELEVANCE_LABELS, type SearchResult, type WindowSection } from '../../../src/search/types.js';

/** Passages, not windows, when the windows do not fit (passages.ts); render.ts is pure, so pages are written out. */

const FILLER =
  'This part of the reference lists the fields of the object in the order the schema declares them, with their types. ';

function section(position: number, heading: string, body: string, extra: Partial<WindowSection> = {}): WindowSection {
  return {
    position,
    headings: ['Directives reference', heading],
    text: `## ${heading}\n\n${body}`,
    isBest: false,
    match: 0,
    score: 0,
    role: 'content',
    ...extra,
  };
}

function page(title: string, sections: WindowSection[], extra: Partial<SearchResult> = {}): SearchResult {
  return {
    title,
    source: 'kb',
    path: `${title.toLowerCase().replace(/\W+/g, '-')}.md`,
    relevance: { label: RELEVANCE_LABELS[1], stars: 2 },
    score: 1,
    confidence: 0.8,
    titleMatch: 0,
    documentSections: sections.length,
    sections,
    ...extra,
  };
}

/** A 40-section reference page: the best match (a definitions list) at section 6, the answer 12 sections below. */
function referencePage(): SearchResult {
  const sections = Array.from({ length: 40 }, (_, p) =>
    section(p, `Directive ${p}`, `${FILLER.repeat(5)}\n\n${FILLER.repeat(3)}`),
  );
  sections[5] = section(
    5,
    'Definitions',
    `**CDN**: a shared cache between the origin and its readers.\n\n${FILLER.repeat(4)}`,
    { isBest: true, match: 1, score: 1 },
  );
  sections[17] = section(
    17,
    'Directive s-maxage',
    `${FILLER.repeat(3)}\n\nThe s-maxage directive tells a shared cache how long a response stays fresh, overriding max-age there.`,
    { match: 0.2, score: 0.3 },
  );
  return page('Cache-Control', sections);
}

const NOT_COVERED = /^The documentation does not seem to cover/;

describe('passages: the answer inside the page', () => {
  it('shows an answer 12 sections below the best match within a 6,000-character budget', () => {
    const { text, structured } = renderSearch('how long does a CDN keep a response', [referencePage()], {
      budgetChars: 6_000,
    });
    expect(text.length).toBeLessThanOrEqual(6_000);
    expect(text).toContain('tells a shared cache how long a response stays fresh');
    // Shown in page order, with the sections between marked as not shown.
    const positions = structured.results[0]!.sections.map((s) => s.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(text).toMatch(/section 18 \| Directives reference > Directive s-maxage \(sections? [\d-]+ not shown\)/);
  });

  it('gives a first result labelled "Somewhat relevant" room for its best passages', () => {
    const weak = { relevance: { label: RELEVANCE_LABELS[4], stars: 0 }, confidence: 0.3 };
    const first = page('Caching', referencePage().sections, weak);
    // Four stronger-labelled pages, every section of them about how long a cache keeps a response.
    const strong = [1, 2, 3, 4].map((i) =>
      page(
        `Other ${i}`,
        referencePage().sections.map((s) => ({
          ...s,
          text: `## Part ${i}.${s.position}\n\n${`Page ${i} part ${s.position}: how long a cache keeps a response here. `.repeat(6)}`,
          match: 0.8,
        })),
      ),
    );
    const { structured } = renderSearch('how long does a CDN keep a response', [first, ...strong], {
      budgetChars: 6_000,
    });
    const shown = structured.results[0]!.sections.map((s) => s.text).join('\n');
    expect(structured.results[0]!.title).toBe('Caching');
    expect(shown).toContain('**CDN**: a shared cache between the origin and its readers.');
  });

  it('shows every window whole, as before, when they all fit', () => {
    const small = page(
      'Small',
      [0, 1, 2].map((p) =>
        section(
          p,
          `Part ${p}`,
          `Body ${p} says its own thing, number ${p}.`,
          p === 1 ? { isBest: true, match: 1 } : {},
        ),
      ),
    );
    // A navigation section and an empty one: a whole window shows them as they are.
    small.sections.push(section(3, 'See also', '- [Other page](other.md)', { role: 'navigation' }), {
      ...section(4, 'Empty', ''),
      role: 'empty',
    });
    small.documentSections = 5;
    const { structured, text } = renderSearch('body', [small], { budgetChars: 12_000 });
    expect(structured.results[0]!.sections.map((s) => s.text)).toEqual(small.sections.map((s) => s.text.trim()));
    expect(text).not.toContain('[…]');
    expect(text).not.toContain('Not shown:');
  });
});

describe('not covered only when sure', () => {
  it('never says "not covered" to a query that names a page title, however low its confidence', () => {
    const webhooks = page('OpenAPI Webhooks', [section(0, 'Webhooks', FILLER, { isBest: true, match: 0.3 })], {
      confidence: 0.05,
      relevance: { label: RELEVANCE_LABELS[4], stars: 0 },
    });
    expect(renderSearch('document outgoing webhooks in openapi', [webhooks], { budgetChars: 12_000 }).text).not.toMatch(
      NOT_COVERED,
    );
    // The same page, asked something its title does not name, is not covered at that confidence.
    expect(renderSearch('kubernetes pod eviction webhooks', [webhooks], { budgetChars: 12_000 }).text).toMatch(
      NOT_COVERED,
    );
  });

  it('counts a heading the query names as covered too', () => {
    const result = page('Reference', [section(0, 'Sync Windows', FILLER, { isBest: true, match: 0.3 })], {
      confidence: 0.05,
    });
    expect(renderSearch('block sync windows at night', [result], { budgetChars: 12_000 }).text).not.toMatch(
      NOT_COVERED,
    );
  });
});
