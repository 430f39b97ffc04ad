import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { pageUri } from '../../../src/mcp/tools/page-uri.js';
import { serverOptionsFromEnv } from '../../helpers/server-settings.js';
import { openEngine } from '../../../src/search/engine.js';
import { fixtureIndex, sampleIndex } from '../../helpers/index-fixture.js';
import { connectClient, connectV2, MODERN_VERSION } from '../../helpers/mcp-client.js';
import { useServedEngine } from '../../helpers/served-engine.js';

/** What SearchDocs sends (text only), and the optional ReadPage tool, with real clients. */

const { serve } = useServedEngine(() => openEngine(sampleIndex()));

const SEARCH = { name: 'SearchDocs', arguments: { searchTerm: 'skip duplicate event id' } };

describe('SearchDocs output', () => {
  it('is text only: no outputSchema, no structuredContent, in either era', async () => {
    const server = await serve();
    const legacy = await connectClient(server.url);
    const modern = await connectV2(server.url, { pin: MODERN_VERSION });
    try {
      for (const client of [legacy.client, modern.client]) {
        const [tool] = (await client.listTools()).tools;
        expect(tool?.outputSchema).toBeUndefined();
        const result = (await client.callTool(SEARCH)) as CallToolResult;
        expect(result.structuredContent).toBeUndefined();
        expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('Path: webhooks.md') }]);
      }
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('reads the setting SVC_DOCS_READ_PAGE_TOOL, off by default', () => {
    expect(serverOptionsFromEnv({})).toMatchObject({ readPageTool: false });
    expect(serverOptionsFromEnv({ SVC_DOCS_READ_PAGE_TOOL: 'true' })).toMatchObject({ readPageTool: true });
  });
});

describe('ReadPage', () => {
  it('is not offered by default', async () => {
    const server = await serve();
    const { client, close } = await connectV2(server.url, { pin: MODERN_VERSION });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['SearchDocs']);
    } finally {
      await close();
    }
  });

  it('reads a page, or a run of its sections, by the URI SearchDocs gives', async () => {
    const server = await serve({ readPageTool: true });
    const { client, close } = await connectV2(server.url, { pin: MODERN_VERSION });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['SearchDocs', 'ReadPage']);
      const page = pageUri('platform', 'long.md');
      const whole = (await client.callTool({ name: 'ReadPage', arguments: { page } })) as CallToolResult;
      const first = whole.content[0] as { text: string };
      expect(first.text).toMatch(
        /^Page: Long Reference\nURI: svc-docs:\/\/platform\/long\.md\nShowing sections 1-31 of 61\. Next: fromSection 32\./,
      );
      const part = (await client.callTool({
        name: 'ReadPage',
        arguments: { page, fromSection: 42, sectionCount: 2 },
      })) as CallToolResult;
      const text = (part.content[0] as { text: string }).text;
      expect(text).toContain('Showing sections 42-43 of 61.');
      expect(text).toContain('## Topic 40\n\nDetails for topic number 40. The zanzibar setting lives here.');
      expect(text).not.toContain('## Topic 42');
      // The numbers SearchDocs shows are the ones ReadPage takes: its best match, read alone.
      const search = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'zanzibar setting' },
      })) as CallToolResult;
      const [, number, heading] = />>>>> BEST MATCH \| section (\d+) \| ([^\n]*) <<<<</.exec(
        (search.content[0] as { text: string }).text,
      )!;
      const best = (await client.callTool({
        name: 'ReadPage',
        arguments: { page, fromSection: Number(number), sectionCount: 1 },
      })) as CallToolResult;
      const bestText = (best.content[0] as { text: string }).text;
      expect(bestText).toContain(`Showing section ${number} of 61.`);
      expect(bestText).toContain(`## ${heading!.split(' > ').at(-1)}\n`);
      const past = (await client.callTool({
        name: 'ReadPage',
        arguments: { page, fromSection: 62 },
      })) as CallToolResult;
      expect(past.isError).toBe(true);
      expect((past.content[0] as { text: string }).text).toContain(
        'has 61 sections (1-61); fromSection 62 is past the end',
      );
      const missing = (await client.callTool({
        name: 'ReadPage',
        arguments: { page: pageUri('platform', 'nope.md') },
      })) as CallToolResult;
      expect(missing.isError).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('ReadPage on an empty page', () => {
  const empty = useServedEngine(async () =>
    openEngine(await fixtureIndex({ 'kb/empty.md': '', 'kb/full.md': '# Full\n\nSome words about zanzibar.\n' })),
  );

  it('says the page is empty instead of naming sections it does not have', async () => {
    const server = await empty.serve({ readPageTool: true });
    const { client, close } = await connectV2(server.url, { pin: MODERN_VERSION });
    try {
      const page = pageUri('kb', 'empty.md');
      const read = (await client.callTool({ name: 'ReadPage', arguments: { page } })) as CallToolResult;
      expect(read.isError).toBeUndefined();
      expect((read.content[0] as { text: string }).text).toBe(`Page: empty\nURI: ${page}\nThe page is empty.`);
    } finally {
      await close();
    }
  });
});
