import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import type { Embedder } from '../../src/embedding/types.js';
import { parseServerOptions } from '../../src/settings/server-options.js';
import { defaultCorpusDir } from '../../src/settings/defaults.js';
import { serve } from '../../src/serve/serve.js';
import { findChromium, launchChromium } from '../lib/chromium.js';
import { flagValue } from '../lib/flags.js';
import { connectClient } from '../lib/mcp-client.js';

/**
 * Screenshots of the search page for the README (`npm run bench` writes them as its `page` part;
 * `npx tsx bench/report/search-page-screenshot.ts [--out=<dir>]` alone): a server on the bundled docs
 * answers a short scripted session of MCP searches, on-topic and off-topic, then headless
 * Chromium takes the page with a search (search-page.png) and the home page with its docs-gap
 * report at phone width (search-page-report.png).
 */

/** What the assistants "asked" before the screenshots: some the docs answer, some they do not. */
const SESSION = [
  'verify the webhook signature',
  'how long is an access token valid',
  'rate limits',
  'custom trigger payload schema',
  'kubernetes pod eviction policy',
  'terraform state locking',
  'banana bread recipe',
  'rate limit headers',
  'terraform state lock',
];
const SEARCHED = 'verify the webhook signature';

export interface PageScreenshots {
  files: string[];
}

/** Writes the screenshots into `outDir` (names end in `suffix`); undefined when Chromium is missing. */
export async function writePageScreenshots(
  outDir: string,
  suffix = '',
  embedder?: Embedder,
): Promise<PageScreenshots | undefined> {
  const chromium = findChromium();
  if (chromium === undefined) return undefined;
  const work = mkdtempSync(join(tmpdir(), 'svc-docs-page-shot-'));
  const running = await (async () => {
    await buildIndex({ corpusDirs: [defaultCorpusDir()], outDir: work, embedder });
    return serve({
      indexDir: work,
      server: parseServerOptions({ port: 0 }),
      engine: embedder === undefined ? {} : { embedder },
      searchThreads: 0,
      log: () => undefined,
    });
  })();
  const browser = await launchChromium(chromium, { viewport: { width: 1280, height: 960 } });
  try {
    const { client } = await connectClient(running.http.url, {}, { name: 'svc-docs-screenshot' });
    for (const searchTerm of SESSION) await client.callTool({ name: 'SearchDocs', arguments: { searchTerm } });
    await client.close();
    const base = running.http.url.replace(/\/docs$/, '');
    const page = await browser.context.newPage();
    const files = [join(outDir, `search-page${suffix}.png`), join(outDir, `search-page-report${suffix}.png`)];
    await page.goto(`${base}/?q=${encodeURIComponent(SEARCHED)}`);
    await page.screenshot({ path: files[0]! });
    await page.setViewportSize({ width: 420, height: 1500 });
    await page.goto(`${base}/`);
    await page.screenshot({ path: files[1]! });
    return { files };
  } finally {
    await browser.close();
    await running.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = flagValue('out') ?? join(import.meta.dirname, '..', 'results');
  const written = await writePageScreenshots(outDir);
  console.error(
    written === undefined
      ? 'search-page-screenshot: Chromium is not installed (scripts/ensure-chromium.sh installs it)'
      : `wrote ${written.files.join(', ')}`,
  );
  if (written === undefined) process.exitCode = 1;
}
