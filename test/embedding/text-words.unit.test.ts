import { describe, expect, it } from 'vitest';
import { forEachRawWord, splitOnAdded, WordCache, type WordTokens } from '../../src/embedding/text-words.js';

/** The helpers that let the static model's tokenizer work one distinct word at a time. */

const words = (text: string): string[] => {
  const found: string[] = [];
  forEachRawWord(text, (word) => found.push(word));
  return found;
};

describe('text words', () => {
  it('splits at ASCII spaces, tabs and line breaks only', () => {
    expect(words('  a\tbb\r\nc d\u00a0e\u3000f  ')).toEqual(['a', 'bb', 'c', 'd\u00a0e\u3000f']);
    expect(words('')).toEqual([]);
    expect(words(' \n ')).toEqual([]);
  });

  it('remembers each word, and answers the same once it has been emptied', () => {
    const asked: string[] = [];
    const cache = new WordCache((word): WordTokens => {
      asked.push(word);
      return { pieces: [word], ids: [word.length], unknownFirst: false, unknownLast: false };
    }, 2);
    const long = `${'x'.repeat(20)} tail`.slice(0, 20);
    for (const word of ['a', 'bb', 'a', 'bb', long, 'a', long]) expect(cache.get(word).pieces).toEqual([word]);
    // 'a' and 'bb' once each; the third distinct word empties the cache, so 'a' is asked again.
    expect(asked).toEqual(['a', 'bb', long, 'a']);
  });

  it('cuts the added tokens out, longest first, and leaves a text without them whole', () => {
    const contents = ['[SEP]', '[S]'];
    expect(splitOnAdded('no special tokens here', contents)).toEqual(['no special tokens here']);
    expect(splitOnAdded('a[SEP]b[S][SEP]', contents)).toEqual(['a', '[SEP]', 'b', '[S]', '[SEP]']);
    expect(splitOnAdded('[SE]', contents)).toEqual(['[SE]']);
    expect(splitOnAdded('x', [])).toEqual(['x']);
  });
});
