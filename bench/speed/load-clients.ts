import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { MemorySample } from './load-report.js';
import { connectClient } from '../lib/mcp-client.js';

/** The load run's clients (bench/speed/load.ts): MCP sessions, raw initializes, hung streams, and the heap measure. */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export async function settledMemory(): Promise<MemorySample> {
  for (let i = 0; i < 4; i++) {
    gc();
    // Let finalizers and closed sockets' callbacks run between collections.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsedBytes: heapUsed, rssBytes: rss };
}

export interface Session {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

export async function openSession(url: string): Promise<Session> {
  // No SSE reconnection: a stream the server ends (session closed) must stay ended.
  const { client, transport } = await connectClient(url, {}, { name: 'svc-docs-load', reconnect: false });
  return { client, transport };
}

export async function search(session: Session, term: string): Promise<void> {
  const result = (await session.client.callTool({
    name: 'SearchDocs',
    arguments: { searchTerm: term },
  })) as CallToolResult;
  if (result.isError)
    throw new Error(`SearchDocs "${term}" answered an error: ${JSON.stringify(result.content).slice(0, 200)}`);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  // The text is all a search answers: "No documentation matched" is its empty answer (render.ts).
  if (text.startsWith('No documentation matched')) throw new Error(`SearchDocs "${term}" found nothing`);
}

/** A client that hangs: it opened a session and its SSE stream, then stopped reading and never closes. */
export interface HungClient {
  /** Resolves when the server ends the stream (after the session expired). */
  ended: Promise<void>;
  destroy(): void;
}

export function hangOnStream(url: string, sessionId: string): Promise<HungClient> {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const req: ClientRequest = request(url, { method: 'GET', agent: false, headers }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET stream answered ${res.statusCode}`));
        res.destroy();
        return;
      }
      // The application never reads the stream: its events pile up unread (test/reliability/
      // slow-clients.test.ts also stops reading at the TCP level). The socket still notices
      // when the server ends the stream.
      res.pause();
      const ended = new Promise<void>((done) => {
        res.socket.once('end', () => done());
        res.socket.once('close', () => done());
      });
      resolve({ ended, destroy: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

export async function rawInitialize(
  url: string,
): Promise<{ status: number; retryAfter: string | null; body: string; sessionId: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'svc-docs-load-raw', version: '1.0.0' },
      },
    }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: await res.text(),
    sessionId: res.headers.get('mcp-session-id'),
  };
}

export async function rawSession(url: string): Promise<string> {
  const init = await rawInitialize(url);
  if (init.status !== 200 || init.sessionId === null) throw new Error(`initialize answered ${init.status}`);
  const ack = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': init.sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await ack.text();
  if (ack.status !== 202) throw new Error(`initialized answered ${ack.status}`);
  return init.sessionId;
}

/** Runs `count` jobs on `workers` workers; job i gets its index. */
export async function pool(count: number, workers: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(workers, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
}
