import { describe, expect, it } from 'vitest';
import { checkPages, githubSlug, headingAnchors, parsePage, readCorpus } from './markdown-checks.js';
import { corpusRoot } from './paths.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

describe('corpus structure checks', () => {
  it('accepts pages whose links and anchors resolve', () => {
    const pages = new Map([
      ['kb/a.md', page('A', '# A\n\nSee [B](sub/b.md#retry-policy-v1) and [top](#a).')],
      [
        'kb/sub/b.md',
        page('B', '# B\n\n## Retry policy (v1)\n\nText. Back to [A](../a.md), out to [site](https://example.com).'),
      ],
      ['other/c.md', page('C', 'Cross-base link to [A](../kb/a.md).')],
    ]);
    expect(checkPages(pages)).toEqual([]);
  });

  it('reports a link to a missing page, with page and line', () => {
    const pages = new Map([['kb/a.md', page('A', 'Intro.\n\nSee [gone](missing.md).')]]);
    expect(checkPages(pages)).toEqual(['kb/a.md:7: link "missing.md" points to kb/missing.md, which does not exist']);
  });

  it('reports a link to a missing anchor', () => {
    const pages = new Map([
      ['kb/a.md', page('A', 'See [b](b.md#no-such-heading).')],
      ['kb/b.md', page('B', '## Some heading\n\nText.')],
    ]);
    expect(checkPages(pages)).toEqual([
      'kb/a.md:5: link "b.md#no-such-heading": kb/b.md has no heading with anchor #no-such-heading',
    ]);
  });

  it('reports links that leave the corpus or are root-absolute', () => {
    const pages = new Map([['kb/a.md', page('A', '[x](../../README.md) and [y](/kb/a.md)')]]);
    expect(checkPages(pages)).toHaveLength(2);
  });

  it('reports a missing title, an empty page and a repeated heading', () => {
    const pages = new Map([
      ['kb/untitled.md', '# Heading\n\nText.\n'],
      ['kb/empty.md', page('Empty', '# Only a heading')],
      ['kb/dup.md', page('Dup', '## Setup\n\nA.\n\n## Setup\n\nB.')],
    ]);
    const problems = checkPages(pages);
    expect(problems).toContain('kb/untitled.md:1: no frontmatter title (expected a YAML block with "title: ...")');
    expect(problems).toContain('kb/empty.md:1: the page has no content besides headings');
    expect(problems).toContain('kb/dup.md:9: heading "Setup" repeats the one on line 5');
  });

  it('makes GitHub-style anchors', () => {
    expect(githubSlug('401 from the wallets query')).toBe('401-from-the-wallets-query');
    expect(githubSlug('Ordering by entityEventSequence')).toBe('ordering-by-entityeventsequence');
    expect(githubSlug('Rename a knowledge base with kb.json')).toBe('rename-a-knowledge-base-with-kbjson');
    expect(githubSlug('Sessions and the /docs endpoint')).toBe('sessions-and-the-docs-endpoint');
    expect([...headingAnchors([{ text: 'Step' }, { text: 'Step' }])]).toEqual(['step', 'step-1']);
  });

  it('reads headings, links and code from a page', () => {
    const info = parsePage(page('T', '## The `code` heading\n\n[l](x.md)\n\n```ts\nconst a = 1;\n```'));
    expect(info.title).toBe('T');
    expect(info.headings).toEqual([{ text: 'The code heading', depth: 2, line: 5 }]);
    expect(info.links).toEqual([{ url: 'x.md', line: 7 }]);
    expect(info.code).toEqual([{ lang: 'ts', value: 'const a = 1;', line: 9 }]);
  });
});

describe('bundled corpus', () => {
  const pages = readCorpus(corpusRoot());

  it('has the two knowledge bases with enough pages', () => {
    const kbs = new Map<string, number>();
    for (const path of pages.keys()) {
      const kb = path.split('/')[0]!;
      kbs.set(kb, (kbs.get(kb) ?? 0) + 1);
    }
    expect([...kbs.keys()].sort()).toEqual(['svc-docs', 'svc-platform']);
    expect(kbs.get('svc-platform')).toBeGreaterThanOrEqual(15);
    expect(kbs.get('svc-docs')).toBeGreaterThanOrEqual(6);
  });

  it('has titles, content, unique headings and working links on every page', () => {
    expect(checkPages(pages)).toEqual([]);
  });

  it('gives every page several sections', () => {
    const thin = [...pages]
      .filter(([, source]) => parsePage(source).headings.filter((h) => h.depth >= 2).length < 3)
      .map(([path]) => path);
    expect(thin).toEqual([]);
  });
});
