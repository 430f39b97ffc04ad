import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../../src/search/engine.js';
import { bundledIndex } from '../helpers/index-fixture.js';
import { connectClient, connectV2, MODERN_VERSION, textOf } from '../helpers/mcp-client.js';
import { useServedEngine } from '../helpers/served-engine.js';
import { waitFor } from '../reliability/helpers.js';

/**
 * The request log: every line a JSON object starting with time, level and event; each MCP
 * request's line names its era, JSON-RPC method, tool and client (from the 2025 handshake or the
 * 2026-07-28 envelope) and what its SearchDocs call gave the model; the search term only on a
 * loopback server or when SVC_DOCS_LOG_QUERIES says so.
 */

const { serve } = useServedEngine(() => openEngine(bundledIndex()));

type Line = Record<string, unknown>;
const parsed = (lines: string[]): Line[] => lines.map((l) => JSON.parse(l) as Line);
const calls = (lines: string[]) => parsed(lines).filter((l) => l.mcpMethod === 'tools/call');

describe('the request log', () => {
  it('names era, method, tool, client and what each search returned, in lines that start with time, level, event', async () => {
    const server = await serve();
    const legacy = await connectClient(server.url);
    const modern = await connectV2(server.url, { pin: MODERN_VERSION });
    const answers: string[] = [];
    try {
      for (const client of [legacy.client, modern.client]) {
        const result = (await client.callTool({
          name: 'SearchDocs',
          arguments: { searchTerm: 'webhook signature verification' },
        })) as CallToolResult;
        answers.push(textOf(result));
      }
      await legacy.client.callTool({ name: 'SearchDocs', arguments: { searchTerm: 'banana bread recipe' } });
    } finally {
      await legacy.close();
      await modern.close();
    }
    // A request's line is written when its response closes.
    await waitFor('the three calls to be logged', () => calls(server.lines).length === 3);
    for (const line of server.lines) {
      expect(Object.keys(JSON.parse(line) as Line).slice(0, 3)).toEqual(['time', 'level', 'event']);
      expect(Number.isNaN(Date.parse(String((JSON.parse(line) as Line).time)))).toBe(false);
    }
    const lines = parsed(server.lines);
    expect(lines.find((l) => l.mcpMethod === 'initialize')).toMatchObject({
      event: 'request',
      era: '2025',
      client: 'svc-docs-test',
      clientVersion: '1.0.0',
    });
    const [first, second, third] = calls(server.lines);
    const common = { event: 'request', level: 'info', tool: 'SearchDocs', term: 'webhook signature verification' };
    expect(first).toMatchObject({ ...common, era: '2025', client: 'svc-docs-test', status: 200, notCovered: false });
    expect(second).toMatchObject({ ...common, era: '2026-07-28', client: 'svc-docs-test-v2', clientVersion: '1.0.0' });
    expect(first!.chars).toBe(answers[0]!.length);
    expect(second!.chars).toBe(answers[1]!.length);
    expect(first!.results).toBe(5);
    expect(first!.bestConfidence).toBeGreaterThan(0.9);
    expect(typeof first!.ms).toBe('number');
    expect(third).toMatchObject({ term: 'banana bread recipe', results: 0, notCovered: true });
    expect(third).not.toHaveProperty('bestConfidence');
  });

  it('logs search terms on loopback, not on a server other machines reach, unless told to', async () => {
    const marker = 'zanzibar quokka telemetry';
    const termLogged = async (options: Parameters<typeof serve>[0]) => {
      const server = await serve(options);
      const { client, close } = await connectClient(server.url);
      try {
        await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: marker } });
      } finally {
        await close();
      }
      await waitFor('the call to be logged', () => calls(server.lines).length === 1);
      const [call] = calls(server.lines);
      expect(call).toMatchObject({ tool: 'SearchDocs', results: expect.any(Number) });
      return server.lines.join('\n').includes(marker);
    };
    expect(await termLogged({})).toBe(true);
    expect(await termLogged({ host: '0.0.0.0' })).toBe(false);
    expect(await termLogged({ host: '0.0.0.0', logQueries: true })).toBe(true);
    expect(await termLogged({ logQueries: false })).toBe(false);
  });
});
