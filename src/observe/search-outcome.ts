/**
 * What one SearchDocs call gave the model: what the log line, the metrics and the query store
 * keep of it. Built where the answer is rendered (src/mcp/tools/search-docs.ts).
 */
export interface SearchOutcome {
  /** The search term as the tool received it (trimmed). */
  term: string;
  /** Results the engine found (before the response budget). */
  results: number;
  /** The highest confidence among them, [0, 1]; undefined with no results. */
  bestConfidence: number | undefined;
  /** The answer says, or should say, that the docs do not cover the question. */
  notCovered: boolean;
  /** Characters of text the model got. */
  chars: number;
  /** The pages the answer shows, as `<knowledge base>/<path>`. */
  pages: string[];
  /** Time to search and render, in milliseconds. */
  ms: number;
}
