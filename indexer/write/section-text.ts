import type { FieldTokens } from '../../src/index/lexical-data.js';
import type { StoredSection } from '../../src/index/format.js';
import { plainText, tokenize } from '../../src/index/tokenize.js';

/** What the indexer derives from a section's text: the model's input and the BM25F fields. */

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
