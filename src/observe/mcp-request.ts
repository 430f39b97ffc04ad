import { record } from '../record.js';
import type { SearchOutcome } from './search-outcome.js';

/**
 * What an MCP request is, for the log line and the metrics: its era, JSON-RPC method, tool and
 * client, read off its body (and, for a 2025 session, the client that opened it), and what its
 * SearchDocs call found. The HTTP layer describes the request and runs its handling inside it
 * (request-observer.ts); the SearchDocs handler, deep in the SDK's call chain, adds its outcome
 * to the same object.
 */

export const ERAS = ['2025', '2026-07-28'] as const;
export type Era = (typeof ERAS)[number];

export interface ClientInfo {
  name: string;
  version?: string;
}

export interface McpRequest {
  era: Era;
  /** The JSON-RPC method (`tools/call`), `batch`, or the HTTP method of a GET or DELETE. */
  method: string;
  /** The tool a tools/call names. */
  tool?: string;
  client?: ClientInfo;
  search?: SearchOutcome;
}

/** The 2026-07-28 envelope's key for the client's name and version (in params._meta). */
const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';
/** Client-chosen text kept in logs and records at most this long. */
const MAX_CLIENT_TEXT = 100;

function clientText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, MAX_CLIENT_TEXT) : undefined;
}

/** A clientInfo object as sent (initialize's params.clientInfo, or the envelope's), if it names the client. */
function clientInfo(value: unknown): ClientInfo | undefined {
  const info = record(value);
  const name = clientText(info?.name);
  if (name === undefined) return undefined;
  const version = clientText(info?.version);
  return version === undefined ? { name } : { name, version };
}

/** The client a message names: initialize's clientInfo, or the 2026-07-28 envelope's. */
function clientOfMessage(message: unknown): ClientInfo | undefined {
  const params = record(record(message)?.params);
  return clientInfo(params?.clientInfo) ?? clientInfo(record(params?._meta)?.[CLIENT_INFO_META]);
}

/** The client a body (one message or a batch) names. */
export function clientOfBody(body: unknown): ClientInfo | undefined {
  return (Array.isArray(body) ? body : [body]).map(clientOfMessage).find((client) => client !== undefined);
}

/** A POST body's description; `sessionClient` is the 2025 session's client, when the body names none. */
export function describeMcpBody(body: unknown, era: Era, sessionClient?: ClientInfo): McpRequest {
  const first = record(Array.isArray(body) ? body[0] : body);
  const method = Array.isArray(body) ? 'batch' : typeof first?.method === 'string' ? first.method : 'response';
  const name = record(first?.params)?.name;
  const tool = method === 'tools/call' && typeof name === 'string' ? name.slice(0, MAX_CLIENT_TEXT) : undefined;
  const client = clientOfBody(body) ?? sessionClient;
  return { era, method, ...(tool === undefined ? {} : { tool }), ...(client === undefined ? {} : { client }) };
}

/** The log fields of a described request: the search term only when queries are logged. */
export function mcpLogFields(request: McpRequest, logQueries: boolean): Record<string, unknown> {
  const { era, method, tool, client, search } = request;
  return {
    era,
    mcpMethod: method,
    ...(tool === undefined ? {} : { tool }),
    ...(client === undefined ? {} : { client: client.name, clientVersion: client.version }),
    ...(search === undefined
      ? {}
      : {
          ...(logQueries ? { term: search.term } : {}),
          results: search.results,
          bestConfidence: search.bestConfidence,
          notCovered: search.notCovered,
          chars: search.chars,
          searchMs: search.ms,
        }),
  };
}
