import { describe, expect, it } from 'vitest';
import { stem, tokenize } from '../../src/index/tokenize.js';
import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';
import { MAX_CORRECTED_TERMS, maxEdits, SortedWords, TypoCorrector } from '../../src/search/typos.js';

/** An index vocabulary (term → document frequency), as the lexical index would give it. */
function corrector(df: Record<string, number>) {
  const terms = new Map(Object.entries(df));
  const c = new TypoCorrector(() => terms.entries());
  return (text: string) => c.corrections(text, tokenize(text), (t) => terms.has(t));
}

describe('typo tolerance', () => {
  const vocabulary = {
    [stem('signature')]: 5,
    [stem('verify')]: 3,
    [stem('sequence')]: 4,
    entityeventsequence: 2,
    entiti: 2,
    event: 9,
    [stem('webhook')]: 7,
    [stem('infer')]: 2,
    pass: 6,
  };
  const correct = corrector(vocabulary);

  it('takes a misspelt word for the index term it was meant as: swapped, dropped, doubled or replaced letters', () => {
    expect(correct('signiture')).toEqual(new Map([[stem('signiture'), stem('signature')]]));
    expect(correct('webhok')).toEqual(new Map([['webhok', stem('webhook')]]));
    expect(correct('verrify').get(stem('verrify'))).toBe(stem('verify'));
    expect(correct('signatrue').get(stem('signatrue'))).toBe(stem('signature'));
  });

  it('corrects a misspelt identifier whole and in its parts', () => {
    const got = correct('entityEventSequnce');
    expect(got.get('entityeventsequnce')).toBe('entityeventsequence');
    expect(got.get(stem('sequnce'))).toBe(stem('sequence'));
    expect(got.has('event')).toBe(false);
  });

  it('leaves alone what the index has, English words it lacks, short terms, numbers and far-off words', () => {
    expect(correct('signature webhook').size).toBe(0);
    // "inner" and "passage" are words the docs do not use, not typos of "infer" and "pass".
    expect(correct('inner passage').size).toBe(0);
    expect(correct('evnt').size).toBe(1);
    expect(correct('evt').size).toBe(0);
    expect(correct('sequ3nce').size).toBe(0);
    expect(correct('zebrafish').size).toBe(0);
  });

  it('allows one edit up to 5 characters and two beyond', () => {
    expect([maxEdits('abc'), maxEdits('abcd'), maxEdits('abcde'), maxEdits('abcdef')]).toEqual([0, 1, 1, 2]);
  });

  it('prefers the more common of two equally near terms', () => {
    const c = corrector({ cart: 2, card: 9 });
    expect(c('carx').get('carx')).toBe('card');
  });
});

describe('typo tolerance on long queries', () => {
  it(`corrects at most ${MAX_CORRECTED_TERMS} terms of a query, and no term longer than 40 characters`, () => {
    const terms = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [
        `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`,
        1,
      ]),
    );
    const correct = corrector(terms);
    const typos = Object.keys(terms)
      .map((t) => `${t}q`)
      .join(' ');
    expect(correct(typos).size).toBe(MAX_CORRECTED_TERMS);
    expect(correct(`${'a'.repeat(41)} ${'a'.repeat(40)}`).size).toBe(0);
  });
});

describe('SortedWords (the compact dictionary)', () => {
  it('holds exactly the words it was given, in any order and case', () => {
    const words = ['manly', 'manlihood', 'apple', 'Zebra', 'a', 'ab', 'naïve'];
    const sorted = new SortedWords(`\n${words.join('\n\n')}`);
    for (const w of words) expect(sorted.has(w)).toBe(true);
    for (const w of ['man', 'manlyx', 'b', '', 'zebra', 'aa', 'naive', 'zz']) expect(sorted.has(w)).toBe(false);
  });

  it('agrees with a Set on the real word list', () => {
    const text = readFileSync(wordListPath, 'utf8');
    const words = text.split('\n');
    const sorted = new SortedWords(text);
    for (let i = 0; i < words.length; i += 97) {
      expect(sorted.has(words[i]!)).toBe(words[i] !== '');
      expect(sorted.has(`${words[i]}qzx`)).toBe(false);
    }
  });
});
