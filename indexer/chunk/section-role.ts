import type { List, RootContent, Table } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { SectionRole } from '../../src/index/format.js';

/**
 * What a section is for, read off its blocks: `content` says something; `navigation` only points
 * elsewhere (a "See also" list, a table of contents, a list whose every item is a link); `empty`
 * is a heading with nothing under it once markup is gone. Search never makes a navigation or
 * empty section a result's best match, and a response spends its room on them last: they are
 * kept for context (and as the heading path of what follows), not as answers.
 */

const NAVIGATION_HEADING =
  /^(see also|related( (pages|topics|links|reading|resources))?|further reading|more resources|learn more|next steps|what'?s next|table of contents|contents|on this page|in this (section|article|page)|references|specifications|browser compatibility)$/i;

/** Characters of prose outside links a navigation list item may carry ("– the reference", "(advanced)"). */
const ITEM_PROSE_MAX = 40;
/** A section that only sends the reader elsewhere: "See [dimension].", "⚠️ This page has moved. See [New Page]". */
const POINTER =
  /^\W*(see|refer to|please (see|refer to)|this page has moved|moved to|for more (information|details),? see)\b/i;
const POINTER_MAX = 120;

export function sectionRole(headings: readonly string[], blocks: readonly RootContent[]): SectionRole {
  const body = blocks.filter((b) => b.type !== 'html' && b.type !== 'definition' && b.type !== 'thematicBreak');
  if (body.every((b) => toString(b).trim() === '')) return 'empty';
  const heading = headings.at(-1) ?? '';
  const lists = body.filter((b): b is List => b.type === 'list');
  const linkTables = body.filter((b) => b.type === 'table' && isLinkTable(b));
  if (NAVIGATION_HEADING.test(heading.trim()) && lists.length + linkTables.length > 0) return 'navigation';
  if (lists.length > 0 && body.every((b) => b.type === 'list' || isLeadIn(b)) && lists.every(isLinkList))
    return 'navigation';
  if (isPointer(body)) return 'navigation';
  return 'content';
}

/** One or two short paragraphs that say where to look, with a link there. */
function isPointer(body: readonly RootContent[]): boolean {
  if (body.length > 2 || !body.every((b) => b.type === 'paragraph')) return false;
  const text = body
    .map((b) => toString(b))
    .join(' ')
    .trim();
  return text.length <= POINTER_MAX && POINTER.test(text) && body.some((b) => linkText(b).trim() !== '');
}

/** A table whose every row links somewhere (a specifications table: name and link). */
function isLinkTable(table: Table): boolean {
  return table.children.slice(1).every((row) => linkText(row).trim() !== '');
}

/** A short paragraph before a list ("See:", "Related guides:"). */
function isLeadIn(block: RootContent): boolean {
  return block.type === 'paragraph' && toString(block).trim().length <= ITEM_PROSE_MAX;
}

/** Every item is mostly a link: its text outside links is short. */
function isLinkList(list: List): boolean {
  return list.children.every((item) => {
    const all = toString(item).trim();
    const linked = linkText(item).trim();
    return linked.length > 0 && all.length - linked.length <= ITEM_PROSE_MAX;
  });
}

function linkText(node: { type: string; children?: unknown[] }): string {
  if (node.type === 'link' || node.type === 'linkReference') return toString(node);
  if (!Array.isArray(node.children)) return '';
  return (node.children as { type: string; children?: unknown[] }[]).map(linkText).join('');
}
