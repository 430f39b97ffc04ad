import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SLOW_CLIENT_TIMEOUTS } from '../../src/serve/http-server.js';
import { openEngine } from '../../src/search/engine.js';
import { sampleIndex } from '../helpers/index-fixture.js';
import { connectClient, initializeBody, MCP_HEADERS, openRawSession, raw } from '../helpers/mcp-client.js';
import { rawConnection, statusLine, waitFor, type RawConnection } from './helpers.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * Slow and stalled clients cannot tie up the server: headers trickled in, a body trickled byte by
 * byte, and an SSE stream nobody reads are all cut off within bounds, while other clients are
 * served as usual.
 */

const { serve } = useServedEngine(() => openEngine(sampleIndex()));
const connections: RawConnection[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.socket.destroy();
});

/** A real MCP client searching: what must keep working while slow clients hang around. */
async function searchWorks(url: string): Promise<void> {
  const { client, transport, close } = await connectClient(url);
  try {
    const result = (await client.callTool({
      name: 'SearchDocs',
      arguments: { searchTerm: 'verify webhook signature' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    await transport.terminateSession();
  } finally {
    await close();
  }
}

/** Writes `text` one byte every `everyMs` until the connection closes or the text runs out. */
function trickle(conn: RawConnection, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (conn.isClosed() || i >= text.length) {
      clearInterval(timer);
      return;
    }
    conn.socket.write(text[i++]!);
  }, everyMs);
  void conn.closed.then(() => clearInterval(timer));
}

const SHORT = { headersMs: 500, requestMs: 1500 };

describe('slow clients', () => {
  it('cuts off clients that trickle their headers with 408, while others are served', async () => {
    const server = await serve({ timeouts: SHORT });
    const slow: RawConnection[] = [];
    for (let i = 0; i < 20; i++) {
      const conn = await rawConnection(server.port);
      connections.push(conn);
      conn.socket.write(`POST /docs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
      // A header that never ends: one byte every 100 ms, for far longer than the timeout.
      trickle(conn, `X-Slow: ${'a'.repeat(10_000)}`, 100);
      slow.push(conn);
    }
    await searchWorks(server.url);
    await waitFor('the server to close every trickling connection', () => slow.every((c) => c.isClosed()), 20_000);
    for (const conn of slow) expect(statusLine(conn.received())).toBe('HTTP/1.1 408 Request Timeout');
    expect(server.sessionCount()).toBe(0);
  });

  it('cuts off a body trickled byte by byte with 408 after the request timeout, while others are served', async () => {
    // The ten trickled requests share one address, one client: its share is raised so each reaches the timeout.
    const server = await serve({ timeouts: SHORT, maxRequestsPerClient: 16 });
    const id = await openRawSession(server.url);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'SearchDocs', arguments: { searchTerm: 'webhook '.repeat(100) } },
    });
    const slow: RawConnection[] = [];
    for (let i = 0; i < 10; i++) {
      const conn = await rawConnection(server.port);
      connections.push(conn);
      conn.socket.write(
        `POST /docs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
          `Mcp-Session-Id: ${id}\r\nMcp-Protocol-Version: 2025-11-25\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      trickle(conn, body, 50);
      slow.push(conn);
    }
    await searchWorks(server.url);
    await waitFor('the server to close every trickling connection', () => slow.every((c) => c.isClosed()), 20_000);
    for (const conn of slow) expect(statusLine(conn.received())).toBe('HTTP/1.1 408 Request Timeout');
    // The session the trickled requests named is untouched and still usable.
    expect(server.sessionCount()).toBe(1);
    const list = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
  });

  it('enforces the default header timeout (10 s) without waiting for a 30 s connection check', async () => {
    expect(SLOW_CLIENT_TIMEOUTS).toEqual({ headersMs: 10_000, requestMs: 30_000 });
    const server = await serve();
    const conn = await rawConnection(server.port);
    connections.push(conn);
    conn.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    // Node checks for timed-out requests every connectionsCheckingInterval (30 s unless set):
    // within this bound only a server that checks often enough has closed the connection.
    await waitFor('the default header timeout to close the connection', () => conn.isClosed(), 20_000);
    expect(statusLine(conn.received())).toBe('HTTP/1.1 408 Request Timeout');
  });

  it('a client that never reads its SSE stream cannot keep its session slot: the session expires and the stream ends', async () => {
    const server = await serve({ maxSessions: 1, sessionIdleMs: 1000 });
    const id = await openRawSession(server.url);
    const conn = await rawConnection(server.port);
    connections.push(conn);
    conn.socket.write(
      `GET /docs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${id}\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n`,
    );
    await waitFor('the SSE stream to open', () => conn.received().startsWith('HTTP/1.1 200'), 10_000);
    // From here on the client reads nothing.
    conn.socket.pause();

    // The same address holds the only session: its share is full, so it is refused (429), and its
    // one session is never evicted for it.
    const full = await raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS }, body: initializeBody() });
    expect(full.status).toBe(429);
    await waitFor('the idle session to expire despite its open stream', () => server.sessionCount() === 0, 20_000);
    // The server ended the stream: once the client looks again, the connection is over.
    conn.socket.resume();
    await waitFor('the stream to end', () => conn.isClosed() || conn.received().endsWith('0\r\n\r\n'), 20_000);
    await searchWorks(server.url);
  });
});
