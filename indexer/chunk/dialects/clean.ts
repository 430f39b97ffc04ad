import type { Root } from 'mdast';
import { cleanBlocks } from './blocks.js';
import { applyEdits, inlineEdits, overlaps, type Range } from './edits.js';
import { htmlEdits } from './html-nodes.js';
import { linkTextEdits } from './link-text.js';
import { walkTree } from './walk-tree.js';

/**
 * A Markdown page of any site generator's dialect → the page as its readers see it, as plain
 * CommonMark/GFM: containers become their titles and bodies, directives and macros go or become
 * the names they show, raw HTML becomes Markdown. Code (fenced or inline) stays as written.
 *
 * Two passes: blocks.ts over the lines (containers whose indented bodies CommonMark would read
 * as code must be undone before parsing), then the parsed page's inline markup and HTML as edits
 * to its text. MDX goes through the same lenient passes rather than a strict MDX parser
 * (remark-mdx rejects 20 of tRPC's 90 pages and 77 of Vitest's 223: `{` in prose, `<!-- -->`). Pure: text in, text out, with the parse of the result when nothing changed in the
 * second pass (the caller would otherwise parse the same text again).
 */

export interface CleanedPage {
  text: string;
  /** The parse of `text`, when the second pass had it already. */
  tree?: Root;
}

export function cleanDialects(source: string, parse: (text: string) => Root): CleanedPage {
  const blocks = cleanBlocks(source);
  const tree = parse(blocks);
  const html = htmlEdits(tree, blocks);
  // An HTML block is converted whole (its macros with it); code is left as written.
  const kept = [...codeRanges(tree), ...html.block].sort((a, b) => a.start - b.start);
  const inline = inlineEdits(blocks, kept);
  // A tag inside a macro or shortcode went with it (`{{<figure src=…>}}` parses as a tag).
  const marked = [...html.block, ...inline, ...html.inline.filter((e) => !overlaps(e, inline))];
  const sorted = [...marked].sort((a, b) => a.start - b.start);
  // Links shown as their text and entities decoded, where no other edit is (link-text.ts).
  const edits = [...marked, ...linkTextEdits(tree, blocks).filter((e) => !overlaps(e, sorted))];
  if (edits.length === 0) return { text: blocks, tree };
  return { text: applyEdits(blocks, edits) };
}

/** Code blocks, inline code and frontmatter: sorted, non-overlapping ranges of the text. */
function codeRanges(tree: Root): Range[] {
  const ranges: Range[] = [];
  walkTree(tree, (node) => {
    const type: string = node.type;
    if (type !== 'code' && type !== 'inlineCode' && type !== 'yaml' && type !== 'toml') return;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) ranges.push({ start, end });
    return 'skip';
  });
  return ranges.sort((a, b) => a.start - b.start);
}
