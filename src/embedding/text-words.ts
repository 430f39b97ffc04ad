import { ForgetfulMap } from '../forgetful-map.js';
import { ownString } from '../own-string.js';

/**
 * Helpers of `UnigramTokenizer.encode` that let it tokenize a text word by word, each distinct
 * word once (unigram-tokenizer.ts). Splitting the raw text at ASCII spaces, tabs and line breaks
 * changes nothing the normaliser and pre-tokeniser do: both map those characters to a split and
 * work on each character alone otherwise (Bert's clean-up, CJK padding, accents: NFD reorders
 * only runs of combining marks, which a space ends; lower case: the final-sigma rule looks past
 * case-ignorable characters only, which a space is not; the long-run Replace matches letters and
 * digits only). Only `fuse_unk` looks across words, so a text with an unknown piece is fused whole.
 */

/**
 * What one raw word becomes: its pieces, and their ids with its own runs of unknown pieces fused;
 * whether its first and last pieces are unknown, since such a run goes on into the next word.
 */
export interface WordTokens {
  /** Its pieces when its first or last is unknown (else empty: no run goes on past it). */
  pieces: readonly string[];
  ids: readonly number[];
  unknownFirst: boolean;
  unknownLast: boolean;
}

/**
 * Distinct raw words remembered: a docs corpus repeats its words from section to section, and
 * these entries are small (a word and its ids). Forgotten all at once when full, so memory
 * stays bounded whatever the corpus (20 MB of heap when full of long identifiers).
 */
const WORD_CACHE_SIZE = 1 << 16;

export class WordCache {
  private readonly words: ForgetfulMap<WordTokens>;

  constructor(
    private readonly tokensOf: (word: string) => WordTokens,
    size = WORD_CACHE_SIZE,
  ) {
    this.words = new ForgetfulMap(size, ownString);
  }

  get(word: string): WordTokens {
    return this.words.get(word, this.tokensOf);
  }
}

/** Calls `each` with every run of characters between ASCII spaces, tabs, line feeds and returns. */
export function forEachRawWord(text: string, each: (word: string) => void): void {
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9 || c === 13;
    if (space) {
      if (start >= 0) each(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) each(text.slice(start));
}

/**
 * `DictionarySplitter.split` over the added tokens' literal strings (`contents`, longest first):
 * at each position the longest added token that starts there is cut out; the text between stays
 * as it is. A text that holds none of them (nearly every one) is its own single part.
 */
export function splitOnAdded(text: string, contents: readonly string[]): string[] {
  if (!contents.some((content) => content.length > 0 && text.includes(content))) return [text];
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const match = contents.find((content) => content.length > 0 && text.startsWith(content, i));
    if (match === undefined) {
      i++;
      continue;
    }
    if (i > start) parts.push(text.slice(start, i));
    parts.push(match);
    i += match.length;
    start = i;
  }
  if (start < text.length) parts.push(text.slice(start));
  return parts;
}
