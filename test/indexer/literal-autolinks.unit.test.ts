import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../indexer/chunk/chunk.js';
import { guardLiteralAutolinks } from '../../indexer/chunk/literal-autolinks.js';

/** The parse as remark-gfm gives it, its literal-autolink transform run on every tree. */
const unguarded = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm);

/** Text that the transform links (in any case, behind entities, in headings and tables) and text it cannot. */
const PAGES = [
  'Plain prose with no address at all.\n\n[a link](https://example.com) and `https://code.example`\n',
  'Visit www.example.com today.',
  'Visit WWW.EXAMPLE.COM or HTTPS://EXAMPLE.ORG/path?q=1.',
  'Mail someone@example.com, or mailto:me@example.org, or xmpp:me@example.org/home.',
  '# Heading with http://example.com/x\n\n| a | b |\n|---|---|\n| www.example.com | x@y.io |\n',
  'An address behind entities: https&#58;//example.com and me&#64;example.com.',
  'In capitals behind entities: HTTP&#58;//EXAMPLE.COM and WWW&#46;EXAMPLE.COM.',
  '*emphasis https://example.com* and ~~www.example.com~~ and [text www.x.com](u)',
  '```\nhttps://in.code.example\n```\n\n<https://autolink.example>\n',
];

describe('the guarded literal-autolink transform', () => {
  it('gives the tree remark-gfm gives, page by page', () => {
    for (const page of PAGES) expect(parseMarkdown(page), page).toEqual(unguarded.parse(page));
  });

  it('still links the addresses only the transform finds (behind entities, in any case)', () => {
    const tree = parseMarkdown('Visit HTTPS&#58;//EXAMPLE.ORG, WWW&#46;EXAMPLE.COM or me&#64;example.org.');
    const links =
      tree.children[0]?.type === 'paragraph' ? tree.children[0].children.filter((n) => n.type === 'link') : [];
    expect(links.map((l) => l.url)).toEqual(['HTTPS://EXAMPLE.ORG', 'http://WWW.EXAMPLE.COM', 'mailto:me@example.org']);
  });

  it('runs the transform only on a tree with text it could link', () => {
    const seen: string[] = [];
    // A transform of the same name as remark-gfm's, to count the trees it is given.
    const transformGfmAutolinkLiterals = (tree: Root) => void seen.push(tree.children[0]?.type ?? 'none');
    const processor = unified()
      .use(remarkParse)
      .use(function () {
        const data = this.data();
        data.fromMarkdownExtensions = [[{ transforms: [transformGfmAutolinkLiterals] }]];
      })
      .use(guardLiteralAutolinks);
    processor.parse('No address here, [only a target](https://example.com).');
    processor.parse('# www.example.com');
    processor.parse('me@example.com');
    expect(seen).toEqual(['heading', 'paragraph']);
  });
});
