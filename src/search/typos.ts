import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';
import { stem } from '../index/tokenize.js';
import { characterMask, distanceAtLeast, EditDistance } from './edit-distance.js';

/**
 * Typo tolerance for query terms the index does not have: `signiture` finds `signature`,
 * `entityEventSequnce` finds `entityEventSequence`.
 *
 * - A term the index has is never touched, so correct queries rank exactly as before; nor is an
 *   English word (the `word-list` dictionary): "inner" is a word the docs lack, not a typo of
 *   "infer".
 * - Candidates are the index's own terms (stemmed words and whole identifiers) sharing the first
 *   character (typos rarely hit it, and it keeps the scan small), within an edit distance that
 *   grows with length as Elasticsearch's `fuzziness: AUTO` does: terms of 4–5 characters get one
 *   edit, longer ones two; an adjacent transposition is one edit. The nearest wins, then the
 *   more common.
 */

const MIN_LENGTH = 4;
/** Longer terms are pasted identifiers or hashes, not typed words. */
const MAX_LENGTH = 40;
/** A query is corrected in at most this many terms, however long it is: the scan stays bounded. */
export const MAX_CORRECTED_TERMS = 8;

export function maxEdits(term: string): number {
  return term.length < MIN_LENGTH ? 0 : term.length <= 5 ? 1 : 2;
}

/** Letter runs of a text, split at camelCase boundaries too, lower-cased. */
function wordsOf(text: string): string[] {
  return text
    .split(/[^\p{L}]+|(?<=\p{Ll})(?=\p{Lu})/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * A word list, one word per line, searched by bisection over the lines' offsets sorted by word:
 * about 4 MB for the 274k words (the text itself plus an offset each), where a Set of them took
 * about 25 MB. The text is kept as read and only the offsets are sorted, because splitting it
 * into 274k strings left each search worker ~10 MB of garbage to collect at its first typo.
 */
export class SortedWords {
  private readonly text: string;
  /** Offset of each non-empty line, in code-unit order of the lines. */
  private readonly starts: Int32Array;

  constructor(lines: string) {
    this.text = lines.endsWith('\n') ? lines : `${lines}\n`;
    const text = this.text;
    let count = 0;
    for (let at = 0; at < text.length; at = text.indexOf('\n', at) + 1) if (text.charCodeAt(at) !== NEWLINE) count++;
    const starts = new Int32Array(count);
    count = 0;
    for (let at = 0; at < text.length; at = text.indexOf('\n', at) + 1)
      if (text.charCodeAt(at) !== NEWLINE) starts[count++] = at;
    this.starts = starts.sort((a, b) => this.compareLines(a, b));
  }

  has(word: string): boolean {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.compare(word, this.starts[mid]!);
      if (order === 0) return true;
      if (order < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return false;
  }

  /** `word` against the line at `start`, in code-unit order. */
  private compare(word: string, start: number): number {
    for (let k = 0; ; k++) {
      const c = this.text.charCodeAt(start + k);
      if (k === word.length) return c === NEWLINE ? 0 : -1;
      if (c === NEWLINE) return 1;
      const d = word.charCodeAt(k) - c;
      if (d !== 0) return d;
    }
  }

  /** The lines at `a` and `b` in code-unit order: a line ends at its newline, below every other character. */
  private compareLines(a: number, b: number): number {
    const text = this.text;
    for (let k = 0; ; k++) {
      const x = text.charCodeAt(a + k);
      const y = text.charCodeAt(b + k);
      if (x !== y) return x === NEWLINE ? -1 : y === NEWLINE ? 1 : x - y;
      if (x === NEWLINE) return 0;
    }
  }
}

const NEWLINE = 10;

let dictionary: SortedWords | undefined;

/** The English dictionary, read on the first query that has a term the index lacks. */
function englishWords(): SortedWords {
  dictionary ??= new SortedWords(readFileSync(wordListPath, 'utf8'));
  return dictionary;
}

/** Index terms of one first character, most common first, with each one's character mask. */
interface Bucket {
  terms: string[];
  masks: Int32Array;
}

export class TypoCorrector {
  /** Index terms by first character; built on the first typo. */
  private byInitial: Map<string, Bucket> | undefined;
  private readonly distance = new EditDistance();

  /** `terms`: every index term with its document frequency (read on the first typo). */
  constructor(private readonly terms: () => Iterable<readonly [string, number]>) {}

  /**
   * For each of `own` (the query's terms, from the tokenizer) that the index lacks and that is
   * no English word of `text`, the index term it was most likely meant as.
   */
  corrections(text: string, own: Iterable<string>, hasTerm: (term: string) => boolean): Map<string, string> {
    const out = new Map<string, string>();
    const missing = [...own].filter((t) => t.length <= MAX_LENGTH && !hasTerm(t) && maxEdits(t) > 0 && !/\d/.test(t));
    if (missing.length === 0) return out;
    const words = englishWords();
    const known = new Set(
      wordsOf(text)
        .filter((w) => words.has(w))
        .map(stem),
    );
    for (const term of missing.filter((t) => !known.has(t)).slice(0, MAX_CORRECTED_TERMS)) {
      const correction = this.nearest(term);
      if (correction !== undefined) out.set(term, correction);
    }
    return out;
  }

  private nearest(term: string): string | undefined {
    const limit = maxEdits(term);
    let best: string | undefined;
    let bestSteps = limit + 1;
    const bucket = this.buckets().get(term[0]!);
    if (!bucket) return undefined;
    const mask = characterMask(term);
    for (let i = 0; i < bucket.terms.length; i++) {
      const candidate = bucket.terms[i]!;
      if (Math.abs(candidate.length - term.length) > limit || candidate.length < MIN_LENGTH) continue;
      // Only a distance below the best so far matters: anything more counts as bestSteps.
      if (distanceAtLeast(mask, bucket.masks[i]!) >= bestSteps) continue;
      const steps = this.distance.atMost(term, candidate, bestSteps - 1);
      // Candidates come most common first, so a tie keeps the more common term.
      if (steps < bestSteps) {
        best = candidate;
        bestSteps = steps;
        if (steps === 1) break;
      }
    }
    return best;
  }

  private buckets(): Map<string, Bucket> {
    if (this.byInitial) return this.byInitial;
    const lists = new Map<string, { terms: string[]; df: number[] }>();
    for (const [term, df] of this.terms()) {
      let list = lists.get(term[0]!);
      if (!list) lists.set(term[0]!, (list = { terms: [], df: [] }));
      list.terms.push(term);
      list.df.push(df);
    }
    const byInitial = new Map<string, Bucket>();
    for (const [initial, list] of lists) {
      const order = list.terms.map((_, i) => i);
      order.sort((a, b) => list.df[b]! - list.df[a]! || (list.terms[a]! < list.terms[b]! ? -1 : 1));
      const terms = order.map((i) => list.terms[i]!);
      byInitial.set(initial, { terms, masks: Int32Array.from(terms, characterMask) });
    }
    return (this.byInitial = byInitial);
  }
}
