import { isLoopback } from '../http/access.js';
import type { ServerOptions } from '../settings/server-options.js';
import type { LogEntry } from '../observe/log.js';
import type { LogFormat } from '../settings/observability.js';
import { queryStoreFiles } from '../observe/query-record.js';
import type { IndexSummary } from '../search/types.js';
import type { ServeSettings } from '../settings/commands.js';
import { clientAddress } from '../serve/client-address.js';
import { clientConfigs } from './client-config.js';

/**
 * What `svc-docs serve` logs about itself: how it starts (the settings that shape what it logs,
 * records and offers) and, once serving, where it is and what to paste into an MCP client.
 */

export function startEntry(settings: ServeSettings, format: LogFormat, watch: boolean): LogEntry {
  const { server } = settings;
  return {
    event: 'start',
    pid: process.pid,
    node: process.version,
    index: settings.indexDir,
    ...(watch ? { watch: settings.corpusDirs } : {}),
    host: server.host,
    port: server.port,
    searchThreads: settings.searchThreads,
    logFormat: format,
    logQueries: server.logQueries ?? isLoopback(server.host),
    metrics: server.metrics,
    webPage: server.webPage,
    queryStore: server.queryStore ? queryStoreFiles(settings.indexDir).current : false,
  };
}

/**
 * The server is serving: the URL clients should use (clientAddress: an accepted host name, not a
 * wildcard bind) and what to know about it, its other endpoints, its index, and the client
 * configuration to paste. `listening` is the endpoint where the server listens.
 */
export function readyEntry(listening: string, server: ServerOptions, index: IndexSummary): LogEntry {
  const { url, notes } = clientAddress(listening, server);
  const [main] = clientConfigs(url, { auth: server.authToken !== undefined });
  const base = url.replace(/\/docs$/, '');
  return {
    event: 'ready',
    message: `svc-docs is serving MCP at ${url}`,
    url,
    ...(notes.length > 0 ? { notes } : {}),
    ...(server.webPage ? { page: `${base}/` } : {}),
    ...(server.metrics ? { metrics: `${base}/metrics` } : {}),
    knowledgeBases: index.knowledgeBases,
    documents: index.documents,
    sections: index.sections,
    builtAt: index.builtAt,
    clientConfig: JSON.parse(main!.text) as unknown,
    moreClients: `svc-docs config --url ${url}`,
  };
}
