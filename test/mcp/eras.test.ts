import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { pageUri } from '../../src/mcp/tools/page-uri.js';
import { openEngine } from '../../src/search/engine.js';
import { sampleIndex } from '../helpers/index-fixture.js';
import {
  connectClient,
  connectV2,
  MCP_HEADERS,
  messagesOf,
  MODERN_VERSION,
  modernRequest,
  raw,
  sessionHeaders,
  textOf,
} from '../helpers/mcp-client.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';
import { useSharedServer } from '../helpers/served-engine.js';

/**
 * Both protocol eras against ONE server on an ephemeral port: the v2 client pinned to
 * 2026-07-28, the v2 client negotiating ('auto'), and the v1 client with a 2025 session, then the
 * same server over raw HTTP for the modern headers and error codes.
 */

const server = useSharedServer(() => openEngine(sampleIndex()));

function rpcError(text: string): { code: number; message: string; data?: Record<string, unknown> } {
  const [message] = messagesOf(text) as { error: { code: number; message: string; data?: Record<string, unknown> } }[];
  return message!.error;
}

describe('one server, both eras, real clients', () => {
  it('serves the v2 client pinned to 2026-07-28: server/discover, tools/list, SearchDocs', async () => {
    const { client, close } = await connectV2(server().url, { pin: MODERN_VERSION });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
      const discovered = client.getDiscoverResult();
      expect(discovered?.supportedVersions).toContain(MODERN_VERSION);
      expect(discovered?.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['SearchDocs']);
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'skip duplicate event id' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain('Path: webhooks.md');
      expect(server().sessionCount()).toBe(0);
    } finally {
      await close();
    }
  });

  it("serves the v2 client in 'auto' mode on the modern era", async () => {
    const { client, close } = await connectV2(server().url, 'auto');
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'access token valid hours' },
      })) as CallToolResult;
      expect(textOf(result)).toContain('Path: tokens.md');
    } finally {
      await close();
    }
  });

  it('serves the v1 client in a 2025 session; DELETE ends it and its id then gets 404', async () => {
    const { client, transport, close } = await connectClient(server().url);
    try {
      const id = transport.sessionId;
      expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
      expect(server().sessionCount()).toBe(1);
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'skip duplicate event id' },
      })) as CallToolResult;
      expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Path: webhooks.md') });
      await transport.terminateSession();
      expect(server().sessionCount()).toBe(0);
      const after = await raw(server().url, {
        method: 'POST',
        headers: sessionHeaders(id!),
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(after.status).toBe(404);
      expect(rpcError(after.text).code).toBe(-32001);
    } finally {
      await close();
    }
  });

  it('lists pages as resources with a template, and reads a page as Markdown, in both eras', async () => {
    const modern = await connectV2(server().url, { pin: MODERN_VERSION });
    const legacy = await connectClient(server().url);
    try {
      for (const client of [modern.client, legacy.client]) {
        const { resources } = await client.listResources();
        const uri = pageUri('platform', 'webhooks.md');
        expect(resources).toContainEqual({
          uri,
          name: 'platform/webhooks.md',
          title: 'Webhooks guide',
          mimeType: 'text/markdown',
        });
        expect(resources).toHaveLength(Object.keys(SAMPLE_CORPUS).length);
        const { resourceTemplates } = await client.listResourceTemplates();
        expect(resourceTemplates).toEqual([
          expect.objectContaining({ uriTemplate: 'svc-docs://{kb}/{+path}', mimeType: 'text/markdown' }),
        ]);
        const read = await client.readResource({ uri });
        const contents = read.contents[0] as { uri: string; text: string; mimeType: string };
        expect(contents).toMatchObject({ uri, mimeType: 'text/markdown' });
        expect(contents.text).toMatch(/^# Webhooks\n/);
        expect(contents.text).toContain('## Verify the signature\n\nVerify the JWT with the public key.');
        expect(contents.text).toContain('## Idempotency');
        expect((await client.listPrompts()).prompts).toEqual([]);
      }
      await legacy.transport.terminateSession();
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});

describe('2026-07-28 over raw HTTP', () => {
  it('answers server/discover with the supported versions and cache fields', async () => {
    const res = await raw(server().url, modernRequest('server/discover'));
    expect(res.status).toBe(200);
    const [message] = messagesOf(res.text) as { result: Record<string, unknown> }[];
    expect(message!.result).toMatchObject({
      supportedVersions: [MODERN_VERSION],
      ttlMs: expect.any(Number),
      cacheScope: expect.stringMatching(/^(public|private)$/),
    });
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });

  it('puts ttlMs and cacheScope on tools/list', async () => {
    const res = await raw(server().url, modernRequest('tools/list'));
    const [message] = messagesOf(res.text) as { result: Record<string, unknown> }[];
    expect(message!.result).toMatchObject({
      tools: [expect.objectContaining({ name: 'SearchDocs' })],
      ttlMs: expect.any(Number),
      cacheScope: expect.any(String),
    });
  });

  it('answers an unsupported version with -32022 naming the supported ones', async () => {
    const res = await raw(server().url, modernRequest('tools/list', {}, { version: '2099-01-01' }));
    expect(res.status).toBe(400);
    expect(rpcError(res.text)).toMatchObject({
      code: -32022,
      data: { supported: [MODERN_VERSION], requested: '2099-01-01' },
    });
  });

  it('answers headers that disagree with the body with -32020 (Mcp-Method, Mcp-Name, missing Mcp-Name)', async () => {
    const wrongMethod = await raw(
      server().url,
      modernRequest('tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } }),
    );
    const call = { name: 'SearchDocs', arguments: { searchTerm: 'webhooks' } };
    const wrongName = await raw(server().url, modernRequest('tools/call', call, { headers: { 'mcp-name': 'Other' } }));
    const noName = modernRequest('tools/call', call);
    delete noName.headers!['mcp-name'];
    const missingName = await raw(server().url, noName);
    for (const res of [wrongMethod, wrongName, missingName]) {
      expect(res.status).toBe(400);
      expect(rpcError(res.text).code).toBe(-32020);
    }
  });

  it('answers a modern version header on a body without the envelope with -32602', async () => {
    const res = await raw(server().url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    expect(rpcError(res.text).code).toBe(-32602);
  });

  it('answers the listings (resources, templates, prompts) instead of -32601', async () => {
    for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
      const res = await raw(server().url, modernRequest(method));
      expect(res.status, method).toBe(200);
      const [message] = messagesOf(res.text) as { result?: unknown; error?: unknown }[];
      expect(message!.error, method).toBeUndefined();
      expect(message!.result, method).toBeDefined();
    }
  });
});

describe('2025 era without a session, and the /mcp alias', () => {
  it('answers a legacy call that names no session as a one-shot exchange, opening no session', async () => {
    const before = server().sessionCount();
    const res = await raw(server().url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'SearchDocs', arguments: { searchTerm: 'skip duplicate event id' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    const [message] = messagesOf(res.text) as { id: number; result: CallToolResult }[];
    expect(message!.id).toBe(3);
    expect(textOf(message!.result)).toContain('Path: webhooks.md');
    expect(server().sessionCount()).toBe(before);
    for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
      const listing = await raw(server().url, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 4, method }),
      });
      const [answer] = messagesOf(listing.text) as { result?: unknown; error?: unknown }[];
      expect(answer!.error, method).toBeUndefined();
    }
  });

  it('serves /mcp as an alias of /docs in both eras', async () => {
    const alias = server().url.replace(/\/docs$/, '/mcp');
    const legacy = await connectClient(alias);
    const modern = await connectV2(alias, { pin: MODERN_VERSION });
    try {
      expect((await legacy.client.listTools()).tools.map((t) => t.name)).toEqual(['SearchDocs']);
      expect((await modern.client.listTools()).tools.map((t) => t.name)).toEqual(['SearchDocs']);
      await legacy.transport.terminateSession();
    } finally {
      await legacy.close();
      await modern.close();
    }
  });
});
