import { symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { readIndex } from '../../src/index/open-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * Included files read from disk: pages show what they include, files their site never renders
 * are not pages, nothing outside the corpus folder is read, and a reindex sees a fragment's edit.
 */

const HUGO = {
  'docs/_index.md': '---\ntitle: Docs\n---\n\nThe docs.\n',
  'docs/_common/_index.md': '---\ncascade:\n  build:\n    list: never\n    render: never\n---\n\n<!-- Snippets. -->\n',
  'docs/_common/glob-patterns.md': '---\n---\n\n## Glob patterns\n\nA glob pattern matches zircon paths.\n',
  'docs/_common/nested/editions.md':
    '---\n_comment: keep the front matter\n---\n\nThe extended edition. {{% include "/_common/glob-patterns.md" %}}\n',
  'docs/functions/path/match.md': [
    '---',
    'title: path.Match',
    '---',
    '',
    'Reports whether the path matches.',
    '',
    '{{% include "_common/glob-patterns.md" %}}',
    '',
    '{{< include "/_common/nested/editions" >}}',
    '',
    '{{% include "../../../outside.md" %}}',
    '',
    '{{% include "/_common/linked/outside.md" %}}',
    '',
  ].join('\n'),
  'docs/functions/path/base.md': '---\ntitle: path.Base\n---\n\n{{% include "../../../outside.md" %}}\n',
  'docs/bundle/index.md': '---\ntitle: Gallery\nheadless: true\n---\n\nNever shown.\n',
};

function hugoCorpus(): string {
  const corpus = writeCorpus(HUGO);
  writeFileSync(join(corpus, 'outside.md'), 'SECRET outside the corpus folder\n');
  // A folder linked out of the corpus: the file through it is a regular file.
  symlinkSync(corpus, join(corpus, 'docs', '_common', 'linked'));
  return join(corpus, 'docs');
}

describe('included files', () => {
  it('Hugo: fragments inlined where pages include them; the headless bundle and page are not pages', () => {
    const lines: string[] = [];
    const docs = loadCorpus([hugoCorpus()], { warn: (line) => lines.push(line) });
    expect(docs.map((d) => d.path).sort()).toEqual([
      '_common/_index.md',
      '_index.md',
      'functions/path/base.md',
      'functions/path/match.md',
    ]);
    const match = docs.find((d) => d.path === 'functions/path/match.md')!;
    expect(match.source).toContain('## Glob patterns\n\nA glob pattern matches zircon paths.');
    expect(match.source).toContain('The extended edition. \n## Glob patterns');
    expect(match.source).not.toContain('_comment');
    expect(match.source).not.toContain('SECRET');
    expect(lines).toContain(
      'skipped docs/_common/glob-patterns.md: it is in a Hugo bundle that is never rendered (_common/_index.md cascades headless); its text is indexed where pages include it',
    );
    expect(
      lines.filter((l) => l.startsWith('skipped docs/bundle/index.md: its front matter says Hugo never renders it')),
    ).toHaveLength(1);
    // A path out of the corpus and a link out of it are missing files, each named once (two pages include the first).
    expect(lines.filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: functions/path/base.md includes "../../../outside.md": no such file inside the corpus folder; it is left out',
      'warning: functions/path/match.md includes "../../../outside.md": no such file inside the corpus folder; it is left out',
      'warning: functions/path/match.md includes "/_common/linked/outside.md": no such file inside the corpus folder; it is left out',
    ]);
  });

  it('bounds what the pages of a corpus include in all, and counts warnings past ten of a kind (issue 40)', () => {
    const maxFileBytes = 1000;
    const pages = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`client/p${i}.mdx`, `import F from '../partials/_f.mdx';\n\n<F />\n`]),
    );
    const lines: string[] = [];
    const docs = loadCorpus([writeCorpus({ ...pages, 'partials/_f.mdx': 'f'.repeat(900) })], {
      maxFileBytes,
      warn: (line) => lines.push(line),
    });
    const included = docs.filter((d) => d.source.includes('f'.repeat(900)));
    // 32 × 1,000 characters in all: 35 pages of 900, not 60.
    expect(included).toHaveLength(35);
    expect(docs).toHaveLength(60);
    const warnings = lines.filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(10);
    expect(warnings[0]).toMatch(
      /includes "..\/partials\/_f.mdx": what the corpus's pages include in all is over 32 times/,
    );
    expect(lines).toContain('… and 15 more warnings like the above (includes: corpus-full)');
  });

  it('Docusaurus: a partial starting with `_` is not a page, and shows in the page that renders it', () => {
    const corpus = writeCorpus({
      'client/setup.mdx':
        "---\ntitle: Set up\n---\n\nimport Router from '../partials/_router.mdx';\n\n## Import\n\n<Router />\n",
      'partials/_router.mdx': 'Import your `AppRouter` type into the client.\n',
    });
    const docs = loadCorpus([corpus]);
    // The partial's folder is a knowledge base of its own, with no pages; the corpus folder bounds includes.
    expect(docs.map((d) => `${d.kb}/${d.path}`)).toEqual(['client/setup.mdx']);
    expect(docs[0]!.source).toContain('## Import\n\nImport your `AppRouter` type into the client.\n');
  });

  it("MkDocs: snippets from mkdocs.yml's base_path, from a folder that is not walked", () => {
    const project = writeCorpus({
      'mkdocs.yml':
        'site_name: Widgets\nmarkdown_extensions:\n  - pymdownx.snippets:\n      base_path: [docs/.snippets]\n',
      'docs/index.md': '# Widgets\n\n!!! note\n\n    --8<-- "abbreviations.md"\n',
      'docs/.snippets/abbreviations.md': 'A widget is a *gadget*.\n',
    });
    const docs = loadCorpus([join(project, 'docs')]);
    expect(docs.map((d) => d.path)).toEqual(['index.md']);
    expect(docs[0]!.source).toBe('# Widgets\n\n!!! note\n\n    A widget is a *gadget*.\n');
  });

  it('a reindex parses a page again when a fragment it includes changes, and shows the new text', async () => {
    const docs = hugoCorpus();
    const outDir = tempDir('index');
    const vectorCacheDir = tempDir('vectors');
    await buildIndex({ corpusDirs: [docs], outDir, vectorCacheDir });
    const fragment = join(docs, '_common', 'glob-patterns.md');
    writeFileSync(fragment, '---\n---\n\n## Glob patterns\n\nA glob pattern matches basalt paths.\n');
    // Set back in time: the edit must be seen by its ctime, as every edit is.
    const past = new Date(Date.now() - 60_000);
    utimesSync(fragment, past, past);
    const summary = await buildIndex({ corpusDirs: [docs], outDir, vectorCacheDir });
    expect(summary.changes.changed).toEqual(['docs/functions/path/match.md']);
    const index = await readIndex(outDir);
    const texts = index.sections
      .slice()
      .map((s) => s.text)
      .join('\n');
    expect(texts).toContain('basalt');
    expect(texts).not.toContain('zircon');
    expect(index.documents.some((d) => d.path.startsWith('_common/') && d.sectionCount > 0)).toBe(false);
  });
});
