import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverOptionsFromEnv } from '../helpers/server-settings.js';
import { openEngine } from '../../src/search/engine.js';
import { sampleIndex, tempDir } from '../helpers/index-fixture.js';
import { MCP_HEADERS, messagesOf, modernRequest, openRawSession, raw, sessionHeaders } from '../helpers/mcp-client.js';
import { rawExchange, statusLine, waitFor } from './helpers.js';
import { heldEngine } from '../helpers/held-engine.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * Three findings about the server, each reproduced against the real server over a
 * real index: what used to happen is what each test would see if the fix were undone.
 */

const TOKEN = 'findings-token-' + 'q'.repeat(32);

const { serve, engine: served } = useServedEngine(() => openEngine(sampleIndex()));

const search = (id: number, term = 'skip duplicate event id') =>
  ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'SearchDocs', arguments: { searchTerm: term } },
  }) as const;

function errorOf(text: string): { code: number; message: string } {
  return (messagesOf(text)[0] as { error: { code: number; message: string } }).error;
}

describe('finding 1: one request cannot carry a batch of searches', () => {
  it('refuses a JSON-RPC batch of tool calls with a clear error, in a session and without one', async () => {
    const server = await serve();
    const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => search(i)));
    const session = await openRawSession(server.url);
    for (const headers of [sessionHeaders(session), { ...MCP_HEADERS }]) {
      const res = await raw(server.url, { method: 'POST', headers, body: batch });
      expect(res.status).toBe(400);
      expect(errorOf(res.text)).toEqual({
        code: -32600,
        message: expect.stringMatching(/batch may not hold tools\/call .*one per request/),
      });
    }
    // A batch without tool calls is still answered per message, as the 2025-03-26 revision allows.
    const other = await raw(server.url, {
      method: 'POST',
      headers: sessionHeaders(session),
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]),
    });
    expect(other.status).toBe(200);
  });
});

describe('finding 2: a client that never reads cannot pin a session', () => {
  it('bounds the requests pending in one session (429), and serves them once they can finish', async () => {
    const held = heldEngine(served);
    const server = await serve({ engine: () => held.engine });
    const session = await openRawSession(server.url);
    const pending = Array.from({ length: 8 }, (_, i) =>
      raw(server.url, { method: 'POST', headers: sessionHeaders(session), body: JSON.stringify(search(i)) }),
    );
    await waitFor('8 searches pending', () => held.waiting() === 8);
    const ninth = await raw(server.url, {
      method: 'POST',
      headers: sessionHeaders(session),
      body: JSON.stringify(search(9)),
    });
    expect(ninth.status).toBe(429);
    expect(ninth.headers['retry-after']).toBe('1');
    held.release();
    for (const res of await Promise.all(pending)) expect(res.status).toBe(200);
  });

  it('expires a session whose requests stay pending for the idle time, freeing its slot at the cap', async () => {
    const held = heldEngine(served);
    const server = await serve({ engine: () => held.engine, maxSessions: 1, sessionIdleMs: 400 });
    const session = await openRawSession(server.url);
    const stuck = raw(server.url, {
      method: 'POST',
      headers: sessionHeaders(session),
      body: JSON.stringify(search(1)),
    });
    await waitFor('the search pending', () => held.waiting() === 1);
    await waitFor('the pinned session to expire', () => server.sessionCount() === 0, 10_000);
    expect(server.lines.some((l) => JSON.parse(l).event === 'session-expired')).toBe(true);
    // The slot is free again: a new client gets a session instead of 503.
    await openRawSession(server.url);
    held.release();
    await stuck.catch(() => undefined);
  });

  it('caps exchanges without a session (2026-07-28, session-less 2025) like sessions: 503 with Retry-After', async () => {
    const held = heldEngine(served);
    const server = await serve({ engine: () => held.engine, maxSessions: 1 });
    const first = raw(
      server.url,
      modernRequest('tools/call', { name: 'SearchDocs', arguments: { searchTerm: 'webhooks' } }),
    );
    await waitFor('the first search pending', () => held.waiting() === 1);
    const second = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS },
      body: JSON.stringify(search(2)),
    });
    expect(second.status).toBe(503);
    expect(second.headers['retry-after']).toBe('1');
    held.release();
    expect((await first).status).toBe(200);
  });
});

describe('finding 5: the smaller holes', () => {
  it('keeps /readyz behind the Host and token checks of /docs, and /healthz open', async () => {
    const server = await serve({ authToken: TOKEN });
    const base = server.url.replace(/\/docs$/, '');
    expect((await raw(`${base}/readyz`, { method: 'GET' })).status).toBe(401);
    expect(
      (
        await raw(`${base}/readyz`, {
          method: 'GET',
          headers: { authorization: `Bearer ${TOKEN}`, host: 'evil.example' },
        })
      ).status,
    ).toBe(403);
    const ready = await raw(`${base}/readyz`, { method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } });
    expect([ready.status, JSON.parse(ready.text).status]).toEqual([200, 'ready']);
    expect((await raw(`${base}/healthz`, { method: 'GET', headers: { host: 'probe.internal' } })).status).toBe(200);
  });

  it('refuses duplicate Host headers and absolute-form request targets', async () => {
    const server = await serve();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const tail = `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const twoHosts = await rawExchange(
      server.port,
      `POST /docs HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n${tail}`,
    );
    const absolute = await rawExchange(
      server.port,
      `POST http://evil.example/docs HTTP/1.1\r\nHost: localhost\r\n${tail}`,
    );
    for (const answer of [twoHosts, absolute]) expect(statusLine(answer)).toMatch(/^HTTP\/1\.1 400 /);
    expect(twoHosts).toContain('more than one Host header');
    expect(absolute).toContain('not an absolute URL');
  });

  it('answers a CORS preflight for an allowed origin, with the MCP headers, and refuses other origins', async () => {
    const server = await serve({ allowedOrigins: ['https://portal.example.com'] });
    const preflight = await raw(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://portal.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://portal.example.com');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(
      /Mcp-Session-Id.*MCP-Protocol-Version.*Mcp-Method.*Mcp-Name/,
    );
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    const foreign = await raw(server.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);
    const post = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: 'https://portal.example.com' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(post.headers['access-control-allow-origin']).toBe('https://portal.example.com');
    expect(String(post.headers['access-control-expose-headers'])).toContain('Mcp-Session-Id');
  });

  it('answers invalid arguments with a short message the model can act on, not a validation dump', async () => {
    const server = await serve();
    const res = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS },
      body: JSON.stringify({
        ...search(1),
        params: { name: 'SearchDocs', arguments: { searchTerm: 5, extra: [1, 2] } },
      }),
    });
    const result = (messagesOf(res.text)[0] as { result: { isError: boolean; content: { text: string }[] } }).result;
    // A tool execution error (isError), as MCP 2025-11-25 asks for input validation, so the model can correct itself.
    expect(result.isError).toBe(true);
    const text = result.content[0]!.text;
    expect(text).toMatch(/searchTerm: .*expected string/);
    expect(text.length).toBeLessThan(300);
    expect(text).not.toMatch(/[{[]\s*"(code|path|expected)"/);
  });

  it('says tools named like Object.prototype members are not found, in both eras', async () => {
    const server = await serve();
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const legacy = await raw(server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS },
        body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name, arguments: {} } }),
      });
      const modern = await raw(server.url, modernRequest('tools/call', { name, arguments: {} }));
      for (const res of [legacy, modern])
        expect(errorOf(res.text)).toEqual({ code: -32602, message: `Tool ${name} not found` });
    }
  });

  it('never logs the token, even sent percent-encoded (any case, any mix) in the path', async () => {
    const server = await serve({ authToken: TOKEN });
    const everyByte = [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const mixed = [...TOKEN].map((c, i) => (i % 2 ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c)).join('');
    for (const path of [encodeURIComponent(TOKEN), everyByte, everyByte.toUpperCase(), mixed]) {
      await raw(server.url.replace(/\/docs$/, `/docs/${path}`), { method: 'GET' });
      await raw(server.url.replace(/\/docs$/, `/${path}`), { method: 'POST', headers: { ...MCP_HEADERS }, body: '{}' });
    }
    const log = server.lines.join('\n');
    expect(log).toContain('[redacted]');
    expect(decodeURIComponent(log)).not.toContain(TOKEN);
    expect(log.toLowerCase()).not.toContain(everyByte.slice(0, 30));
  });

  it('reads the token from SVC_DOCS_AUTH_TOKEN_FILE or --auth-token-file, naming the file (never its content) when it cannot', () => {
    const dir = tempDir('token');
    const file = join(dir, 'token');
    writeFileSync(file, `${TOKEN}\n`);
    expect(serverOptionsFromEnv({ SVC_DOCS_AUTH_TOKEN_FILE: file }).authToken).toBe(TOKEN);
    expect(serverOptionsFromEnv({}, { authTokenFile: file }).authToken).toBe(TOKEN);
    expect(() => serverOptionsFromEnv({ SVC_DOCS_AUTH_TOKEN_FILE: join(dir, 'missing') })).toThrow(
      /SVC_DOCS_AUTH_TOKEN_FILE: cannot read the token file .*missing \(ENOENT\)/,
    );
    const weak = join(dir, 'weak');
    writeFileSync(weak, 'short-secret');
    let message = '';
    try {
      serverOptionsFromEnv({ SVC_DOCS_AUTH_TOKEN_FILE: weak });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SVC_DOCS_AUTH_TOKEN_FILE: the token in .*weak is too short/);
    expect(message).not.toContain('short-secret');
  });
});
