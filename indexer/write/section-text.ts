import type { FieldTokens } from '../../src/index/lexical-data.js';
import type { StoredSection } from '../../src/index/format.js';
import { plainText, STOP_WORDS, tokenize } from '../../src/index/tokenize.js';

/** What the indexer derives from a section's text: the model's input, the BM25F fields, the expansion vocabulary. */

/** Runs of word characters with identifier punctuation: only plain words among them qualify. */
const VOCABULARY_TOKEN = /[\p{L}\p{N}_]+(?:[.\-/:@][\p{L}\p{N}_]+)*/gu;
/** A plain word: lower case or Capitalised, letters only (not `getRepository`, `v1`, `argocd-cm`). */
const PLAIN_WORD = /^\p{Lu}?\p{Ll}{2,29}$/u;
const MAX_VOCABULARY = 50_000;

/** What the model reads for a section: where it sits (title, headings) and what it says. */
export function embeddingText(title: string, section: Pick<StoredSection, 'headings' | 'text'>): string {
  return [title, section.headings.join(' > '), plainText(bodyOf(section.text))]
    .filter((p) => p.trim() !== '')
    .join('\n');
}

/** The section text without its own heading line (headings are a field of their own). */
function bodyOf(text: string): string {
  return text.replace(/^\s*#{1,6}[ \t][^\n]*\n?/, '').replace(/^\s*[^\n]+\n(=+|-+)[ \t]*\n?/, '');
}

export function lexicalFields(title: string, section: Pick<StoredSection, 'headings' | 'text'>): FieldTokens {
  return {
    title: tokenize(title),
    headings: tokenize(section.headings.join('\n')),
    body: tokenize(plainText(bodyOf(section.text))),
  };
}

/**
 * How often each plain word occurs in `sections`, added to `counts` (or, with `sign` -1, taken
 * away: a reindex adjusts the previous build's counts by the sections that went and came rather
 * than reading every section again). Words whose count falls to 0 are dropped.
 */
export function countWords(
  sections: Iterable<Pick<StoredSection, 'text'>>,
  counts = new Map<string, number>(),
  sign: 1 | -1 = 1,
): Map<string, number> {
  for (const s of sections) {
    for (const m of plainText(s.text).matchAll(VOCABULARY_TOKEN)) {
      if (!PLAIN_WORD.test(m[0])) continue;
      const w = m[0].toLowerCase();
      if (STOP_WORDS.has(w)) continue;
      const c = (counts.get(w) ?? 0) + sign;
      if (c === 0) counts.delete(w);
      else counts.set(w, c);
    }
  }
  return counts;
}

/**
 * Words of the corpus that may bridge a query to the docs: plain words seen at least twice, most
 * frequent first. Identifiers are left out: their vectors are averages of word pieces
 * (`getRepository` ≈ `repository`), which would make them look like synonyms of their parts.
 */
export function vocabularyOf(counts: ReadonlyMap<string, number>): string[] {
  return [...counts]
    .filter(([, c]) => c >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_VOCABULARY)
    .map(([w]) => w);
}
