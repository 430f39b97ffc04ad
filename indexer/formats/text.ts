import type { BlockContent, Heading, Root } from 'mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import type { ConvertedDocument } from './converted.js';

/**
 * Plain text → Markdown, kept simple (docs/formats.md): blank lines separate paragraphs; a line
 * underlined with `===` is a heading of level 1 and one underlined with `---` of level 2; a short
 * line in capitals standing alone (`INSTALLATION`) is a heading of level 2; a paragraph whose
 * every line is indented (four spaces or a tab) is preformatted, kept as a code block. Everything
 * else is text: characters Markdown would read as markup are escaped.
 */

const UNDERLINE = /^\s*(=+|-+)\s*$/;
const MIN_UNDERLINE = 3;
const MAX_CAPS_HEADING = 60;
const INDENTED = /^( {4}|\t)/;

export function textToMarkdown(source: string): ConvertedDocument {
  const root: Root = { type: 'root', children: [] };
  const paragraphs = source.replace(/\r\n?/g, '\n').split(/\n[ \t]*(?:\n|$)/);
  for (const paragraph of paragraphs) root.children.push(...blocksOf(paragraph.split('\n')));
  return { title: undefined, markdown: toMarkdown(root, { fences: true }) };
}

/** One paragraph's lines (no blank line among them) as blocks: text, headings where a line is underlined. */
function blocksOf(lines: string[]): BlockContent[] {
  const blocks: BlockContent[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.some((l) => l.trim() !== '')) blocks.push(textBlock(pending));
    pending = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const underline = UNDERLINE.exec(lines[i + 1] ?? '')?.[1];
    if (line.trim() !== '' && !UNDERLINE.test(line) && underline !== undefined && underline.length >= MIN_UNDERLINE) {
      flush();
      blocks.push(heading(underline.startsWith('=') ? 1 : 2, line));
      i++;
    } else pending.push(line);
  }
  flush();
  return blocks;
}

function textBlock(lines: string[]): BlockContent {
  const content = lines.filter((l) => l.trim() !== '');
  if (content.every((l) => INDENTED.test(l))) return { type: 'code', lang: null, value: dedent(content).join('\n') };
  const text = content.map((l) => l.trim()).join('\n');
  if (content.length === 1 && isCapsHeading(text)) return heading(2, text);
  if (content.length === 1 && UNDERLINE.test(text)) return { type: 'thematicBreak' };
  return { type: 'paragraph', children: [{ type: 'text', value: text }] };
}

/** `INSTALLATION`, `RELEASE NOTES 2.0`: capitals, no small letters, short. */
function isCapsHeading(line: string): boolean {
  return line.length <= MAX_CAPS_HEADING && !/\p{Ll}/u.test(line) && (line.match(/\p{Lu}/gu)?.length ?? 0) >= 2;
}

function heading(depth: 1 | 2, text: string): Heading {
  return { type: 'heading', depth, children: [{ type: 'text', value: text.trim() }] };
}

function dedent(lines: string[]): string[] {
  // A loop, not Math.min(...indents): spreading a paragraph of 200,000 lines overflows the stack.
  let common = Number.POSITIVE_INFINITY;
  for (const l of lines) if (l.trim() !== '') common = Math.min(common, /^[ \t]*/.exec(l)![0].length);
  return lines.map((l) => l.slice(common));
}
