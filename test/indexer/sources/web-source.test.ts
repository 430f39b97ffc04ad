import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/index-fixture.js';
import {
  POSTGRESQL_DOCS_SKIPPED,
  requirePostgresqlDocs,
  skipWithoutPostgresqlDocs,
} from '../../helpers/postgresql-docs.js';
import { type StaticSite, startStaticSite } from '../../helpers/static-site.js';
import { build, PAGES, shape } from './web-build.js';

/**
 * A website as a corpus, crawled from a loopback static server the test starts: a real HTML docs
 * export (pages of Debian's PostgreSQL docs, read through a sitemap). The crawled index equals
 * the index of the same files read from the folder; a reindex of an unchanged site downloads
 * nothing (304s only); a page changed on the server is picked up. (A site read by following its
 * links: web-links.test.ts.)
 */

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
      const page = crawled.index.documents.find((d) => d.path.startsWith('sql-'))!;
      expect(page.url).toBe(`${site.url}${page.path}`);

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
