import type { Root } from 'mdast';
import type { Edit } from './edits.js';
import { walkTree } from './walk-tree.js';

/**
 * Inline markup a reader sees as plain text, which a section cut from its page would show raw:
 * - Hugo's glossary links, `[page resource](g)`: the site turns `g` into a link to the glossary;
 *   a search result showed the `(g)` (36 times in 9 Hugo answers);
 * - reference-style links, `[text][id]` and `[text]`, whose definitions sit at the page's end,
 *   outside the section shown (33 times in 9 MkDocs answers): their text, and the definitions go;
 * - HTML entities in prose, `&nbsp;` and the like, as the characters they stand for. Only those
 *   that cannot become Markdown or HTML when the text is parsed again (never `&lt;`, `&amp;`, `&#42;`).
 */

const NAMED: Readonly<Record<string, string>> = {
  nbsp: ' ',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
  shy: '',
  zwnj: '',
  zwj: '',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  times: '×',
  middot: '·',
  deg: '°',
  rarr: '→',
  larr: '←',
  harr: '↔',
  check: '✓',
};

/** Characters with a meaning in Markdown or HTML: an entity for one stays as written. */
const MARKUP = new Set([...'<>&*_[]`\\#|!~()-+.=:"\'']);

const ENTITY = /&(?:([A-Za-z][A-Za-z0-9]*)|#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6}));/g;

/** The entity's text, or undefined to leave it as written. */
function decoded(name: string | undefined, decimal: string | undefined, hex: string | undefined): string | undefined {
  if (name !== undefined) return NAMED[name];
  const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16);
  if (code === 0xa0) return ' ';
  if (code < 0x20 || code > 0x10ffff || (code >= 0x7f && code < 0xa0) || (code >= 0xd800 && code <= 0xdfff))
    return undefined;
  const char = String.fromCodePoint(code);
  return MARKUP.has(char) ? undefined : char;
}

interface Positioned {
  position?: { start: { offset?: number }; end: { offset?: number } };
}

function rangeOf(node: Positioned): { start: number; end: number } | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? undefined : { start, end };
}

/** A link's visible text as written: from its first child to its last. */
function innerText(text: string, children: readonly Positioned[]): string {
  const first = children[0] && rangeOf(children[0]);
  const last = children.at(-1) && rangeOf(children.at(-1)!);
  return first === undefined || last === undefined ? '' : text.slice(first.start, last.end);
}

export function linkTextEdits(tree: Root, text: string): Edit[] {
  const edits: Edit[] = [];
  walkTree(tree, (node) => {
    const range = rangeOf(node);
    if (range === undefined) return;
    if ((node.type === 'link' && node.url === 'g') || node.type === 'linkReference') {
      edits.push({ ...range, text: innerText(text, node.children) });
      return 'skip';
    }
    if (node.type === 'definition') edits.push({ ...range, text: '' });
    else if (node.type === 'text') edits.push(...entityEdits(text, range.start, range.end));
    return undefined;
  });
  return edits;
}

function entityEdits(text: string, start: number, end: number): Edit[] {
  const edits: Edit[] = [];
  const source = text.slice(start, end);
  for (const match of source.matchAll(ENTITY)) {
    const replacement = decoded(match[1], match[2], match[3]);
    if (replacement === undefined) continue;
    const at = start + match.index;
    edits.push({ start: at, end: at + match[0].length, text: replacement });
  }
  return edits;
}
