import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../indexer/chunk/chunk.js';
import {
  expandIncludes,
  type IncludedFile,
  type ResolveInclude,
} from '../../indexer/chunk/dialects/expand-includes.js';
import { findIncludes } from '../../indexer/chunk/dialects/include-directives.js';

/**
 * Include directives of each site generator, expanded as their readers see the page: the
 * included file's text in place, its front matter gone, its headings in the page's outline.
 * Files come from a literal map (the disk side is test/indexer/includes.test.ts).
 */

const LIMITS = { maxDepth: 8, maxChars: 100_000 };

/** Resolves a directive's target by name alone (ids are the targets with any leading `/`, `./` or `../../` dropped). */
function filesOf(files: Record<string, string>): ResolveInclude {
  return (directive) => {
    const id = directive.target.replace(/^(\.{0,2}\/)+/, '');
    const text = files[id];
    return text === undefined ? undefined : { id, text };
  };
}

function expand(page: string, files: Record<string, string>) {
  return expandIncludes({ id: 'page.md', text: page }, filesOf(files), LIMITS);
}

describe('include directives', () => {
  it('Hugo: `{{% include %}}` and `{{< include >}}` take the fragment without its front matter, indented like the directive', () => {
    const page = [
      '---',
      'title: Frequently asked questions',
      '---',
      '',
      'An error message indicates that a feature is not available. Why?',
      ': <!-- do not remove preceding space -->',
      '  {{% include "/_common/installation/01-editions.md" %}}',
      '',
      '{{< include "_common/glob.md" >}}',
      '',
    ].join('\n');
    const files = {
      '_common/installation/01-editions.md':
        '---\n_comment: Do not remove front matter.\n---\n\nHugo is available in **extended** editions.\n\nSee the table.\n',
      '_common/glob.md': '---\n---\n\n## Glob patterns\n\nA glob matches paths.\n',
    };
    const out = expand(page, files);
    // Blank lines stay blank: the definition's text goes on below them.
    expect(out.text).toContain(
      ': <!-- do not remove preceding space -->\n\n  Hugo is available in **extended** editions.\n\n  See the table.\n\n',
    );
    expect(out.text).not.toContain('include');
    expect(out.text).not.toContain('_comment');
    expect(out.included.map((f) => f.id)).toEqual(['_common/installation/01-editions.md', '_common/glob.md']);
    const doc = chunkMarkdown(out.text);
    // The fragment's heading joins the page's outline under the page's title.
    expect(doc.sections.at(-1)!.headings).toEqual(['Frequently asked questions', 'Glob patterns']);
    expect(doc.sections.at(-1)!.text).toContain('A glob matches paths.');
  });

  it('MkDocs: `--8<--` on its own line (inside an admonition, with a line range) and the block form', () => {
    const page = [
      '# Setup',
      '',
      '!!! note "From the changelog"',
      '',
      '    --8<-- "CHANGELOG.md:2:3"',
      '',
      '--8<--',
      'includes/abbreviations.md',
      ';includes/escaped.md',
      '--8<--',
      '',
      'After.',
      '',
    ].join('\n');
    const files = {
      'CHANGELOG.md': 'line one\nline two\nline three\nline four\n',
      'includes/abbreviations.md': '*[HTML]: Hyper Text Markup Language\n',
    };
    const out = expand(page, files);
    expect(out.text).toBe(
      '# Setup\n\n!!! note "From the changelog"\n\n    line two\n    line three\n\n*[HTML]: Hyper Text Markup Language\n\nAfter.\n',
    );
    expect(chunkMarkdown(out.text).sections[0]!.text).toContain('line two\nline three');
  });

  it('VitePress: `<!--@include: -->` with a line range and with a region', () => {
    const page = '# Guide\n\n<!--@include: ./parts/basics.md{2,3}-->\n\n<!--@include: ./parts/regions.md#usage-->\n';
    const files = {
      'parts/basics.md': '# Basics\nSecond line.\nThird line.\nFourth line.\n',
      'parts/regions.md': 'Before.\n<!-- #region usage -->\nInside the region.\n<!-- #endregion usage -->\nAfter.\n',
    };
    expect(expand(page, files).text).toBe('# Guide\n\nSecond line.\nThird line.\n\nInside the region.\n');
  });

  it('Docusaurus: an imported MDX partial rendered as a component; other components and code stay', () => {
    const page = [
      '---',
      'title: Set up a tRPC Client',
      '---',
      '',
      "import ImportAppRouter from '../../partials/_import-approuter.mdx';",
      "import { InstallSnippet } from '@site/src/components/InstallSnippet';",
      '',
      '### 2. Import your App Router',
      '',
      '<ImportAppRouter />',
      '',
      '<InstallSnippet pkgs="@trpc/server" />',
      '',
      '```mdx',
      '<ImportAppRouter />',
      '```',
      '',
    ].join('\n');
    const files = { 'partials/_import-approuter.mdx': 'Import your `AppRouter` type into the client application.\n' };
    const out = expand(page, files);
    expect(out.text).toContain(
      '### 2. Import your App Router\n\nImport your `AppRouter` type into the client application.\n\n<InstallSnippet',
    );
    expect(out.text).toContain('```mdx\n<ImportAppRouter />\n```');
  });

  it('leaves directives inside fenced code as written (a page that shows the syntax)', () => {
    const page = '# Snippets\n\n```markdown\n--8<-- "file.md"\n{{% include "/_common/x.md" %}}\n```\n';
    expect(findIncludes(page)).toEqual([]);
    expect(expand(page, { 'file.md': 'nope', '_common/x.md': 'nope' }).text).toBe(page);
  });

  it('expands includes of includes, and bounds cycles, depth and total size, telling each', () => {
    const nested = expand('{{% include "a.md" %}}\n', { 'a.md': 'A\n{{% include "b.md" %}}\n', 'b.md': 'B\n' });
    expect(nested.text).toBe('A\nB\n');
    const cycle = expand('Top\n{{% include "a.md" %}}\n', {
      'a.md': 'A\n{{% include "page.md" %}}\n',
      'page.md': 'loop',
    });
    expect(cycle.text).toBe('Top\nA\n');
    expect(cycle.problems).toEqual([{ kind: 'cycle', from: 'a.md', target: 'page.md' }]);
    const chain: Record<string, string> = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`f${i}.md`, `F${i}\n{{% include "f${i + 1}.md" %}}\n`]),
    );
    const deep = expandIncludes({ id: 'page.md', text: '{{% include "f0.md" %}}\n' }, filesOf(chain), {
      ...LIMITS,
      maxDepth: 3,
    });
    expect(deep.text).toBe('F0\nF1\nF2\n');
    expect(deep.problems.map((p) => p.kind)).toEqual(['too-deep']);
    const big = expandIncludes(
      { id: 'page.md', text: '{{% include "a.md" %}}\n{{% include "b.md" %}}\n' },
      filesOf({ 'a.md': 'x'.repeat(60), 'b.md': 'y'.repeat(60) }),
      { ...LIMITS, maxChars: 100 },
    );
    expect(big.text).toBe(`${'x'.repeat(60)}\n`);
    expect(big.problems).toEqual([{ kind: 'too-large', from: 'page.md', target: 'b.md' }]);
  });

  it('counts the indentation it adds to every included line against the size bound (issue 40)', () => {
    const fragment = 'line\n'.repeat(1000);
    const page = (spaces: number) => ({ id: 'page.md', text: `Top\n${' '.repeat(spaces)}{{% include "f.md" %}}\n` });
    const limits = { ...LIMITS, maxChars: 50_000 };
    const shallow = expandIncludes(page(4), filesOf({ 'f.md': fragment }), limits);
    expect(shallow.text.length).toBe(4 + 1000 * 9);
    expect(shallow.problems).toEqual([]);
    // 5,000 characters of text, 100 spaces on each of its 1,000 lines: 105,000 produced, over 50,000.
    const deep = expandIncludes(page(100), filesOf({ 'f.md': fragment }), limits);
    expect(deep.text).toBe('Top\n');
    expect(deep.problems).toEqual([{ kind: 'too-large', from: 'page.md', target: 'f.md' }]);
    // Lines broken by a lone \r are indented too, so they count.
    const carriage = expandIncludes(page(100), filesOf({ 'f.md': 'x\r'.repeat(1000) }), limits);
    expect(carriage.problems.map((p) => p.kind)).toEqual(['too-large']);
  });

  it('a missing file becomes nothing, told once as a problem', () => {
    const out = expand('Before.\n\n{{% include "/_common/gone.md" %}}\n\nAfter.\n', {});
    expect(out.text).toBe('Before.\n\n\nAfter.\n');
    expect(out.problems).toEqual([{ kind: 'missing', from: 'page.md', target: '/_common/gone.md' }]);
  });

  it('hands the resolver the file that holds each directive', () => {
    const seen: string[] = [];
    const resolve: ResolveInclude = (directive, from: IncludedFile) => {
      seen.push(`${from.id} -> ${directive.target}`);
      return directive.target === 'a.md' ? { id: 'dir/a.md', text: '{{% include "b.md" %}}\n' } : undefined;
    };
    expandIncludes({ id: 'page.md', text: '{{% include "a.md" %}}\n' }, resolve, LIMITS);
    expect(seen).toEqual(['page.md -> a.md', 'dir/a.md -> b.md']);
  });
});
