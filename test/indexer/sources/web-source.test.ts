import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../../indexer/build.js';
import { type IndexWithoutGraph, readIndexWithoutGraph } from '../../../src/index/open-index.js';
import type { WebLimits } from '../../../src/settings/web.js';
import { markdownToHtml } from '../../../src/web/markdown-html.js';
import { tempDir } from '../../helpers/index-fixture.js';
import {
  POSTGRESQL_DOCS_SKIPPED,
  requirePostgresqlDocs,
  skipWithoutPostgresqlDocs,
} from '../../helpers/postgresql-docs.js';
import { type StaticSite, startStaticSite } from '../../helpers/static-site.js';

/**
 * A website as a corpus, crawled from a loopback static server the test starts: a real HTML docs
 * export (pages of Debian's PostgreSQL docs, read through a sitemap) and a shared corpus rendered
 * to HTML with the project's own remark → rehype (read by following links). Each crawled index
 * equals the index of the same files read from the folder; a reindex of an unchanged site
 * downloads nothing (304s only); a page changed on the server is picked up.
 */

const LIMITS: WebLimits = {
  maxPages: 1000,
  maxPageBytes: 4 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  concurrency: 4,
  requestsPerSecond: 500,
  timeoutMs: 20_000,
};
const PAGES = 40;
const RENDERED_CORPUS = '/work/shared/corpora/rust-book';

async function build(corpus: string, sourcesDir: string, lines: string[] = []) {
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
function shape(index: IndexWithoutGraph) {
  const sections = index.sections.slice();
  return index.documents.map((d) => ({
    kb: d.kb,
    path: d.path,
    title: d.title,
    sections: sections.slice(d.firstSection, d.firstSection + d.sectionCount).map((s) => [s.headings, s.text]),
  }));
}

function sitemap(base: string, files: string[]): string {
  const urls = files.map((f) => `<url><loc>${base}${f}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

const skipPg = skipWithoutPostgresqlDocs();

describe.skipIf(skipPg)(
  skipPg ? `a crawled PostgreSQL docs export: ${POSTGRESQL_DOCS_SKIPPED}` : 'a crawled PostgreSQL docs export',
  () => {
    let folder: string;
    let site: StaticSite;
    beforeAll(async () => {
      const docs = requirePostgresqlDocs();
      folder = tempDir('pg-site');
      const pages = [
        'index.html',
        ...readdirSync(docs)
          .filter((f) => f.startsWith('sql-') && f.endsWith('.html'))
          .slice(0, PAGES),
      ];
      for (const page of pages) copyFileSync(join(docs, page), join(folder, page));
      copyFileSync(join(docs, 'stylesheet.css'), join(folder, 'stylesheet.css'));
      site = await startStaticSite(folder);
      writeFileSync(join(folder, 'sitemap.xml'), sitemap(site.url, pages));
    });
    afterAll(() => site?.close());

    it('indexes as the same files from a folder; reindexes with 304s only; picks up a changed page', async () => {
      const sourcesDir = tempDir('web-sources');
      const crawled = await build(site.url, sourcesDir);
      const local = await build(folder, tempDir('unused-sources'));
      expect(crawled.summary.knowledgeBases).toEqual(local.summary.knowledgeBases);
      expect(crawled.summary.knowledgeBases[0]).toMatch(/^PostgreSQL \d+(\.\d+)* Documentation$/);
      expect(shape(crawled.index)).toEqual(shape(local.index));
      expect(crawled.index.documents.find((d) => d.path === 'sql-alterrole.html')?.url).toBe(
        `${site.url}sql-alterrole.html`,
      );

      site.resetCounts();
      const again = await build(site.url, sourcesDir);
      expect(site.counts.full.filter((p) => p.endsWith('.html'))).toEqual([]);
      expect(site.counts.notModified.length).toBe(PAGES + 1);
      expect(again.lines.join('\n')).toContain(`(0 downloaded, ${PAGES + 1} unchanged)`);
      expect(shape(again.index)).toEqual(shape(crawled.index));

      const changed = crawled.index.documents.find((d) => d.path !== 'index.html')!;
      const file = join(folder, changed.path);
      writeFileSync(file, readFileSync(file, 'utf8').replace('</p>', ' The zanzibarquux clause is new.</p>'));
      site.resetCounts();
      const third = await build(site.url, sourcesDir);
      expect(site.counts.full.filter((p) => p.endsWith('.html'))).toEqual([`/${changed.path}`]);
      expect(third.lines.join('\n')).toContain(`(1 downloaded, ${PAGES} unchanged)`);
      expect(third.index.sections.slice().some((s) => s.text.includes('zanzibarquux'))).toBe(true);
    });
  },
);

describe('a shared corpus rendered to HTML and crawled by its links', () => {
  let folder: string;
  let site: StaticSite;
  beforeAll(async () => {
    const render = await markdownToHtml();
    folder = tempDir('rendered-site');
    const sources = readdirSync(join(RENDERED_CORPUS, 'src'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .slice(0, PAGES);
    const pages = sources.map((f) => basename(f, '.md') + '.html');
    const nav = pages.map((p) => `<li><a href="${p}">${p}</a></li>`).join('');
    sources.forEach((source, i) => {
      const body = render(readFileSync(join(RENDERED_CORPUS, 'src', source), 'utf8')).text;
      writeFileSync(
        join(folder, pages[i]!),
        `<html><head><title>${pages[i]} | The Rust Book</title></head><body><nav><ul>${nav}</ul></nav><main>${body}</main></body></html>`,
      );
    });
    writeFileSync(
      join(folder, 'index.html'),
      `<html><head><title>The Rust Book</title></head><body><main><h1>The Rust Book</h1><ul>${nav}</ul></main></body></html>`,
    );
    site = await startStaticSite(folder);
  });
  afterAll(() => site?.close());

  it('indexes as the same files from a folder, each page at its published URL', async () => {
    const crawled = await build(site.url, tempDir('web-sources'));
    const local = await build(folder, tempDir('unused-sources'));
    expect(crawled.summary.knowledgeBases).toEqual(['The Rust Book']);
    expect(crawled.summary.documents).toBe(PAGES + 1);
    expect(shape(crawled.index)).toEqual(shape(local.index));
    for (const doc of crawled.index.documents)
      expect(doc.url).toBe(doc.path === 'index.html' ? site.url : `${site.url}${doc.path}`);
  });
});
