import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { openEngine } from '../../../src/search/engine.js';
import { bundledIndex } from '../../helpers/index-fixture.js';
import {
  connectClient,
  initializeBody,
  MCP_HEADERS,
  messagesOf,
  openRawSession,
  raw,
  sessionHeaders,
  textOf,
} from '../../helpers/mcp-client.js';
import { useServedEngine } from '../../helpers/served-engine.js';

/** Status codes, headers and limits of /docs, over raw HTTP, against the real engine on the bundled index. */

const { serve, engine: served } = useServedEngine(() => openEngine(bundledIndex()));

function rpcError(text: string): { code: number; message: string } {
  return (JSON.parse(text) as { error: { code: number; message: string } }).error;
}

const LIST_TOOLS = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

describe('sessions over raw HTTP', () => {
  it('returns a session id on initialize, serves requests in it, and 404s it after DELETE', async () => {
    const server = await serve();
    const init = await raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS }, body: initializeBody() });
    expect(init.status).toBe(200);
    const id = init.headers['mcp-session-id'];
    expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(messagesOf(init.text)).toMatchObject([
      { id: 1, result: { serverInfo: { name: 'svc-docs' }, capabilities: { tools: {} } } },
    ]);
    expect(server.sessionCount()).toBe(1);

    const list = await raw(server.url, { method: 'POST', headers: sessionHeaders(id as string), body: LIST_TOOLS });
    expect(list.status).toBe(200);
    expect(messagesOf(list.text)).toMatchObject([{ id: 2, result: { tools: [{ name: 'SearchDocs' }] } }]);

    const del = await raw(server.url, { method: 'DELETE', headers: sessionHeaders(id as string) });
    expect(del.status).toBe(200);
    expect(server.sessionCount()).toBe(0);
    for (const method of ['POST', 'GET', 'DELETE']) {
      const again = await raw(server.url, {
        method,
        headers: sessionHeaders(id as string),
        body: method === 'POST' ? LIST_TOOLS : undefined,
      });
      expect(again.status).toBe(404);
      expect(rpcError(again.text).code).toBe(-32001);
    }
  });

  it('answers a request without a session id that is not initialize once, statelessly, and opens no session', async () => {
    const server = await serve();
    const post = await raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS }, body: LIST_TOOLS });
    expect(post.status).toBe(200);
    expect(post.headers['mcp-session-id']).toBeUndefined();
    expect(messagesOf(post.text)).toEqual([
      expect.objectContaining({ id: 2, result: { tools: [expect.objectContaining({ name: 'SearchDocs' })] } }),
    ]);
    // Without a session there is no server-to-client stream (405, as the 2025 spec allows) and nothing to end (400).
    const get = await raw(server.url, { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect((await raw(server.url, { method: 'DELETE', headers: { accept: 'text/event-stream' } })).status).toBe(400);
    expect(server.sessionCount()).toBe(0);
  });

  it('answers 404 to an unknown session id', async () => {
    const server = await serve();
    const res = await raw(server.url, { method: 'POST', headers: sessionHeaders('no-such-session'), body: LIST_TOOLS });
    expect(res.status).toBe(404);
    expect(rpcError(res.text)).toEqual({ code: -32001, message: expect.stringMatching(/^Session not found/) });
  });

  it('opens the server-to-client SSE stream on GET and refuses other methods with 405', async () => {
    const server = await serve();
    const id = await openRawSession(server.url);
    const get = await raw(server.url, {
      method: 'GET',
      headers: { ...sessionHeaders(id), accept: 'text/event-stream' },
      headersOnly: true,
    });
    expect(get.status).toBe(200);
    expect(get.headers['content-type']).toBe('text/event-stream');
    for (const method of ['PUT', 'PATCH']) {
      const res = await raw(server.url, { method, headers: sessionHeaders(id), body: '{}' });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, POST, DELETE');
    }
  });

  it('opens no session when the transport refuses the initialize (Accept without text/event-stream)', async () => {
    const server = await serve();
    const res = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, accept: 'application/json' },
      body: initializeBody(),
    });
    expect(res.status).toBe(406);
    expect(server.sessionCount()).toBe(0);
  });

  it('answers malformed JSON with a JSON-RPC parse error', async () => {
    const server = await serve();
    const res = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS },
      body: '{"jsonrpc": "2.0", "id": 1, "method": "initialize", ',
    });
    expect(res.status).toBe(400);
    expect(rpcError(res.text)).toEqual({ code: -32700, message: expect.stringMatching(/^Parse error/) });
  });

  it('answers an unsupported MCP-Protocol-Version with 400 naming the supported ones', async () => {
    const server = await serve();
    const id = await openRawSession(server.url);
    const res = await raw(server.url, {
      method: 'POST',
      headers: { ...sessionHeaders(id), 'mcp-protocol-version': '1999-01-01' },
      body: LIST_TOOLS,
    });
    expect(res.status).toBe(400);
    expect(rpcError(res.text).message).toMatch(
      /Unsupported protocol version: 1999-01-01 \(supported versions: 2025-11-25/,
    );
  });

  it('answers a body over the limit with 413, and a non-JSON body with 415', async () => {
    const server = await serve({ maxBodyBytes: 2048 });
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'SearchDocs', arguments: { searchTerm: 'x'.repeat(4000) } },
    });
    const res = await raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS }, body: big });
    expect(res.status).toBe(413);
    expect(rpcError(res.text).message).toMatch(/over 2048 bytes/);
    const text = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'content-type': 'text/plain' },
      body: initializeBody(),
    });
    expect(text.status).toBe(415);
    expect(server.sessionCount()).toBe(0);
  });
});

describe('access control', () => {
  it('refuses a foreign Origin or Host with 403 and accepts localhost ones (DNS rebinding)', async () => {
    const server = await serve();
    const evilOrigin = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: 'http://evil.example.com' },
      body: initializeBody(),
    });
    expect(evilOrigin.status).toBe(403);
    expect(rpcError(evilOrigin.text).message).toMatch(/Origin http:\/\/evil\.example\.com is not allowed/);
    const evilHost = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: `evil.example.com:${server.port}` },
      body: initializeBody(),
    });
    expect(evilHost.status).toBe(403);
    expect(server.sessionCount()).toBe(0);

    const local = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: `localhost:${server.port}`, origin: 'http://localhost:6274' },
      body: initializeBody(),
    });
    expect(local.status).toBe(200);
  });

  it('accepts configured names', async () => {
    const server = await serve({ allowedHosts: ['docs.internal'], allowedOrigins: ['https://portal.example.com'] });
    const ok = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: 'docs.internal', origin: 'https://portal.example.com' },
      body: initializeBody(),
    });
    expect(ok.status).toBe(200);
    const localhost = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: `localhost:${server.port}` },
      body: initializeBody(),
    });
    expect(localhost.status).toBe(403);
  });

  it('requires the bearer token when one is configured, and never logs it', async () => {
    const token = 'tok-' + 'e'.repeat(40);
    const server = await serve({ authToken: token });
    const missing = await raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS }, body: initializeBody() });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="svc-docs"');
    const wrong = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}x` },
      body: initializeBody(),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/invalid_token/);
    expect(server.sessionCount()).toBe(0);

    const { client, transport, close } = await connectClient(server.url, { authorization: `Bearer ${token}` });
    const result = (await client.callTool({
      name: 'SearchDocs',
      arguments: { searchTerm: 'webhook signature' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    await transport.terminateSession();
    await close();

    expect((await raw(server.url.replace('/docs', '/healthz'), { method: 'GET' })).status).toBe(200);
    expect(server.lines.length).toBeGreaterThan(4);
    expect(server.lines.join('\n')).not.toContain(token);
  });
});

describe('capacity and lifetime', () => {
  it('when sessions are full, an idle one of the client holding most gives way; 503 with Retry-After when none can', async () => {
    const server = await serve({ maxSessions: 3, maxSessionsPerClient: 2, trustedProxies: ['loopback'] });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const a1 = await openRawSession(server.url, from('10.0.0.1'));
    const a2 = await openRawSession(server.url, from('10.0.0.1'));
    const b1 = await openRawSession(server.url, from('10.0.0.2'));
    await openRawSession(server.url, from('10.0.0.3'));
    expect(server.sessionCount()).toBe(3);
    const gone = await raw(server.url, {
      method: 'POST',
      headers: { ...sessionHeaders(a1), ...from('10.0.0.1') },
      body: LIST_TOOLS,
    });
    expect(gone.status).toBe(404);
    expect(server.lines.some((l) => JSON.parse(l).event === 'session-evicted')).toBe(true);
    const kept = [a2, b1].map((id) =>
      raw(server.url, {
        method: 'POST',
        headers: { ...sessionHeaders(id), ...from(id === a2 ? '10.0.0.1' : '10.0.0.2') },
        body: LIST_TOOLS,
      }),
    );
    expect((await Promise.all(kept)).map((r) => r.status)).toEqual([200, 200]);
    // Everyone holds one now: a fourth client waits.
    const full = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...from('10.0.0.4') },
      body: initializeBody(),
    });
    expect(full.status).toBe(503);
    expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(rpcError(full.text).message).toMatch(/all 3 sessions are in use/);
    expect((await raw(server.url.replace('/docs', '/healthz'), { method: 'GET' })).status).toBe(200);
  });

  it('closes idle sessions: their id gets 404 and the slot is free', async () => {
    const server = await serve({ sessionIdleMs: 200 });
    const id = await openRawSession(server.url);
    expect(server.sessionCount()).toBe(1);
    // Watch the count, not the session: a request to it would be activity and keep it open.
    await vi.waitFor(() => expect(server.sessionCount()).toBe(0), { timeout: 10_000, interval: 50 });
    const res = await raw(server.url, { method: 'POST', headers: sessionHeaders(id), body: LIST_TOOLS });
    expect(res.status).toBe(404);
    expect(server.lines.some((l) => JSON.parse(l).event === 'session-expired')).toBe(true);
  });

  it('serves 50 concurrent sessions searching at once with zero failures', async () => {
    // All from one address: room for each session's stream and requests (the per-client share has
    // its own tests, test/reliability/fair-share.test.ts).
    const server = await serve({ maxRequestsPerClient: 4 * 50 });
    const terms = [
      'webhook signature verification',
      'custom trigger payload schema',
      'access token refresh instanceId',
      'session not found 404',
      'store credit issued',
    ];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, async (_, i) => {
        const { client, transport, close } = await connectClient(server.url);
        try {
          const result = (await client.callTool({
            name: 'SearchDocs',
            arguments: { searchTerm: terms[i % terms.length]! },
          })) as CallToolResult;
          if (result.isError) throw new Error(`search ${i} failed: ${JSON.stringify(result.content)}`);
          return textOf(result);
        } finally {
          await transport.terminateSession();
          await close();
        }
      }),
    );
    const failures = outcomes.filter((o) => o.status === 'rejected');
    expect(failures).toEqual([]);
    for (const o of outcomes) if (o.status === 'fulfilled') expect(o.value).not.toMatch(/^No documentation matched/);
    expect(server.sessionCount()).toBe(0);
  });

  it('close() ends every session and stops listening', async () => {
    const server = await serve();
    await openRawSession(server.url);
    const { close } = await connectClient(server.url);
    expect(server.sessionCount()).toBe(2);
    await server.close();
    expect(server.sessionCount()).toBe(0);
    await expect(raw(server.url.replace('/docs', '/healthz'), { method: 'GET' })).rejects.toThrow(/ECONNREFUSED/);
    await close();
  });
});

describe('health, readiness and logs', () => {
  it('reports alive on /healthz and the index summary on /readyz', async () => {
    const server = await serve();
    const health = await raw(server.url.replace('/docs', '/healthz'), { method: 'GET' });
    expect([health.status, JSON.parse(health.text)]).toEqual([200, { status: 'ok' }]);
    const ready = await raw(server.url.replace('/docs', '/readyz'), { method: 'GET' });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', index: served().summary(), sessions: 0 });
    expect(served().summary().knowledgeBases).toEqual(expect.arrayContaining(['svc-docs', 'svc-platform']));
  });

  it('reports not ready when the engine cannot be reached', async () => {
    const server = await serve({
      engine: () => {
        throw new Error('no index loaded yet');
      },
    });
    const ready = await raw(server.url.replace('/docs', '/readyz'), { method: 'GET' });
    expect([ready.status, JSON.parse(ready.text)]).toEqual([
      503,
      { status: 'not ready', error: 'no index loaded yet' },
    ]);
  });

  it('writes one JSON line per request with method, path, status, session and latency', async () => {
    const server = await serve();
    const id = await openRawSession(server.url);
    await raw(`${server.url}?token=secret-in-query`, {
      method: 'POST',
      headers: sessionHeaders('unknown'),
      body: LIST_TOOLS,
    });
    await raw(server.url, { method: 'DELETE', headers: sessionHeaders(id) });
    const events = server.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ event: 'listening', url: server.url, auth: false });
    const requests = events.filter((l) => 'method' in l);
    expect(requests).toHaveLength(4);
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/docs', 200],
      ['POST', '/docs', 202],
      ['POST', '/docs', 404],
      ['DELETE', '/docs', 200],
    ]);
    expect(requests.map((r) => r.session)).toEqual([id, id, 'unknown', id]);
    for (const r of requests) expect(typeof r.ms).toBe('number');
    expect(server.lines.join('\n')).not.toContain('secret-in-query');
  });
});
