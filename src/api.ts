/**
 * `svc-docs`: the in-process API, for embedding the search or the server in another program.
 * The indexer is the CLI's (`svc-docs index`); this entry serves and searches what it built.
 */
export { SvcDocsError } from './errors.js';
export type { SvcDocsErrorCode } from './errors.js';
export { IndexError } from './index/format.js';
export { ServerOptionsError } from './settings/server-options.js';
export type { ServerOptions, ServerOptionsInput } from './settings/server-options.js';
export { SettingsError } from './settings/read-value.js';
export { openEngine, ModelMismatchError } from './search/engine.js';
export type { EngineOptions, LoadedEngine } from './search/engine.js';
export { SearchInputError } from './search/search-input.js';
export { RELEVANCE_LABELS } from './search/types.js';
export type {
  IndexSummary,
  Relevance,
  RelevanceLabel,
  SearchEngine,
  SearchOptions,
  SearchResult,
  WindowSection,
} from './search/types.js';
export { serve } from './serve/serve.js';
export type { RunningDocsServer, ServeOptions } from './serve/serve.js';
export { createDocsServer } from './mcp/tools/docs-server.js';
export { startHttpServer } from './serve/http-server.js';
export { MCP_PATH } from './serve/app.js';
export type { HttpServerOptions, RunningServer } from './serve/http-server.js';
