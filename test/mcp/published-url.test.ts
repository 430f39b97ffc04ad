import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { openEngine } from '../../src/search/engine.js';
import { testRemote } from '../helpers/git-repo.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { connectClient, connectV2, textOf } from '../helpers/mcp-client.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * Each SearchDocs result names its published page's URL beside its svc-docs:// URI, for a model
 * to cite: real clients over HTTP, an index built from a git repository (named and located by its
 * mkdocs.yml) and from a folder (kb.json baseUrl), and a knowledge base that declares nothing.
 */

const { serve } = useServedEngine(async () => {
  const remote = testRemote('heron-site');
  remote.push({
    'mkdocs.yml': 'site_name: Heron Handbook\nsite_url: https://herons.example.org/handbook/\n',
    'docs/index.md': '# Home\n\nWelcome to the handbook.\n',
    'docs/ops/rollback.md': '# Rollback\n\n## Flamingo rollback\n\nRun `heronctl rollback` to redeploy the flamingo.\n',
  });
  const folder = writeCorpus({
    'platform/kb.json': JSON.stringify({ baseUrl: 'https://platform.example.org/docs/', urlStyle: 'html' }),
    'platform/tokens/refresh.md': '# Refresh\n\nRefresh the pelican token before it expires.\n',
    'notes/pelican.md': '# Pelican notes\n\nNotes on the pelican token, published nowhere.\n',
  });
  const outDir = tempDir('index');
  await buildIndex({
    corpusDirs: [`git+${remote.url}#main:docs`, folder],
    outDir,
    vectorCacheDir: tempDir('vectors'),
    sources: { sourcesDir: tempDir('sources') },
  });
  return openEngine(outDir);
});

function resultHeaders(text: string): string[][] {
  return text
    .split(/^===== Result \d+ =====\n/m)
    .slice(1)
    .map((block) => block.split('\n\n')[0]!.split('\n'));
}

describe('SearchDocs names the published page', () => {
  it('as a URL line between Path and Relevance', async () => {
    const server = await serve();
    const { client, close } = await connectClient(server.url);
    try {
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'flamingo rollback' },
      })) as CallToolResult;
      const [first] = resultHeaders(textOf(result));
      expect(first).toEqual([
        'Title: Rollback',
        'Source: Heron Handbook',
        'Path: ops/rollback.md',
        'URL: https://herons.example.org/handbook/ops/rollback/',
        expect.stringMatching(/^Relevance: /),
        expect.stringMatching(/^Content: .*svc-docs:\/\/|^Content: .*the whole page/),
      ]);
    } finally {
      await close();
    }
  });

  it("from kb.json's baseUrl, and not at all for a knowledge base that declares none (v2 client)", async () => {
    const server = await serve();
    const { client, close } = await connectV2(server.url, 'auto');
    try {
      const result = await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: 'pelican token' } });
      const headers = resultHeaders(textOf(result as CallToolResult));
      const bySource = new Map(headers.map((lines) => [lines.find((l) => l.startsWith('Source: ')), lines]));
      expect(bySource.get('Source: platform')).toContain('URL: https://platform.example.org/docs/tokens/refresh.html');
      expect(bySource.get('Source: notes')?.some((l) => l.startsWith('URL:'))).toBe(false);
    } finally {
      await close();
    }
  });
});
