import { describe, expect, it } from 'vitest';
import { foundOwnTerms } from '../../src/search/coverage.js';
import { tokenize } from '../../src/index/tokenize.js';

/** Which of a query's own terms count as words the docs have (src/search/coverage.ts). */

/** The query's own terms, and the bits of those in `has`. */
function query(text: string, has: readonly string[]) {
  const ownTerms = [...new Set(tokenize(text))];
  const found = ownTerms.reduce((bits, t, i) => (has.includes(t) ? bits | (1 << i) : bits), 0);
  const names = (bits: number) => ownTerms.filter((_, i) => bits & (1 << i));
  return { ownTerms, found, names };
}

describe('foundOwnTerms', () => {
  it('counts a hyphenated compound as found when the docs have each of its parts', () => {
    const text = 'keep a half-written post off the site';
    const q = query(text, ['keep', 'half', 'written', 'post', 'site']);
    expect(q.ownTerms).toContain('half-written');
    expect(q.names(foundOwnTerms(text, q.ownTerms, q.found))).toEqual(
      expect.arrayContaining(['half-written', 'halfwritten']),
    );
    expect(q.names(q.found)).not.toContain('half-written');
  });

  it('keeps a compound absent when one of its parts is a word the docs never use', () => {
    const text = 'call it with wasm-bindgen';
    const q = query(text, ['call', 'wasm']);
    expect(foundOwnTerms(text, q.ownTerms, q.found)).toBe(q.found);
  });

  it('leaves identifiers with dots, slashes or digits as the index found them', () => {
    for (const text of ['open site/index.html from disk', 'tailwind.config.js dark mode', 'an x-1 rocket']) {
      const q = query(
        text,
        tokenize(text).filter((t) => !/[./\d-]/.test(t)),
      );
      expect(foundOwnTerms(text, q.ownTerms, q.found)).toBe(q.found);
    }
  });
});
