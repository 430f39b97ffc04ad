import { renderSearch } from '../../src/mcp/render/render.js';
import type { PassageOptions } from '../../src/search/passage-options.js';
import { parseServerOptions } from '../../src/settings/server-options.js';
import type { SearchResult } from '../../src/search/types.js';
import type { ShownResult } from './shown.js';

/**
 * What one SearchDocs call hands the assistant, as the server renders it: the text's length and,
 * per result, the section text that survives the response budget (read back from the structured
 * rendering, which carries the same sections as the text). The only place the benchmark touches
 * the renderer, so a change to it is one edit.
 */

/** The server's default response budget and result count (its options' defaults: src/settings/catalogue.ts). */
const SERVER_DEFAULTS = parseServerOptions({});
export const RESPONSE_BUDGET_CHARS = SERVER_DEFAULTS.responseBudgetChars;
export const RESULT_COUNT = SERVER_DEFAULTS.maxResults;

export interface Response {
  /** The whole rendered text, and its length. */
  text: string;
  chars: number;
  /** Results and the section text left after the budget. */
  shown: ShownResult[];
  /** Every shown section's text, results in order. */
  sections: string[];
  /** Results with their star count (0 for none), in order. */
  stars: number[];
  /** False when the response is the short "does not seem to cover" answer. */
  covered: boolean;
}

export function respond(
  term: string,
  results: readonly SearchResult[],
  budgetChars: number = RESPONSE_BUDGET_CHARS,
  /** Fitted numbers other than the shipped ones (tuning passes them; the defaults never change). */
  passages?: Partial<PassageOptions>,
): Response {
  const rendered = renderSearch(term, results, { ...passages, budgetChars });
  return {
    text: rendered.text,
    chars: rendered.text.length,
    shown: rendered.structured.results.map((r) => ({
      doc: `${r.source}/${r.path}`,
      text: r.sections.map((s) => s.text).join('\n\n'),
    })),
    sections: rendered.structured.results.flatMap((r) => r.sections.map((s) => s.text)),
    stars: rendered.structured.results.map((r) => r.relevance.stars),
    covered: rendered.structured.covered,
  };
}

/** The engine's results with their whole ±15-section windows, as if no budget applied. */
export function fullWindows(results: readonly SearchResult[]): ShownResult[] {
  return results.map((r) => ({ doc: `${r.source}/${r.path}`, text: r.sections.map((s) => s.text).join('\n\n') }));
}
