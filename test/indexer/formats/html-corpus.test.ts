import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, type BuildSummary } from '../../../indexer/build.js';
import { type IndexWithoutGraph, readIndexWithoutGraph } from '../../../src/index/open-index.js';
import { startHttpServer, type RunningServer } from '../../../src/serve/http-server.js';
import { openEngine } from '../../../src/search/engine.js';
import { tempDir } from '../../helpers/index-fixture.js';
import { connectClient, textOf } from '../../helpers/mcp-client.js';
import { namedResults } from '../../helpers/search-text.js';

/**
 * A folder of HTML pages (Sphinx, MkDocs Material, Docusaurus and Confluence output) indexed by the
 * real indexer and searched through the real server with the real MCP client answers as the same
 * pages written in Markdown do: the same pages, in the same order, with the same best sections.
 */

const PAGES = join(import.meta.dirname, 'pages');

/** Questions a reader of these pages might ask, and the page that answers each. */
const QUERIES: [string, string][] = [
  ['sync_interval_seconds default', 'configuration'],
  ['QUILLMATE_SERVER environment variable', 'configuration'],
  ['how are conflicts detected revision vector', 'conflicts'],
  ['keep both edits copy named after hostname', 'conflicts'],
  ['sign the release tag with the release key', 'releasing'],
  ['where is the journal on macOS', 'installation'],
  ['heartbeat latency above 800 ms proxy', 'installation'],
  ['install into a virtual environment with pip', 'installation'],
];

type Served = { summary: BuildSummary; indexDir: string; server: RunningServer; close: () => Promise<void> };
const served: Record<'html' | 'markdown', Served | undefined> = { html: undefined, markdown: undefined };

async function serveFolder(folder: 'html' | 'markdown'): Promise<Served> {
  const indexDir = tempDir(`${folder}-index`);
  const summary = await buildIndex({
    corpusDirs: [join(PAGES, folder)],
    outDir: indexDir,
    vectorCacheDir: tempDir(`${folder}-vectors`),
  });
  const engine = await openEngine(indexDir);
  const server = await startHttpServer({ port: 0, engine: () => engine, log: () => {} });
  return { summary, indexDir, server, close: async () => (await server.close(), await engine.close()) };
}

beforeAll(async () => {
  served.html = await serveFolder('html');
  served.markdown = await serveFolder('markdown');
});
afterAll(async () => {
  await served.html?.close();
  await served.markdown?.close();
});

async function search(folder: 'html' | 'markdown', searchTerm: string): Promise<string> {
  const { client, close } = await connectClient(served[folder]!.server.url);
  try {
    const result = (await client.callTool({ name: 'SearchDocs', arguments: { searchTerm } })) as CallToolResult;
    return textOf(result);
  } finally {
    await close();
  }
}

/** What an answer says, whichever format its pages were written in. */
function answer(text: string) {
  const best = [...text.matchAll(/^>>>>> BEST MATCH .*$/gm)].map((m) => m[0]);
  return namedResults(text).map((r, i) => ({
    page: r.path.replace(/\.(html|md)$/, ''),
    title: r.title,
    best: best[i],
  }));
}

describe('an HTML docs folder', () => {
  it('is indexed page for page, section for section, as the Markdown folder, with nothing skipped', async () => {
    const html = served.html!;
    const markdown = served.markdown!;
    expect(html.summary).toMatchObject({ knowledgeBases: ['Quillmate'], leftOut: [], unsupported: [] });
    expect(html.summary.documents).toBe(markdown.summary.documents);
    const [htmlIndex, markdownIndex] = await Promise.all(
      [html, markdown].map((s) => readIndexWithoutGraph(s.indexDir)),
    );
    const shape = (index: IndexWithoutGraph) =>
      index.documents.map((d) => ({
        page: d.path.replace(/\.(html|md)$/, ''),
        title: d.title,
        sections: index.sections.slice(d.firstSection, d.firstSection + d.sectionCount).map((s) => s.headings),
      }));
    expect(shape(htmlIndex!)).toEqual(shape(markdownIndex!));
  });

  it('keeps no navigation, footer, banner or markup in what it indexed', async () => {
    const index = await readIndexWithoutGraph(served.html!.indexDir);
    const text = index.sections
      .slice()
      .map((s) => s.text)
      .join('\n');
    for (const chrome of [
      'Edit this page',
      'Previous',
      'Next',
      'cookie',
      'Copyright',
      'On this page',
      'Last update',
      'Atlassian',
      'Attachments',
      'Skip to',
    ]) {
      expect(text).not.toContain(chrome);
    }
    expect(text.replace(/```[\s\S]*?```/g, '')).not.toMatch(/<\/?[a-z][\w-]*[\s>]/i);
  });

  it.each(QUERIES)('answers "%s" as the Markdown folder does', async (query, page) => {
    const [html, markdown] = await Promise.all([search('html', query), search('markdown', query)]);
    expect(answer(html)[0]?.page).toBe(page);
    expect(answer(html)).toEqual(answer(markdown));
  });
});
