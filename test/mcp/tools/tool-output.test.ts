import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { searchDocs } from '../../../src/mcp/tools/search-docs.js';
import { openEngine } from '../../../src/search/engine.js';
import { sampleIndex } from '../../helpers/index-fixture.js';
import { connectClient, connectV2, MODERN_VERSION } from '../../helpers/mcp-client.js';
import { useServedEngine } from '../../helpers/served-engine.js';

/** What SearchDocs sends (text only, the one tool), with real clients in either era. */

const { serve } = useServedEngine(() => openEngine(sampleIndex()));

const SEARCH = { name: 'SearchDocs', arguments: { searchTerm: 'skip duplicate event id' } };

describe('SearchDocs output', () => {
  it('is text only: no outputSchema, no structuredContent, in either era', async () => {
    const server = await serve();
    const legacy = await connectClient(server.url);
    const modern = await connectV2(server.url, { pin: MODERN_VERSION });
    try {
      for (const client of [legacy.client, modern.client]) {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(['SearchDocs']);
        expect(tools[0]?.outputSchema).toBeUndefined();
        const result = (await client.callTool(SEARCH)) as CallToolResult;
        expect(result.structuredContent).toBeUndefined();
        expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('Path: webhooks.md') }]);
      }
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('records the pages it showed without building the results as data (only the search page reads them)', async () => {
    const engine = await openEngine(sampleIndex());
    try {
      const answer = await searchDocs(engine, 'skip duplicate event id', {
        maxResults: 5,
        responseBudgetChars: 12_000,
      });
      const built = () => Object.getOwnPropertyDescriptor(answer.structured, 'results')?.get === undefined;
      expect(built()).toBe(false);
      expect(answer.outcome.pages).toEqual(answer.structured.results.map((r) => `${r.source}/${r.path}`));
      expect(answer.outcome.pages).toContain('platform/webhooks.md');
      expect(built()).toBe(true);
      expect(answer.structured.results).toBe(answer.structured.results);
    } finally {
      await engine.close();
    }
  });
});
