import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogEntry } from './log.js';
import { type McpRequest, mcpLogFields } from './mcp-request.js';
import type { ServerMetrics } from './metrics.js';
import type { QueryStore } from './query-store.js';
import type { SearchOutcome } from './search-outcome.js';

/**
 * Where the HTTP layer's hooks meet the log, the metrics and the query store: a request described
 * by the layer (its era, method, client) is handled inside `run`; a SearchDocs call made while it
 * runs reports through `searched`; when the request ends, `finish` completes its log line and
 * counts it.
 */

export interface RequestObserverOptions {
  /** The MCP endpoint's paths: requests to them are counted even when refused before being read. */
  mcpPaths: readonly string[];
  metrics?: ServerMetrics;
  store?: QueryStore;
  /** Search terms go into the log lines (loopback servers, or SVC_DOCS_LOG_QUERIES). */
  logQueries: boolean;
}

export interface RequestObserver {
  run<T>(res: object, request: McpRequest, handle: () => T): T;
  searched(outcome: SearchOutcome): void;
  finish(res: object, entry: LogEntry): LogEntry;
}

/** The request being handled, in the handler of any of its messages. */
const current = new AsyncLocalStorage<McpRequest>();

export function requestObserver(options: RequestObserverOptions): RequestObserver {
  const { metrics, store, logQueries } = options;
  const requests = new WeakMap<object, McpRequest>();
  return {
    run(res, request, handle) {
      requests.set(res, request);
      return current.run(request, handle);
    },
    searched(outcome) {
      const request = current.getStore();
      if (request !== undefined) request.search = outcome;
      metrics?.searched(outcome, request?.era ?? 'unknown');
      store?.record(outcome, request?.client?.name);
    },
    finish(res, entry) {
      const request = requests.get(res);
      if (request !== undefined || options.mcpPaths.includes(String(entry.path)))
        metrics?.requestEnded(request, Number(entry.status));
      return request === undefined ? entry : { ...entry, ...mcpLogFields(request, logQueries) };
    },
  };
}
