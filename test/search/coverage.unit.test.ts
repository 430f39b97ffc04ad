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

  it('counts an identifier joined by dots, slashes, colons or underscores as found when the docs have each part', () => {
    for (const [text, parts] of [
      ['open site/index.html from disk', ['site', 'index', 'html']],
      ['a test that calls window.confirm()', ['window', 'confirm']],
      ['error on <f:image>', ['f', 'imag']],
      ['set Site.Params.api_key', ['site', 'param', 'api', 'key']],
    ] as const) {
      const q = query(
        text,
        tokenize(text).filter((t) => !/[./:_]/.test(t)),
      );
      const whole = q.ownTerms.find((t) => /[./:_]/.test(t))!;
      expect(parts.every((p) => q.ownTerms.includes(p))).toBe(true);
      expect(q.names(q.found)).not.toContain(whole);
      expect(q.names(foundOwnTerms(text, q.ownTerms, q.found))).toContain(whole);
    }
  });

  it('keeps an identifier absent when the docs lack one of its parts', () => {
    const text = 'tailwind.config.js dark mode';
    const q = query(
      text,
      tokenize(text).filter((t) => !/[./]/.test(t) && t !== 'tailwind'),
    );
    expect(foundOwnTerms(text, q.ownTerms, q.found, () => true)).toBe(q.found);
  });

  it('keeps a compound absent when a part is filler, not a term of the question', () => {
    // In a question "one" and "many" are filler, kept out of its own terms (src/search/query.ts).
    const text = 'how do I define one-to-many relations in a schema';
    const ownTerms = [...new Set(tokenize(text))].filter((t) => t !== 'one' && t !== 'many');
    const found = ownTerms.reduce((bits, t, i) => (t.includes('-') ? bits : bits | (1 << i)), 0);
    expect(ownTerms).toContain('one-to-many');
    expect(foundOwnTerms(text, ownTerms, found, () => true)).toBe(found);
  });

  it('counts a number run into its unit as found when the index has both, looked up since neither is a term of the query', () => {
    const text = 'restore the database as it was at 3pm';
    const q = query(
      text,
      tokenize(text).filter((t) => t !== '3pm'),
    );
    expect(q.ownTerms).not.toContain('pm');
    const index = new Set(['3', 'pm']);
    expect(q.names(foundOwnTerms(text, q.ownTerms, q.found, (t) => index.has(t)))).toContain('3pm');
    expect(foundOwnTerms(text, q.ownTerms, q.found, (t) => t === '3')).toBe(q.found);
  });

  it('leaves a numeronym as the index found it: "i18n" is no number and unit', () => {
    const text = 'translate messages with i18n';
    const q = query(text, ['translat', 'messag']);
    expect(foundOwnTerms(text, q.ownTerms, q.found, () => true)).toBe(q.found);
  });
});
