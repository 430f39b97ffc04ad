import type { SearchResult } from '../../search/types.js';
import { pageUri } from '../tools/page-uri.js';
import { cutMarkdown } from './cut-markdown.js';
import { oneLine } from './one-line.js';

/**
 * The answer to a question the docs do not cover (src/search/coverage.ts): said in a line, with at
 * most the two closest pages in a few lines each, instead of 11,000 characters of near misses
 * labelled as answers. The model can still read those pages, or search again in other words.
 */

/** Pages named in a not-covered answer, and how much of each one's best section is quoted. */
export const NOT_COVERED_PAGES = 2;
export const NOT_COVERED_QUOTE_CHARS = 240;

/** The start of a section's body (its heading line dropped), on one line. */
export function quoteOf(text: string): string {
  const body = text.replace(/^\s*#{1,6}\s[^\n]*\n/, '');
  const { text: head, omitted } = cutMarkdown(body.replace(/\s+/g, ' ').trim(), NOT_COVERED_QUOTE_CHARS);
  return omitted > 0 ? `${head} …` : head;
}

export function notCoveredText(term: string, results: readonly SearchResult[]): string {
  const lines = [
    `The documentation does not seem to cover ${JSON.stringify(oneLine(term))}: no page matches the question's main words together, so the pages below are only the closest ones. Search again with the documentation's own terms (API, option or error names), or treat this as not documented.`,
  ];
  results.slice(0, NOT_COVERED_PAGES).forEach((r, i) => {
    const best = r.sections.find((s) => s.isBest) ?? r.sections[0]!;
    const where = best.headings.length > 0 ? ` > ${oneLine(best.headings.join(' > '))}` : '';
    lines.push(
      '',
      `${i + 1}. ${oneLine(r.title || r.path)} (${oneLine(r.source)}, ${oneLine(r.path)}; ${r.relevance.label})${where}`,
      `   ${quoteOf(best.text)}`,
      `   ${pageUri(r.source, r.path)}`,
    );
  });
  return lines.join('\n');
}
