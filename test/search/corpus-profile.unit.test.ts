import { describe, expect, it } from 'vitest';
import { profileCorpus, type ProfileInput } from '../../src/search/corpus-profile.js';

/** A knowledge base of one-section pages, each page's text as given (headings that name no identifier). */
function kb(pages: Record<string, string>): ProfileInput {
  const entries = Object.entries(pages);
  return {
    documents: entries.map(([path], i) => ({ kb: 'docs', path, title: path, sectionCount: 1, firstSection: i })),
    sections: entries.map(([, text], i) => ({ headings: [`Page ${i + 1}`], text })),
  };
}

const family = 'Set `alphaOne`, `alphaTwo` and `alphaThree` together.';

describe('the example terms of a knowledge base', () => {
  it('name one identifier per family of pages before a second of the same family', () => {
    const [profile] = profileCorpus(
      kb({
        'a.md': family,
        'b.md': family,
        'c.md': family,
        'd.md': 'Use `betaOne` here.',
        'e.md': 'And `betaOne` there.',
      }),
    );
    // By pages alone the three alpha names (3 pages each) would all come before betaOne (2).
    expect(profile!.exampleTerms.slice(0, 2)).toEqual(['alphaOne', 'betaOne']);
    // Too few families to fill the list: the others follow, in the same order.
    expect(profile!.exampleTerms).toEqual(['alphaOne', 'betaOne', 'alphaThree', 'alphaTwo']);
  });

  it('keeps a name whose pages only partly overlap a chosen one', () => {
    const [profile] = profileCorpus(
      kb({
        'a.md': 'Use `alphaOne` and `gammaOne`.',
        'b.md': 'Use `alphaOne`.',
        'c.md': 'Use `alphaOne`.',
        'd.md': 'Use `gammaOne`.',
        'e.md': 'Use `gammaOne`.',
        'f.md': 'Use `betaOne`.',
      }),
    );
    // gammaOne shares one of its three pages with alphaOne: a different part of the docs.
    expect(profile!.exampleTerms).toEqual(['alphaOne', 'gammaOne', 'betaOne']);
  });
});
