import { describe, expect, it } from 'vitest';
import { placeholderOf } from '../../src/web/page-view.js';

/** The search box's example comes from the docs served (it was the bundled docs' on every corpus). */

const profile = (name: string, topics: string[]) => ({ name, pages: 1, areas: [], topics, exampleTerms: [] });

describe("the search box's example", () => {
  it('is the first main topic of the docs served', () => {
    expect(placeholderOf({ profiles: [profile('empty', []), profile('hugo', ['Shortcodes', 'Templates'])] })).toBe(
      'e.g. Shortcodes',
    );
  });

  it('says what to do when the docs have no topics', () => {
    expect(placeholderOf({ profiles: [] })).toBe('Search the docs');
  });
});
