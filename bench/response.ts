import { DEFAULT_RESPONSE_BUDGET_CHARS, renderSearch } from '../src/mcp/render/render.js';
import { parseServerOptions } from '../src/mcp/server-options.js';
import type { SearchResult } from '../src/search/types.js';
import type { ShownResult } from './shown.js';

/**
 * What one SearchDocs call hands the assistant, as the server renders it: the text's length and,
 * per result, the sections that survive the response budget (read back from the structured
 * rendering). The only place the benchmark touches the renderer, so a change to it is one edit.
 */

/** The server's default response budget (src/mcp/render/render.ts) and result count (src/mcp/server-options.ts). */
export const RESPONSE_BUDGET_CHARS = DEFAULT_RESPONSE_BUDGET_CHARS;
export const RESULT_COUNT = parseServerOptions({}).maxResults;

export interface Response {
  /** Characters of the rendered text. */
  chars: number;
  /** Results and sections left after the budget. */
  shown: ShownResult[];
  /** The engine's results with their full windows: the same call without a budget. */
  unbudgeted: ShownResult[];
}

export function respond(
  term: string,
  results: readonly SearchResult[],
  budgetChars: number = RESPONSE_BUDGET_CHARS,
): Response {
  const rendered = renderSearch(term, results, { budgetChars });
  return {
    chars: rendered.text.length,
    shown: rendered.structured.results.map((r) => ({ doc: `${r.source}/${r.path}`, sections: r.sections })),
    unbudgeted: results.map((r) => ({ doc: `${r.source}/${r.path}`, sections: r.sections })),
  };
}
