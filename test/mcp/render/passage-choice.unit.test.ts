import { describe, expect, it } from 'vitest';
import { sectionPassages } from '../../../src/mcp/render/passage-blocks.js';
import { renderSearch } from '../../../src/mcp/render/render.js';
import { RELEVANCE_LABELS, type SearchResult, type WindowSection } from '../../../src/search/types.js';

/**
 * What passages a response keeps when the windows do not fit (passages.ts, passage-score.ts,
 * passage-blocks.ts): the causes of found-then-dropped answers bench/quality/dropped.ts listed on
 * the tuning halves, each written out as a page (render.ts is pure).
 */

const FILLER =
  'This part of the reference lists the fields of the object in the order the schema declares them, with their types. ';

function section(
  position: number,
  headings: string[],
  body: string,
  extra: Partial<WindowSection> = {},
): WindowSection {
  return {
    position,
    headings,
    text: `${'#'.repeat(Math.min(headings.length + 1, 6))} ${headings.at(-1)}\n\n${body}`,
    isBest: false,
    match: 0,
    score: 0,
    role: 'content',
    ...extra,
  };
}

function page(title: string, sections: WindowSection[]): SearchResult {
  return {
    title,
    source: 'kb',
    path: `${title.toLowerCase().replace(/\W+/g, '-')}.md`,
    relevance: { label: RELEVANCE_LABELS[3], stars: 0 },
    score: 1,
    confidence: 0.5,
    titleMatch: 0,
    documentSections: sections.length,
    sections,
  };
}

describe('passages a response keeps', () => {
  it('keeps a title line ("**Note**") with what it introduces, never on its own', () => {
    const sp = sectionPassages(
      section(0, ['Guide', 'Setup'], `**Note**\n\nThe cache is cleared on every build.\n\n${FILLER}`),
    );
    expect(sp.passages.map((p) => p.text)).toEqual(['**Note**\n\nThe cache is cleared on every build.', FILLER]);
  });

  it('shows the section the best match sits under, however far up the page it starts', () => {
    // An options reference: the best match is one value ("modules: auto") of an option whose own
    // section, ten sections up, says what the option does; between them and around the best
    // match, the option's other values, all as near the query's words.
    const values = Array.from({ length: 30 }, (_, p) =>
      section(p, ['Preset', 'Options', 'modules', `modules: value ${p}`], `Value ${p}.\n\n${FILLER}`),
    );
    values[10] = section(10, ['Preset', 'Options', 'modules'], 'Setting this to false leaves import statements alone.');
    values[20] = section(
      20,
      ['Preset', 'Options', 'modules', 'modules: auto'],
      `By default the caller decides whether modules are transformed.\n\n${FILLER.repeat(2)}`,
      { isBest: true, match: 0.5, score: 1 },
    );
    const { text } = renderSearch('keep modules untouched', [page('Preset', values)], { budgetChars: 1_500 });
    expect(text).toContain('Setting this to false leaves import statements alone.');
  });

  it('spends the room on one strong passage rather than on many short ones that each touch the query', () => {
    const query = 'program panics backtrace environment variable';
    const first = page('First', [
      section(0, ['First', 'Panic'], `The program panics with a backtrace.\n\n${FILLER.repeat(4)}`, {
        isBest: true,
        match: 1,
      }),
    ]);
    // The second page: short steps near its best match, each a lead line with one word of the
    // query, and further down the answer, one long paragraph holding every word of it.
    const steps = Array.from({ length: 12 }, (_, i) =>
      section(i + 1, ['Guide', `Step ${i}`], `The program step ${i}.\n\n${FILLER.repeat(3)}`),
    );
    const answer = `When the program panics, set the RUST_BACKTRACE environment variable to see a backtrace of the calls that led to the panic. ${FILLER.repeat(6)}`;
    const second = page('Panics', [
      section(0, ['Guide', 'Panics'], 'The program stops.', { isBest: true, match: 1 }),
      ...steps,
      section(13, ['Guide', 'Backtraces'], answer),
    ]);
    const shows = (options: object) =>
      renderSearch(query, [first, second], { budgetChars: 2_600, ...options }).text.includes(
        'set the RUST_BACKTRACE environment variable',
      );
    expect(shows({})).toBe(true);
    // Value linear in the score, spread over 200 characters at least: the steps took the room.
    expect(shows({ scorePower: 1, minBlockChars: 200 })).toBe(false);
  });
});
