import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isLegacyPost } from '../../../src/mcp/http/routes.js';

/**
 * The router tells the eras apart with isLegacyPost, which reads the parsed body and the MCP
 * headers instead of building the web Request the SDK's isLegacyRequest takes (src/mcp/http/routes.ts).
 * Both must route every POST alike: a request sent to the wrong era is refused or answered in
 * the wrong protocol. The eras over real HTTP are test/mcp/eras.test.ts.
 */

const MODERN = '2026-07-28';
const envelope = {
  [PROTOCOL_VERSION_META_KEY]: MODERN,
  [CLIENT_CAPABILITIES_META_KEY]: {},
  [CLIENT_INFO_META_KEY]: { name: 'era-test', version: '1.0.0' },
};
const call = { name: 'SearchDocs', arguments: { searchTerm: 'sync waves' } };

const cases: { name: string; body: unknown; headers?: Record<string, string> }[] = [
  {
    name: '2025 initialize',
    body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
  },
  {
    name: '2025 tools/call with its version header',
    body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: call },
    headers: { 'mcp-protocol-version': '2025-11-25' },
  },
  { name: '2025 notification', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  { name: '2025 response', body: { jsonrpc: '2.0', id: 3, result: {} } },
  {
    name: '2025 batch',
    body: [
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
    ],
  },
  {
    name: 'modern tools/call',
    body: { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { ...call, _meta: envelope } },
    headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'SearchDocs' },
  },
  {
    name: 'modern claim in the body only',
    body: { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope } },
  },
  {
    name: 'modern header without the claim',
    body: { jsonrpc: '2.0', id: 8, method: 'tools/list' },
    headers: { 'mcp-protocol-version': MODERN },
  },
  {
    name: 'header and claim disagree',
    body: { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: envelope } },
    headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call' },
  },
  { name: 'not JSON-RPC', body: { hello: 'world' } },
  { name: 'JSON null', body: null },
  { name: 'a number', body: 42 },
  { name: 'no body', body: undefined },
];

function webRequest(body: unknown, headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/docs', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  });
}

describe('isLegacyPost', () => {
  it.each(cases)('routes $name as the SDK does', async ({ body, headers = {} }) => {
    const expected = await isLegacyRequest(webRequest(body, headers), body);
    expect(isLegacyPost((name) => headers[name], body)).toBe(expected);
  });

  it('sends modern requests to the modern handler and 2025 ones to theirs', () => {
    const modern = cases.find((c) => c.name === 'modern tools/call')!;
    expect(isLegacyPost((name) => modern.headers?.[name], modern.body)).toBe(false);
    expect(isLegacyPost(() => undefined, cases[0]!.body)).toBe(true);
  });
});
