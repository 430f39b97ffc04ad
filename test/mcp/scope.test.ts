import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../../src/search/engine.js';
import { sampleIndex } from '../helpers/index-fixture.js';
import { connectClient, connectV2, MODERN_VERSION, raw, textOf } from '../helpers/mcp-client.js';
import { useSharedServer } from '../helpers/served-engine.js';

/**
 * SearchDocs scoped to one knowledge base (`knowledgeBase`), over real HTTP with real clients in
 * both protocol eras: the sample corpus has two, "platform" and "guide". A query whose answer is
 * in "guide" finds it unscoped and scoped to "guide", and never shows it scoped to "platform".
 */

const server = useSharedServer(() => openEngine(sampleIndex()));

const QUERY = 'mcpServers entry url type http webhooks';

interface Caller {
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[] }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function callers(url: string): Promise<[string, Caller][]> {
  const v1 = await connectClient(url);
  const v2 = await connectV2(url, { pin: MODERN_VERSION });
  return [
    ['2025 session', { ...bind(v1.client), close: v1.close }],
    ['2026-07-28 stateless', { ...bind(v2.client), close: v2.close }],
  ];
}

function bind(client: Pick<Caller, 'listTools' | 'callTool'>): Pick<Caller, 'listTools' | 'callTool'> {
  return { listTools: () => client.listTools(), callTool: (r) => client.callTool(r) };
}

const sourcesOf = (text: string) => [...text.matchAll(/^Source: (.+)$/gm)].map((m) => m[1]);

describe('SearchDocs scoped to one knowledge base, both eras', () => {
  it('lists the served knowledge bases as an enum, in the schema and the description', async () => {
    for (const [era, caller] of await callers(server().url)) {
      try {
        const [tool] = (await caller.listTools()).tools;
        expect(tool!.inputSchema, era).toMatchObject({
          additionalProperties: false,
          required: ['searchTerm'],
          properties: { knowledgeBase: { type: 'string', enum: expect.arrayContaining(['platform', 'guide']) } },
        });
        expect(tool!.description, era).toMatch(
          /pass its name as knowledgeBase \("(platform|guide)", "(platform|guide)"\)/,
        );
      } finally {
        await caller.close();
      }
    }
  });

  it("returns only the named knowledge base's pages, even where another one's rank first unscoped", async () => {
    for (const [era, caller] of await callers(server().url)) {
      try {
        const search = async (args: Record<string, unknown>) =>
          textOf(
            (await caller.callTool({
              name: 'SearchDocs',
              arguments: { searchTerm: QUERY, ...args },
            })) as CallToolResult,
          );
        expect(sourcesOf(await search({}))[0], era).toBe('guide');
        const guide = await search({ knowledgeBase: 'guide' });
        expect(sourcesOf(guide), era).toEqual(['guide']);
        expect(guide, era).toContain('Path: connect.md');
        const platform = sourcesOf(await search({ knowledgeBase: 'platform' }));
        expect(platform.length, era).toBeGreaterThan(0);
        expect(new Set(platform), era).toEqual(new Set(['platform']));
      } finally {
        await caller.close();
      }
    }
  });

  it('refuses an unknown name with one clear error listing the names', async () => {
    for (const [era, caller] of await callers(server().url)) {
      try {
        const result = (await caller.callTool({
          name: 'SearchDocs',
          arguments: { searchTerm: QUERY, knowledgeBase: 'nosuch' },
        })) as CallToolResult;
        expect(result.isError, era).toBe(true);
        const text = textOf(result);
        expect(text, era).toContain('no knowledge base is named "nosuch"');
        expect(text, era).toMatch(/"platform"/);
        expect(text, era).toMatch(/"guide"/);
      } finally {
        await caller.close();
      }
    }
  });

  it('scopes the search page with its select, and refuses an unknown name there too', async () => {
    const page = (query: string) => raw(`${server().url.replace(/\/docs$/, '')}/?${query}`, { method: 'GET' });
    const home = await page('');
    expect(home.text).toMatch(/<select name="kb"[^>]*><option value="">All knowledge bases<\/option>/);
    const scoped = await page(`q=${encodeURIComponent(QUERY)}&kb=platform`);
    expect(scoped.status).toBe(200);
    expect(scoped.text).toContain('<option value="platform" selected>');
    expect(scoped.text).not.toContain('connect.md');
    expect(scoped.text).toContain('webhooks.md');
    const unknown = await page(`q=x&kb=nosuch`);
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('no knowledge base is named &quot;nosuch&quot;');
  });
});
