import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An open MCP session: the SDK client, its transport (for the session id and terminateSession), and a close. */
export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The name the client gives in initialize (the server logs it). */
  name?: string;
  /** Off: a stream the server ends (session closed) stays ended, with no SSE reconnection. */
  reconnect?: boolean;
}

/** No SSE reconnection: the load run's sessions must see the server end their streams. */
const NO_RECONNECTION = {
  maxRetries: 0,
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1,
};

/**
 * The one way tests and the benchmark open an MCP session with the real SDK client (v1, the
 * 2025-era session client) over real HTTP: test/helpers/mcp-client.ts re-exports it.
 */
export async function connectClient(
  url: string,
  headers: Record<string, string> = {},
  options: ConnectOptions = {},
): Promise<Connected> {
  const client = new Client({ name: options.name ?? 'svc-docs-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(options.reconnect === false ? { reconnectionOptions: NO_RECONNECTION } : {}),
  });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}
