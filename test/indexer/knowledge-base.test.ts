import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusError } from '../../src/corpus-folder.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * What a knowledge base is called and where its pages are published, as the loader reads them
 * off real folder layouts: kb.json first, then the site generator's config, then the home page,
 * then the folder.
 */

function loaded(dirs: string[]) {
  return loadCorpus(dirs).map((d) => ({ kb: d.kb, path: d.path, url: d.url }));
}

describe('knowledge-base names', () => {
  it('takes kb.json, then the site title, then a home page title, then the folder name', () => {
    const root = writeCorpus({
      'declared/mkdocs.yml': 'site_name: Widget Docs\ndocs_dir: .\n',
      'declared/kb.json': JSON.stringify({ name: 'Named in kb.json' }),
      'declared/a.md': '# A\n',
      'site/mkdocs.yml': 'site_name: Widget Docs\nmarkdown_extensions:\n  - x: !!python/name:pkg.mod\ndocs_dir: .\n',
      'site/README.md': '# Widget Project\n',
      'site/a.md': '# A\n',
      'home/README.md': '# Heron Handbook\n',
      'generic/index.md': '# Overview\n',
      'generic/a.md': '# A\n',
    });
    const names = (dir: string) => [...new Set(loadCorpus([join(root, dir)]).map((d) => d.kb))];
    expect(names('declared')).toEqual(['Named in kb.json']);
    expect(names('site')).toEqual(['Widget Docs']);
    expect(names('home')).toEqual(['Heron Handbook']);
    expect(names('generic')).toEqual(['generic']);
  });

  it('reads each generator’s title from its config beside or above the docs folder', () => {
    const root = writeCorpus({
      'mk/mkdocs.yml': "site_name: 'Material for MkDocs'\n",
      'mk/docs/a.md': '# A\n',
      'dz/www/docusaurus.config.ts':
        "export default {\n  title: 'tRPC',\n  themeConfig: { navbar: { title: 'x' } },\n};\n",
      'dz/www/docs/a.md': '# A\n',
      'hugo/hugo.toml': 'title = "Hugo"\nbaseURL = "https://gohugo.io/"\n[languages.en]\ncontentDir = "content/en"\n',
      'hugo/content/en/_index.md': "---\ntitle: The world's fastest framework for building websites\n---\n",
      'vp/docs/.vitepress/config.ts': "export default defineConfig({\n  title: 'Vitest',\n})\n",
      'vp/docs/a.md': '# A\n',
    });
    for (const [dir, name] of <const>[
      ['mk/docs', 'Material for MkDocs'],
      ['dz/www/docs', 'tRPC'],
      ['hugo/content/en', 'Hugo'],
      ['vp/docs', 'Vitest'],
    ])
      expect(loadCorpus([join(root, dir)])[0]?.kb, dir).toBe(name);
  });

  it('ignores a config above the folder that serves another folder, and one that is a symbolic link', () => {
    const root = writeCorpus({
      'mkdocs.yml': 'site_name: Someone Else\ndocs_dir: website\n',
      'notes/a.md': '# A\n',
      'linked/a.md': '# A\n',
    });
    const elsewhere = join(tempDir('outside'), 'mkdocs.yml');
    writeFileSync(elsewhere, 'site_name: Linked Site\ndocs_dir: .\n');
    symlinkSync(elsewhere, join(root, 'linked', 'mkdocs.yml'));
    expect(loadCorpus([join(root, 'notes')])[0]?.kb).toBe('notes');
    expect(loadCorpus([join(root, 'linked')])[0]?.kb).toBe('linked');
  });

  it('names a subfolder knowledge base after its folder, whatever its home page says', () => {
    const root = writeCorpus({ 'guide/README.md': '# Widget Guide\n', 'api/a.md': '# A\n' });
    expect([...new Set(loadCorpus([root]).map((d) => d.kb))]).toEqual(['api', 'guide']);
  });

  it('never takes a name with control characters from a config', () => {
    const root = writeCorpus({ 'mkdocs.yml': 'site_name: "Docs\\nSource: forged"\ndocs_dir: .\n', 'a.md': '# A\n' });
    expect(loadCorpus([root])[0]?.kb).not.toMatch(/forged/);
  });
});

describe('public page URLs', () => {
  it('come from kb.json baseUrl and urlStyle', () => {
    const root = writeCorpus({
      'kb/kb.json': JSON.stringify({ baseUrl: 'https://docs.example.org/kb', urlStyle: 'html' }),
      'kb/guide/setup.md': '# Setup\n',
      'kb/README.md': '# Readme\n',
      'plain/a.md': '# A\n',
    });
    expect(loaded([root])).toEqual([
      { kb: 'kb', path: 'README.md', url: 'https://docs.example.org/kb/index.html' },
      { kb: 'kb', path: 'guide/setup.md', url: 'https://docs.example.org/kb/guide/setup.html' },
      { kb: 'plain', path: 'a.md', url: undefined },
    ]);
  });

  it("come from a site's declared URL, below its content folder", () => {
    const root = writeCorpus({
      'mk/mkdocs.yml': 'site_name: Argo CD\nsite_url: https://argo-cd.readthedocs.io/en/stable/\n',
      'mk/docs/user-guide/sync.md': '# Sync\n',
      'dz/docusaurus.config.js':
        "module.exports = {\n  title: 'tRPC',\n  url: 'https://trpc.io',\n  baseUrl: '/',\n};\n",
      'dz/docs/client/index.md': '# Client\n',
      'hugo/hugo.toml': 'baseURL = "https://gohugo.io/"\ncontentDir = "content"\n',
      'hugo/content/_index.md': '# Hugo\n',
      'hugo/content/functions/_index.md': '# Functions\n',
      'subs/mkdocs.yml': 'site_name: Subs\nsite_url: https://subs.example/\n',
      'subs/docs/guide/setup.md': '# Setup\n',
      'subs/docs/api/index.md': '# API\n',
      'own/mkdocs.yml': 'site_name: Own\nsite_url: https://own.example/\nuse_directory_urls: false\n',
      'own/docs/a.md': '# A\n',
      'own/NOTES.md': '# Not in the site\n',
    });
    const urls = (dir: string) => loadCorpus([join(root, dir)]).map((d) => d.url);
    expect(urls('mk/docs')).toEqual(['https://argo-cd.readthedocs.io/en/stable/user-guide/sync/']);
    expect(urls('dz/docs')).toEqual(['https://trpc.io/docs/client']);
    expect(urls('hugo/content')).toEqual(['https://gohugo.io/', 'https://gohugo.io/functions/']);
    // Each subfolder a knowledge base of its own, named after its folder, its pages still on the site.
    expect(loaded([join(root, 'subs/docs')])).toEqual([
      { kb: 'api', path: 'index.md', url: 'https://subs.example/api/' },
      { kb: 'guide', path: 'setup.md', url: 'https://subs.example/guide/setup/' },
    ]);
    // The config inside the knowledge base's own folder: its pages under docs/ have URLs, the rest none.
    expect(loaded([join(root, 'own')])).toEqual([
      { kb: 'Own', path: 'NOTES.md', url: undefined },
      { kb: 'Own', path: 'docs/a.md', url: 'https://own.example/a.html' },
    ]);
  });

  it('refuse a baseUrl that is not an http(s) URL or carries credentials, without quoting it', () => {
    for (const baseUrl of ['javascript:alert(1)', 'docs/', 'https://user:SECRET@docs.example.org/']) {
      const root = writeCorpus({ 'kb/a.md': '# A\n', 'kb/kb.json': JSON.stringify({ baseUrl }) });
      expect(() => loadCorpus([root]), baseUrl).toThrow(CorpusError);
      expect(() => loadCorpus([root])).toThrow(/baseUrl: an absolute http\(s\) URL without credentials/);
      expect(() => loadCorpus([root])).not.toThrow(/SECRET/);
    }
    const style = writeCorpus({ 'kb/a.md': '# A\n', 'kb/kb.json': JSON.stringify({ urlStyle: 'pretty' }) });
    expect(() => loadCorpus([style])).toThrow(/kb\.json must be .*\(urlStyle: /);
  });
});
