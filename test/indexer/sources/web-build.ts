import { buildIndex } from '../../../indexer/build.js';
import { type IndexWithoutGraph, readIndexWithoutGraph } from '../../../src/index/open-index.js';
import type { WebLimits } from '../../../src/settings/web.js';
import { tempDir } from '../../helpers/index-fixture.js';

/** Building an index from a crawled site or a folder, and what the two must agree on (web-source, web-links tests). */

export const LIMITS: WebLimits = {
  maxPages: 1000,
  maxPageBytes: 4 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  concurrency: 4,
  requestsPerSecond: 500,
  timeoutMs: 20_000,
};
/** Pages crawled: enough for a crawl's concurrency and its sitemap or links to matter, few enough to parse fast. */
export const PAGES = 20;

export async function build(corpus: string, sourcesDir: string, lines: string[] = []) {
  const outDir = tempDir('web-index');
  const summary = await buildIndex({
    corpusDirs: [corpus],
    outDir,
    vectorCacheDir: tempDir('web-vectors'),
    sources: { sourcesDir, webLimits: LIMITS },
    log: (line) => lines.push(line),
  });
  return { summary, index: await readIndexWithoutGraph(outDir), lines };
}

/** The index as its pages and sections: what a crawl and a folder must agree on. */
export function shape(index: IndexWithoutGraph) {
  const sections = index.sections.slice();
  return index.documents.map((d) => ({
    kb: d.kb,
    path: d.path,
    title: d.title,
    sections: sections.slice(d.firstSection, d.firstSection + d.sectionCount).map((s) => [s.headings, s.text]),
  }));
}
