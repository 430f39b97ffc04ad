import type { Heading, Html, Root } from 'mdast';
import { htmlToMarkdown } from '../../formats/html.js';
import { cleanInlineText, type Edit } from './edits.js';
import { walkTree } from './walk-tree.js';

/**
 * Raw HTML and JSX in a parsed page, as edits to its text that leave what a reader sees:
 *
 * - an HTML block becomes Markdown (htmlToMarkdown: tables become tables), comments nothing;
 * - an inline tag goes and the text between tags stays (`<kbd>Ctrl</kbd>` → `Ctrl`), an image
 *   becomes a Markdown image;
 * - a JSX component (a capitalised tag: MDX, VitePress) shows only its meaningful props (a tab's
 *   `label`, a card's `title`, an mdBook listing's `caption`) and its children; in a heading it
 *   is a badge (`<Badge>`, `<Version>4.0.0</Version>`, `<CRoot />`) and goes with its text.
 */

const PHRASING_PARENTS = new Set(['paragraph', 'heading', 'tableCell', 'emphasis', 'strong', 'delete', 'link']);
/** A JSX tag: its name, its props, whether it closes or is self-closing. */
const JSX_TAG =
  /<(\/?)([A-Z][\w.]{0,80})((?:\s+[\w:-]{1,80}(?:\s*=\s*(?:"[^"]{0,500}"|'[^']{0,500}'|\{[^{}]{0,500}(?:\{[^{}]{0,500}\}[^{}]{0,500}){0,20}\}))?){0,50})\s*(\/?)>/g;
const MEANINGFUL_PROPS = /\b(?:label|title|caption)\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/** Edits for HTML blocks (`block`: their ranges are converted whole) and for inline tags and heading badges. */
export function htmlEdits(tree: Root, text: string): { block: Edit[]; inline: Edit[] } {
  const edits = { block: [] as Edit[], inline: [] as Edit[] };
  walkTree(tree, (node, parent) => {
    if (node.type === 'heading') {
      edits.inline.push(...badgeEdits(node, text));
      return;
    }
    if (node.type !== 'html') return;
    const range = rangeOf(node, text);
    if (range === undefined) return;
    const inline = parent !== undefined && PHRASING_PARENTS.has(parent.type);
    if (inline) edits.inline.push({ ...range, text: inlineTag(node.value) });
    else edits.block.push({ ...range, text: blockHtml(node.value, linePrefix(text, range.start)) });
    return undefined;
  });
  return edits;
}

/** A component in a heading, self-closing or from its opening tag to its closing one, with the spaces before it. */
function badgeEdits(heading: Heading, text: string): Edit[] {
  const edits: Edit[] = [];
  const children = heading.children;
  children.forEach((child, i) => {
    if (child.type !== 'html') return;
    const tag = /^<([A-Z][\w.]*)(?:\s[^>]*)?>$/.exec(child.value.trim());
    if (!tag) return;
    const selfClosing = child.value.trim().endsWith('/>');
    const close = selfClosing
      ? child
      : children.slice(i + 1).find((c) => c.type === 'html' && c.value.trim() === `</${tag[1]}>`);
    const from = rangeOf(child, text);
    const to = close && rangeOf(close as Html, text);
    if (from === undefined || to === undefined) return;
    let start = from.start;
    while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    edits.push({ start, end: to.end, text: '' });
  });
  return edits;
}

/** An inline tag: nothing, but an image (its Markdown) and a line break (a space); a component shows its label. */
function inlineTag(value: string): string {
  if (value.startsWith('<!--')) return '';
  if (/^<[A-Z]/.test(value)) return jsxText(value);
  if (/^<br\b/i.test(value)) return ' ';
  if (/^<img\b/i.test(value)) return htmlToMarkdown(value);
  return '';
}

function jsxText(tag: string): string {
  return [...tag.matchAll(JSX_TAG)]
    .map((m) =>
      m[1] === ''
        ? (MEANINGFUL_PROPS.exec(m[3]!)
            ?.slice(1)
            .find((v) => v !== undefined) ?? '')
        : '',
    )
    .join(' ')
    .trim();
}

/** An HTML block as Markdown: components first become their labels, then the rest is converted. */
function blockHtml(value: string, prefix: string): string {
  const html = value.replace(JSX_TAG, (_tag, closing: string, _name: string, props: string) => {
    if (closing !== '') return '';
    const label = MEANINGFUL_PROPS.exec(props)
      ?.slice(1)
      .find((v) => v !== undefined);
    return label ? `<p><strong>${label}</strong></p>` : '';
  });
  const markdown = cleanInlineText(convertHtml(html));
  // Lines after the first keep the container prefix (list indentation, `> `) the block had.
  return markdown.replace(/\n(?=.)/g, `\n${prefix}`);
}

/** HTML nested deeper than the converter's stack (thousands of open tags) shows its text. */
function convertHtml(html: string): string {
  try {
    return htmlToMarkdown(html);
  } catch {
    return html
      .replace(/<[^<>]*>/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .trim();
  }
}

/** What precedes `offset` on its line, as a continuation prefix: indentation and blockquote markers. */
function linePrefix(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return text.slice(lineStart, offset).replace(/[^\s>]/g, ' ');
}

function rangeOf(node: Html, text: string): { start: number; end: number } | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined || end > text.length) return undefined;
  return { start, end };
}
