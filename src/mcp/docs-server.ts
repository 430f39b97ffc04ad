import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { projectRoot } from '../paths.js';
import type { SearchEngine } from '../search/types.js';
import { renderSearch, searchDocsOutputSchema } from './render.js';

/**
 * The MCP face of the search engine: one tool, SearchDocs. Knows nothing about HTTP; the
 * transport layer connects one of these per session.
 */

export const TOOL_NAME = 'SearchDocs';
export const MAX_SEARCH_TERM_CHARS = 1000;

export const searchDocsInputSchema = z.strictObject({
  searchTerm: z
    .string()
    .trim()
    .min(1, 'searchTerm is empty: pass specific technical terms, e.g. "verify webhook JWT signature"')
    .max(MAX_SEARCH_TERM_CHARS, `searchTerm is longer than ${MAX_SEARCH_TERM_CHARS} characters: keep the key terms and drop the rest`)
    .describe('What to look for. Specific technical terms with context work best, e.g. "custom trigger payload schema email format".'),
});

export interface DocsServerOptions {
  /** Largest result, text and structured copy together (see render.ts). */
  responseBudgetChars: number;
  /** Documents per search at most. */
  maxResults: number;
  /** Operator log (one line per event); tool errors are reported here as well as to the client. */
  log?: (line: string) => void;
}

const DEFAULTS: DocsServerOptions = { responseBudgetChars: 60_000, maxResults: 5 };

let version: string | undefined;
function packageVersion(): string {
  if (version === undefined) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8'));
      version = z.object({ version: z.string() }).parse(pkg).version;
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

function describeTool(engine: SearchEngine, maxResults: number): string {
  let knowledgeBases = '';
  try {
    const kbs = engine.summary().knowledgeBases;
    if (kbs.length > 0) knowledgeBases = ` Knowledge bases: ${kbs.join(', ')}.`;
  } catch {
    // The index may be reloading; the description is still useful without the list.
  }
  return [
    `Search the platform documentation (hybrid keyword + semantic search over the knowledge base).${knowledgeBases}`,
    'Write specific technical terms with context, e.g. "verify webhook JWT signature", "custom trigger payload number format", ' +
      '"refresh OAuth access token per instanceId", rather than one generic word. Identifiers (field names, headers, event types) ' +
      'are matched exactly and by their parts. Ask one question per call; call again with other terms if results miss.',
    `Returns up to ${maxResults} documents, best first. Each result has Title, Source (knowledge base), Path, ` +
      'Relevance (★★★ Excellent match, ★★ Very relevant, ★ Relevant, Somewhat relevant, Moderate match) and Content: ' +
      'up to 31 consecutive sections of the document centred on the best-matching section, which is marked ">>>>> BEST MATCH". ' +
      'No results is a normal answer: rephrase.',
  ].join('\n\n');
}

/** A new MCP server exposing SearchDocs over `engine`; connect it to one transport. */
export function createDocsServer(engine: SearchEngine, options: Partial<DocsServerOptions> = {}): McpServer {
  const { responseBudgetChars, maxResults, log } = { ...DEFAULTS, ...options };
  const server = new McpServer(
    { name: 'svc-docs', title: 'svc documentation search', version: packageVersion() },
    {
      capabilities: { logging: {} },
      instructions:
        'svc-docs answers questions about the documentation it indexes. Call SearchDocs before guessing at an API, header, field or ' +
        'workflow; search with specific technical terms and read the best-match section first.',
    },
  );

  server.registerTool(
    TOOL_NAME,
    {
      title: 'Search documentation',
      description: describeTool(engine, maxResults),
      inputSchema: searchDocsInputSchema,
      outputSchema: searchDocsOutputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ searchTerm }) => {
      let results;
      try {
        results = await engine.search(searchTerm, { limit: maxResults });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        log?.(JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'search-failed', error: reason }));
        await server.sendLoggingMessage({ level: 'error', logger: 'svc-docs', data: `search failed: ${reason}` }).catch(() => undefined);
        return {
          isError: true,
          content: [
            {
              type: 'text' as const,
              text: `SearchDocs could not search the index: ${reason}. The session is still usable: retry, and if this keeps happening ask the server operator to check the server log and the index ('svc-docs index').`,
            },
          ],
        };
      }
      const rendered = renderSearch(searchTerm, results, responseBudgetChars);
      return { content: [{ type: 'text' as const, text: rendered.text }], structuredContent: rendered.structured };
    },
  );
  return server;
}
