import { request } from 'node:http';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';

/**
 * Talking to the server in tests: the real SDK clients (v1, the 2025-era session client the
 * platform's interface was written for; v2, which speaks 2026-07-28 and falls back), and raw HTTP for status codes.
 */

export const MODERN_VERSION = '2026-07-28';

/** The text a tool result (v1 or v2 client) shows the model: its first content block, which must be text. */
export function textOf(result: { content: readonly { type: string }[] }): string {
  const first = result.content[0];
  if (first?.type !== 'text' || !('text' in first) || typeof first.text !== 'string')
    throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
}

export { type Connected, connectClient } from '../../bench/lib/mcp-client.js';

export interface ConnectedV2 {
  client: V2Client;
  close(): Promise<void>;
}

/** The v2 client, pinned to 2026-07-28 or negotiating ('auto': server/discover, else initialize). */
export async function connectV2(
  url: string,
  mode: 'auto' | { pin: string },
  headers: Record<string, string> = {},
): Promise<ConnectedV2> {
  const client = new V2Client({ name: 'svc-docs-test-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers } }));
  return { client, close: () => client.close() };
}

/** The per-request envelope a 2026-07-28 request carries in params._meta. */
export function envelope(version = MODERN_VERSION): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** A raw 2026-07-28 POST: the body with its envelope and the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers. */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  options: { version?: string; headers?: Record<string, string>; id?: number } = {},
): RawRequest & { body: string } {
  const version = options.version ?? MODERN_VERSION;
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': version, 'mcp-method': method, ...name, ...options.headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method,
      params: { ...params, _meta: envelope(version) },
    }),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawRequest {
  method: string;
  headers?: Record<string, string>;
  /** Any bytes, invalid UTF-8 included. */
  body?: string | Buffer;
  /** For streams that stay open (GET SSE): resolve once the headers arrive, then hang up. */
  headersOnly?: boolean;
}

/** One HTTP request with full control of every header, Host included. */
export function raw(
  url: string,
  { method, headers = {}, body, headersOnly = false }: RawRequest,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: false,
        headers: { ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers },
      },
      (res) => {
        if (headersOnly) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

export function initializeBody(id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
  });
}

/** The JSON-RPC messages of an SSE body (or a plain JSON body). */
export function messagesOf(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed: unknown = JSON.parse(trimmed);
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}

/** Opens a session over raw HTTP (initialize + initialized) and returns its id. */
export async function openRawSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const init = await raw(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: initializeBody() });
  const id = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof id !== 'string') throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const ack = await raw(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  if (ack.status !== 202) throw new Error(`initialized notification failed: ${ack.status} ${ack.text}`);
  return id;
}

export function sessionHeaders(id: string): Record<string, string> {
  return { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
}
