import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../../src/web/markdown-html.js';
import { tempDir } from '../../helpers/index-fixture.js';
import { type StaticSite, startStaticSite } from '../../helpers/static-site.js';
import { build, PAGES, shape } from './web-build.js';

/**
 * A website read by following its links: a shared corpus rendered to HTML with the project's own
 * remark → rehype, served by a loopback static server. The crawled index equals the index of the
 * same files read from the folder. (A sitemap-read HTML export: web-source.test.ts.)
 */

const RENDERED_CORPUS = '/work/shared/corpora/rust-book';

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
