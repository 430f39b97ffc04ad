import { describe, expect, it } from 'vitest';
import { lexicalData } from '../../indexer/write/section-tokens.js';
import { buildLexicalData } from '../../src/index/build-lexical.js';
import type { StoredDocument, StoredSection } from '../../src/index/format.js';
import type { FieldTokens } from '../../src/index/lexical-data.js';

/**
 * A reindex carries the previous build's postings for unchanged sections, after checking a
 * sample of them against today's tokenizer: the result is what tokenizing every section gives.
 */

const SECTIONS: StoredSection[] = Array.from({ length: 250 }, (_, s) => ({
  doc: 0,
  headings: [`Part ${s % 7}`],
  text: `word${s % 13} common word${s % 5} text word${s % 13}`,
  role: 'content',
}));
const DOCUMENTS: StoredDocument[] = [
  { kb: 'kb', path: 'a.md', title: 'Alpha', hash: 'h', firstSection: 0, sectionCount: SECTIONS.length },
];

const split = (text: string) => text.toLowerCase().split(/\s+/);
const tokenizer =
  (suffix: string) =>
  (doc: StoredDocument, section: StoredSection): FieldTokens => ({
    title: split(doc.title),
    headings: split(section.headings.join(' ')),
    body: split(section.text).map((w) => w + suffix),
  });

/** Every section carried from the previous build but the last, which is new. */
const OLD_OF = Int32Array.from(SECTIONS, (_, s) => (s === SECTIONS.length - 1 ? -1 : s));

const everySection = (tokenize: ReturnType<typeof tokenizer>) =>
  buildLexicalData(SECTIONS.map((s) => tokenize(DOCUMENTS[0]!, s)));

describe('lexical statistics of a reindex', () => {
  it('carries the postings over when the tokenizer is the one that made them', () => {
    const before = everySection(tokenizer(''));
    const after = lexicalData(DOCUMENTS, SECTIONS, { lexical: before, oldOf: OLD_OF }, tokenizer(''));
    expect(after).toEqual(before);
  });

  it('tokenizes every section again when the tokenizer changed since', () => {
    const before = everySection(tokenizer(''));
    const after = lexicalData(DOCUMENTS, SECTIONS, { lexical: before, oldOf: OLD_OF }, tokenizer('s'));
    expect(after).toEqual(everySection(tokenizer('s')));
  });
});
