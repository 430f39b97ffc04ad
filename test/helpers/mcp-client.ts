import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Talking to the server in tests: the real SDK client, and raw HTTP for status codes. */

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

export async function connectClient(url: string, headers: Record<string, string> = {}): Promise<Connected> {
  const client = new Client({ name: 'svc-docs-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  /** For streams that stay open (GET SSE): resolve once the headers arrive, then hang up. */
  headersOnly?: boolean;
}

/** One HTTP request with full control of every header, Host included. */
export function raw(url: string, { method, headers = {}, body, headersOnly = false }: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: { ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers } }, (res) => {
      if (headersOnly) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

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
