import { describe, expect, it } from 'vitest';
import { carriedSections, lexicalData } from '../../indexer/write/section-tokens.js';
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

  it('matches the repeated sections of an edited page to the old ones in order, each used once', () => {
    const section = (text: string): StoredSection => ({ doc: 0, headings: ['H'], text, role: 'content' });
    const doc = (firstSection: number, sectionCount: number, hash: string): StoredDocument => ({
      kb: 'kb',
      path: 'a.md',
      title: 'A',
      hash,
      firstSection,
      sectionCount,
    });
    // Old: x y x x (numbers 1-4 after an unrelated section 0); new: x x z x.
    const old = [section('other'), section('x'), section('y'), section('x'), section('x')];
    const now = [section('x'), section('x'), section('z'), section('x')];
    const oldDocs = [{ ...doc(0, 1, 'o'), path: 'o.md' }, doc(1, 4, 'before')];
    expect([...carriedSections([doc(0, 4, 'after')], now, { documents: oldDocs, sections: old })]).toEqual([
      1, 3, -1, 4,
    ]);
  });
});
