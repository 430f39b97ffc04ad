import { z } from 'zod';
import { unknownKnowledgeBaseMessage } from '../../search/scope.js';
import type { IndexSummary, SearchEngine } from '../../search/types.js';

/**
 * SearchDocs' input: the search term, and optionally the one knowledge base to search, an enum of
 * those served (so clients and models see the names in the tool's schema). Both are strict:
 * an argument the tool does not know is refused rather than ignored.
 */

const MAX_SEARCH_TERM_CHARS = 1000;

const searchTerm = z
  .string()
  .trim()
  .min(
    1,
    'searchTerm is empty: pass specific technical terms, e.g. an option, API or error name and what you want to do with it',
  )
  .max(
    MAX_SEARCH_TERM_CHARS,
    `searchTerm is longer than ${MAX_SEARCH_TERM_CHARS} characters: keep the key terms and drop the rest`,
  )
  .describe(
    'What to look for. Specific technical terms with context work best: the API, option, field or error names the answer would mention, and what you want to do.',
  );

/** The term alone: what the search page checks before it searches. */
export const searchDocsInputSchema = z.strictObject({ searchTerm });

function buildSearchDocsInput(knowledgeBases: readonly string[]) {
  const [first, ...rest] = knowledgeBases;
  const names: z.ZodType<string> =
    first === undefined
      ? z.never({ error: 'no knowledge base is served yet: leave knowledgeBase out' })
      : z.enum([first, ...rest], {
          error: (issue) => unknownKnowledgeBaseMessage(String(issue.input), knowledgeBases),
        });
  return z.strictObject({
    searchTerm,
    knowledgeBase: names
      .optional()
      .describe(
        `Search only this knowledge base (one of ${knowledgeBases.map((n) => `"${n}"`).join(', ')}); leave it out to search them all.`,
      ),
  });
}

type SearchDocsInput = ReturnType<typeof buildSearchDocsInput>;
let last: { key: string; schema: SearchDocsInput } | undefined;

/**
 * The tool's input over the knowledge bases served now. A new server is made per session and, in
 * the 2026-07-28 era, per request; building the schema was a fifth of that (58 of 280 µs CPU per
 * createDocsServer, in process), so the last one is kept until the served names change (a
 * reload). Zod schemas are immutable, so servers can share one.
 */
export function searchDocsInput(knowledgeBases: readonly string[]): SearchDocsInput {
  const key = JSON.stringify(knowledgeBases);
  if (last?.key !== key) last = { key, schema: buildSearchDocsInput(knowledgeBases) };
  return last.schema;
}

/** What is served now; undefined while the index is (re)loading. */
export function servedSummary(engine: SearchEngine): IndexSummary | undefined {
  try {
    return engine.summary();
  } catch {
    return undefined;
  }
}
