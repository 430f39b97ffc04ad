import { describe, expect, it } from 'vitest';
import { pageUrl, urlPath, type UrlStyle } from '../../indexer/load/page-url.js';
import { jsLiteral } from '../../indexer/load/site-readers.js';
import { nameLike, pageTitle } from '../../indexer/load/page-title.js';

/** How a file becomes its published URL, and what a config or home page declares: pure functions. */

describe('urlPath', () => {
  it('maps files to URL paths the way each kind of site does', () => {
    const table: [string, Record<UrlStyle, string>][] = [
      [
        'guide/setup.md',
        { directory: 'guide/setup/', html: 'guide/setup.html', plain: 'guide/setup', source: 'guide/setup.md' },
      ],
      ['guide/index.md', { directory: 'guide/', html: 'guide/index.html', plain: 'guide', source: 'guide/index.md' }],
      ['guide/README.md', { directory: 'guide/', html: 'guide/index.html', plain: 'guide', source: 'guide/README.md' }],
      ['blog/_index.md', { directory: 'blog/', html: 'blog/index.html', plain: 'blog', source: 'blog/_index.md' }],
      ['index.md', { directory: '', html: 'index.html', plain: '', source: 'index.md' }],
      ['api/v1.2.mdx', { directory: 'api/v1.2/', html: 'api/v1.2.html', plain: 'api/v1.2', source: 'api/v1.2.mdx' }],
    ];
    for (const [path, styles] of table)
      for (const [style, expected] of Object.entries(styles))
        expect(urlPath(path, style as UrlStyle), `${path} ${style}`).toBe(expected);
  });
});

describe('pageUrl', () => {
  const site = { base: 'https://docs.example.org/en/latest/', style: 'directory' as const, contentRoot: '/srv/docs' };

  it('resolves below the base, encoding each path segment', () => {
    expect(pageUrl(site, '/srv/docs/user guide/sync #1.md')).toBe(
      'https://docs.example.org/en/latest/user%20guide/sync%20%231/',
    );
    expect(pageUrl(site, '/srv/docs/index.md')).toBe('https://docs.example.org/en/latest/');
    expect(pageUrl({ ...site, base: 'https://docs.example.org/en/latest' }, '/srv/docs/a.md')).toBe(
      'https://docs.example.org/en/latest/a/',
    );
    // A segment that looks like a scheme or a parent stays a path below the base.
    expect(pageUrl(site, '/srv/docs/javascript:alert(1).md')).toBe(
      'https://docs.example.org/en/latest/javascript%3Aalert(1)/',
    );
  });

  it('gives no URL to a file outside the content folder', () => {
    expect(pageUrl(site, '/srv/README.md')).toBeUndefined();
    expect(pageUrl(site, '/srv/docs-other/a.md')).toBeUndefined();
  });
});

describe('jsLiteral', () => {
  it("reads a config object's own string, not a nested one, and never a computed one", () => {
    const config = [
      "import type { Config } from '@docusaurus/types';",
      'const config: Config = {',
      '  themeConfig: {',
      "    navbar: { title: 'Nav title' },",
      "      footer: { title: 'Footer' },",
      '  },',
      "  title: 'tRPC',",
      '  url: "https://trpc.io",',
      '  tagline: `Move ${fast}`,',
      "  baseUrl: 'it\\'s/',",
      '};',
    ].join('\n');
    expect(jsLiteral(config, 'title')).toBe('tRPC');
    expect(jsLiteral(config, 'url')).toBe('https://trpc.io');
    expect(jsLiteral(config, 'tagline')).toBeUndefined();
    expect(jsLiteral(config, 'baseUrl')).toBe("it's/");
    expect(jsLiteral(config, 'routeBasePath')).toBeUndefined();
  });
});

describe('a home page title as a name', () => {
  it('takes front matter first, then the first level-one heading outside code', () => {
    expect(pageTitle('---\ntitle: Vitest\nlayout: home\n---\n\n# Other\n')).toBe('Vitest');
    expect(pageTitle('+++\ntitle = "Hugo"\n+++\n')).toBe('Hugo');
    expect(pageTitle('```md\n# Not this\n```\n\n## Sub\n\n# Argo CD { #top }\n')).toBe('Argo CD');
    expect(pageTitle('Material for MkDocs\n===\n')).toBe('Material for MkDocs');
    expect(pageTitle('No heading at all.\n')).toBeUndefined();
  });

  it('keeps a short plain name, not a generic title, a sentence or markup', () => {
    expect(nameLike('Material for MkDocs')).toBe('Material for MkDocs');
    expect(nameLike('  tRPC ')).toBe('tRPC');
    for (const title of [
      'Overview',
      'Getting started',
      'Introduction',
      "The world's fastest framework for building websites",
      '![logo](logo.png) Project',
      '<img src=x> Docs',
      '`code` title',
      '',
    ])
      expect(nameLike(title), title).toBeUndefined();
  });
});
