import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../indexer/formats/converted.js';
import { htmlPage, MAX_HTML_ELEMENTS } from '../../../indexer/formats/html-page.js';
import { htmlSiteName } from '../../../indexer/formats/html-site-name.js';

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

  it('reads a DocBook page as its one division, without the Prev / Up / Next tables, its contents or empty anchors', () => {
    const page = htmlPage(
      '<html><head><title>5.7. Privileges</title><meta name="generator" content="DocBook XSL Stylesheets"/></head><body>' +
        '<div class="navheader"><table><tr><th colspan="3">5.7. Privileges</th></tr><tr><td><a accesskey="p" href="a.html">Prev</a></td>' +
        '<td><a accesskey="u" href="ddl.html">Up</a></td><td><a accesskey="n" href="b.html">Next</a></td></tr></table><hr/></div>' +
        '<div class="sect1" id="DDL-PRIV"><div class="titlepage"><div><div><h2 class="title">5.7. Privileges</h2></div></div></div>' +
        '<div class="toc"><dl><dt><a href="#x">5.7.1. Owners</a></dt></dl></div>' +
        '<a id="id-1.5.4.9.2" class="indexterm"></a><a href="lost.html"></a><p>Use <code>GRANT</code> to give roles privileges.</p></div>' +
        '<div class="navfooter"><hr/><table><tr><td><a href="a.html">Prev</a></td><td><a href="index.html">Home</a></td><td><a href="b.html">Next</a></td></tr></table></div>' +
        '</body></html>',
    );
    expect(page).toEqual({
      title: '5.7. Privileges',
      markdown: '## 5.7. Privileges\n\nUse `GRANT` to give roles privileges.',
    });
  });

  it('reads a Javadoc page without its navigation bars, and a Docusaurus page without its breadcrumbs and pager', () => {
    const javadoc = htmlPage(
      '<body><div class="topNav"><ul class="navList"><li><a href="overview.html">Overview</a></li></ul></div>' +
        '<div class="subNav"><a href="prev.html">Prev Class</a></div><div class="header"><h1 class="title">Class Widget</h1></div>' +
        '<div class="contentContainer"><div class="block">A widget.</div></div><div class="bottomNav"><a href="index.html">Frames</a></div>' +
        '<p class="legalCopy">Copyright 2024</p></body>',
    );
    expect(javadoc.markdown).toBe('# Class Widget\n\nA widget.');
    const docusaurus = htmlPage(
      '<main><article><nav aria-label="Breadcrumbs"><a href="/">Home</a></nav>' +
        '<div class="theme-doc-markdown markdown"><header><h1>Routers</h1></header><p>Define a router.</p></div>' +
        '<div class="pagination-nav"><a href="/prev">Previous</a><a href="/next">Next</a></div></article></main>',
    );
    expect(docusaurus.markdown).toBe('# Routers\n\nDefine a router.');
  });

  it("names a site from its home page: the declared site name, else the title's site part", () => {
    expect(
      htmlSiteName('<head><meta property="og:site_name" content="Acme Docs"><title>Home | Other</title></head>'),
    ).toBe('Acme Docs');
    expect(htmlSiteName('<head><meta name="application-name" content="Quill"></head>')).toBe('Quill');
    expect(htmlSiteName('<title>PostgreSQL 15.18 Documentation</title>')).toBe('PostgreSQL 15.18 Documentation');
    expect(htmlSiteName('<title>Welcome — Project 1.0 documentation</title>')).toBe('Project 1.0 documentation');
    expect(htmlSiteName('<title>Hello from tRPC | tRPC</title>')).toBe('tRPC');
    expect(htmlSiteName('<p>no title</p>')).toBeUndefined();
  });

  it('refuses a page of over 50,000 elements before parsing it; one at the bound is converted', () => {
    const page = (n: number) => `<html><body>${'<P>a b</p>'.repeat(n - 2)}</body></html>`;
    expect(() => htmlPage(page(MAX_HTML_ELEMENTS + 1))).toThrow(
      new FormatError('it has over 50,000 elements; it is not converted'),
    );
    expect(htmlPage(page(MAX_HTML_ELEMENTS)).markdown).toMatch(/^a b\n\na b\n/);
  });
});
