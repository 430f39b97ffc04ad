import type { SearchOutcome } from '../../observe/search-outcome.js';
import type { SearchEngine, SearchResult } from '../../search/types.js';
import { renderSearch, type SearchDocsOutput } from '../render/render.js';

/**
 * One SearchDocs call: search, render within the budget, and describe what the model got. The
 * MCP tool and the search page for people both run this, so the page shows exactly what the
 * model reads.
 */

export interface SearchDocsSettings {
  /** Documents per search at most. */
  maxResults: number;
  /** Largest text answer, in characters (see render.ts). */
  responseBudgetChars: number;
}

export interface SearchDocsAnswer {
  results: SearchResult[];
  /** The text the model gets, and the same results as data (the search page reads them). */
  text: string;
  structured: SearchDocsOutput;
  outcome: SearchOutcome;
}

export async function searchDocs(
  engine: SearchEngine,
  term: string,
  settings: SearchDocsSettings,
  /** Who asked (fair-share.ts), and the one knowledge base to search (all when absent). */
  { client, knowledgeBase }: { client?: string; knowledgeBase?: string } = {},
): Promise<SearchDocsAnswer> {
  const start = performance.now();
  const results = await engine.search(term, { limit: settings.maxResults, client, knowledgeBase });
  const { text, structured, pages } = renderSearch(term, results, { budgetChars: settings.responseBudgetChars });
  const confidences = results.map((r) => r.confidence);
  const outcome: SearchOutcome = {
    term,
    results: results.length,
    bestConfidence: confidences.length === 0 ? undefined : Math.max(...confidences),
    notCovered: !structured.covered,
    chars: text.length,
    pages,
    ms: Math.round((performance.now() - start) * 100) / 100,
  };
  return { results, text, structured, outcome };
}
