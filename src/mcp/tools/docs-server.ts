import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { projectRoot } from '../../project-root.js';
import { SearchInputError } from '../../search/search-input.js';
import type { SearchEngine } from '../../search/types.js';
import { registerPageResources } from './page-resources.js';
import type { PageIndex } from './pages.js';
import { describeTool } from './describe.js';
import { searchDocs, type SearchDocsSettings } from './search-docs.js';
import { searchDocsInput, servedSummary } from './search-schema.js';
import { errorText, logLine } from '../../observe/log.js';
import type { SearchOutcome } from '../../observe/search-outcome.js';
import { parseServerOptions } from '../../settings/server-options.js';

/**
 * The MCP face of the search engine: the SearchDocs tool and the indexed pages as resources.
 * Knows nothing about HTTP or protocol eras: the transport
 * layer builds one of these per session (2025 era) or per request (2026-07-28).
 */

const TOOL_NAME = 'SearchDocs';
interface DocsServerOptions extends SearchDocsSettings {
  /** Largest page answer of resources/read; a longer page is read in parts. */
  pageBudgetChars: number;
  /** The loaded index's pages, read per request; without it no page resources are offered. */
  pages?: () => PageIndex;
  /** Operator log (one line per event); tool errors are reported here as well as to the client. */
  log?: (line: string) => void;
  /** Told what each SearchDocs call gave the model (the log line, metrics, the query store). */
  onSearch?: (outcome: SearchOutcome) => void;
}

/** The server's own defaults (settings/server-options.ts), for callers that pass none. */
const DEFAULTS = parseServerOptions({});

/** An index with no pages, for a server started without one (tests of the HTTP layer). */
const NO_PAGES: PageIndex = { documents: [], sections: [] };

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

function searchFailed(reason: string) {
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

function registerSearchTool(server: McpServer, engine: SearchEngine, options: DocsServerOptions): void {
  const { log, onSearch } = options;
  server.registerTool(
    TOOL_NAME,
    {
      title: 'Search documentation',
      description: describeTool(engine, options.maxResults),
      inputSchema: searchDocsInput(servedSummary(engine)?.knowledgeBases ?? []),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ searchTerm, knowledgeBase }, ctx) => {
      let answer;
      try {
        // The client the HTTP layer tagged the request with: searches are served in turn by client.
        answer = await searchDocs(engine, searchTerm, options, {
          client: ctx.http?.authInfo?.clientId,
          knowledgeBase,
        });
      } catch (error) {
        // A knowledge base gone since this session listed the tool: the caller's to fix, not the index's.
        if (error instanceof SearchInputError)
          return { isError: true, content: [{ type: 'text' as const, text: `SearchDocs: ${error.message}` }] };
        const reason = errorText(error);
        log?.(logLine({ level: 'error', event: 'search-failed', error: reason }));
        return searchFailed(reason);
      }
      onSearch?.(answer.outcome);
      // Text only: clients such as Claude Code show the model only structuredContent when it is present.
      return { content: [{ type: 'text' as const, text: answer.text }] };
    },
  );
}

/** A new MCP server exposing SearchDocs (and the pages) over `engine`; connect it to one transport. */
export function createDocsServer(engine: SearchEngine, options: Partial<DocsServerOptions> = {}): McpServer {
  const settings: DocsServerOptions = { ...DEFAULTS, ...options };
  const server = new McpServer(
    { name: 'svc-docs', title: 'svc documentation search', version: packageVersion() },
    {
      // prompts makes prompts/list answer (empty) rather than -32601, which some clients treat as
      // fatal. The lists change only when an index is reloaded, and no list_changed notification
      // is sent then, so none is promised (the SDK would otherwise announce listChanged: true).
      capabilities: {
        logging: {},
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
      },
      instructions:
        'svc-docs answers questions about the documentation it indexes. Call SearchDocs before guessing at an API, header, field or ' +
        'workflow; search with specific technical terms and read the best-match section first.',
    },
  );
  registerSearchTool(server, engine, settings);
  const pages = settings.pages ?? (() => NO_PAGES);
  registerPageResources(server, pages, settings.pageBudgetChars);
  return server;
}
