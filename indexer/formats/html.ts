import type { Element, Root } from 'hast';
import type { Nodes as MdastNodes } from 'mdast';
import { toMdast } from 'hast-util-to-mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { type Options as ToMarkdownOptions, toMarkdown } from 'mdast-util-to-markdown';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { cleanHast } from './html-clean.js';

/**
 * HTML → Markdown, as a reader of the rendered page would retell it: headings keep their levels,
 * tables become Markdown tables, code blocks keep their language, and what is never read as
 * words (scripts, styles, comments, buttons, heading anchors, line numbers: html-clean.ts) is
 * left out. The HTML is only parsed: no script runs and nothing is fetched. Pure and synchronous.
 */

const fragmentParser = unified().use(rehypeParse, { fragment: true });

// Unaligned table pipes: padding cells to one width spends a response's characters on spaces.
const MARKDOWN_OPTIONS: ToMarkdownOptions = {
  extensions: [gfmToMarkdown({ tablePipeAlign: false })],
  bullet: '-',
  fences: true,
};

/**
 * A fragment of HTML (a raw HTML block or inline HTML inside Markdown, or a whole body) as
 * Markdown, without a trailing newline; '' when nothing in it is text.
 */
export function htmlToMarkdown(html: string): string {
  return hastToMarkdown(fragmentParser.parse(html));
}

/** A parsed HTML tree (or one element of it) as Markdown; `drop` leaves out more elements (html-page.ts). */
export function hastToMarkdown(tree: Root | Element, drop?: (element: Element) => boolean): string {
  const root: Root = tree.type === 'root' ? tree : { type: 'root', children: [tree] };
  const mdast = toMdast(cleanHast(root, drop));
  trimBreaks(mdast);
  return toMarkdown(mdast, MARKDOWN_OPTIONS).replace(/\s+$/, '');
}

/**
 * Line breaks that open or close a run of text (`text<br>` outside a paragraph) break nothing,
 * and Markdown would show them as a stray backslash. Changes the tree it is given (a new one).
 */
function trimBreaks(node: MdastNodes): void {
  if (!('children' in node)) return;
  const children: MdastNodes[] = node.children;
  const isEdge = (n: MdastNodes | undefined) => n?.type === 'break' || (n?.type === 'text' && n.value.trim() === '');
  while (isEdge(children[0])) children.shift();
  while (isEdge(children.at(-1))) children.pop();
  for (const child of children) trimBreaks(child);
}
