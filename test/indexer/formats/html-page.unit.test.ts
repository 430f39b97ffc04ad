import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlPage } from '../../../indexer/formats/html-page.js';

/**
 * Pages in the shapes four generators write (pages/html: a Sphinx Read the Docs theme page, MkDocs
 * Material and Docusaurus build output, a Confluence export; made-up content), each against the
 * Markdown a writer would have written for it (pages/markdown).
 */

const PAGES = join(import.meta.dirname, 'pages');
const pages = readdirSync(join(PAGES, 'html')).filter((f) => f.endsWith('.html'));

function twin(name: string): { title: string; body: string } {
  const text = readFileSync(join(PAGES, 'markdown', name.replace(/\.html$/, '.md')), 'utf8');
  const front = /^---\ntitle: (.+)\n---\n\n/.exec(text);
  const body = front ? text.slice(front[0].length) : text;
  return { title: front?.[1] ?? /^# (.+)$/m.exec(body)![1]!, body: body.trimEnd() };
}

describe('htmlPage', () => {
  it.each(pages)(
    '%s: the main content as Markdown, the site around it left out, the title without the site name',
    (name) => {
      const page = htmlPage(readFileSync(join(PAGES, 'html', name), 'utf8'));
      const expected = twin(name);
      expect(page.markdown).toBe(expected.body);
      expect(page.title).toBe(expected.title);
    },
  );

  it('without a marked main element, reads the body less its navigation, header, footer, sidebar and banners', () => {
    const page = htmlPage(
      '<html><head><title>Backups · Ops handbook</title></head><body>' +
        '<header><a href="/">Ops handbook</a><ul><li>Home</li></ul></header>' +
        '<nav><a href="/a">Alerts</a></nav><aside>Related: on-call</aside>' +
        '<div id="cookie-banner">We use cookies <button>OK</button></div>' +
        '<div class="content"><ol class="breadcrumb"><li>Home</li><li>Storage</li></ol>' +
        '<div role="navigation"><a href="/prev">Previous</a></div><span class="theme-doc-version-badge">Version: 2.x</span>' +
        '<header><h1>Backups</h1></header><p>Snapshots run nightly at 02:00.</p>' +
        '<p><a href="https://git.example.org/ops/edit/main/backups.md">Edit this page</a></p></div>' +
        '<footer>© Ops team</footer></body></html>',
    );
    expect(page).toEqual({ title: 'Backups', markdown: '# Backups\n\nSnapshots run nightly at 02:00.' });
  });

  it('takes the one article inside main, not the sidebars beside it, and main when it holds several', () => {
    const one = htmlPage(
      '<main><div class="sidebar"><ul><li><a href="/x">Other page</a></li></ul></div><article><h1>Page</h1><p>Text.</p></article></main>',
    );
    expect(one.markdown).toBe('# Page\n\nText.');
    const several = htmlPage(
      '<main><h1>Blog</h1><article><h2>One</h2></article><article><h2>Two</h2></article></main>',
    );
    expect(several.markdown).toBe('# Blog\n\n## One\n\n## Two');
  });

  it('keeps the part of a title that is the page heading, whichever side the site name is on', () => {
    const titled = (title: string, h1 = '') =>
      htmlPage(`<html><head><title>${title}</title></head><body><main>${h1}<p>x</p></main></body></html>`).title;
    expect(titled('Install — Project 1.0 documentation')).toBe('Install');
    expect(titled('Tips - Tricks - Site')).toBe('Tips - Tricks');
    expect(titled('Site | Getting started', '<h1>Getting started</h1>')).toBe('Getting started');
    expect(titled('Plain title')).toBe('Plain title');
    expect(titled('  ')).toBeUndefined();
  });
});
