import { MCP_HEADERS, sessionHeaders } from '../helpers/mcp-client.js';
import { send, type HttpAnswer } from './helpers.js';

/** The requests of the hostile-input table (hostile-input.test.ts): what a row is, and the helpers rows send with. */

/** What a row must get. */
export type Expected =
  /** An HTTP-level refusal with a JSON-RPC error body. */
  | { http: number; code: number; message: RegExp }
  /** Refused by Node's HTTP parser before the app sees it: a status line and no JSON. */
  | { parser: number }
  /** 200 with a JSON-RPC error response for the request. */
  | { rpcError: number[]; message: RegExp }
  /** 200 with a SearchDocs tool error (isError) that says what is wrong. */
  | { toolError: RegExp }
  /** 200 with a normal SearchDocs answer (results, "not covered", or "No documentation matched"). */
  | { answered: true; query?: string }
  /** 200 with one JSON-RPC response per request of a batch. */
  | { batch: number }
  /** 202: accepted, nothing to answer (a notification or a response). */
  | { accepted: true };

export interface Row {
  name: string;
  /** The request: `session` is a fresh session id, `port` the server's. */
  send: (ctx: { url: string; port: number; session: string }) => Promise<HttpAnswer | string>;
  expect: Expected;
}

export const MAX_BODY = 2 * 1024 * 1024;
export const TOKEN = 'reliability-token-' + 'k'.repeat(32);

export const post = (
  url: string,
  session: string | undefined,
  body: string | Buffer,
  headers: Record<string, string> = {},
) => send(url, 'POST', { ...(session === undefined ? MCP_HEADERS : sessionHeaders(session)), ...headers }, body);

export const call = (args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'SearchDocs', arguments: args } });
export const searchFor = (term: string) => call({ searchTerm: term });
export const inSession =
  (body: string | Buffer, headers: Record<string, string> = {}) =>
  ({ url, session }: { url: string; session: string }) =>
    post(url, session, body, headers);

/** The request line and headers of a raw POST in a session, for rows Node's client would refuse to send. */
export const rawHead = (port: number, session: string, extra = '') =>
  `POST /docs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
  `Mcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-11-25\r\nConnection: close\r\n${extra}`;

export const REGEX_METACHARACTERS = '.*+?^${}()|[]\\ (a+)+$ ((((( [[[ \\\\ ** ?? (?=x) (?<n>y) \\p{L}';
export const QUERY_SYNTAX =
  'title:webhooks AND -signature OR "exact phrase" ~2 ^3 * NOT (a OR b) {c} path:/etc/passwd kb:* 1..10';
export const BINARY = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');
